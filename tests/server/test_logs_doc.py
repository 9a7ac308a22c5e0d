"""docs/settings.md, "Logs": every event its table names is one the server's code logs,
at the level the table gives (read from the source: a logger's call with the event's
name), and a real server's lines are JSON on stderr carrying a player's address."""

from __future__ import annotations

import ast
import functools
import json
import re
import signal
import socket
from pathlib import Path

from tests.server.process import read_until, start_server_process

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "settings.md"
LEVELS = {"debug", "info", "warning", "error", "exception", "critical"}
# a structlog logger in the source: a module's `log`, `_conn_log`, a session's `.log`,
# a table's bound `bound`
LOGGER = re.compile(r"(^|\.)(\w*log|bound)$")
ROW = re.compile(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \| ([a-z, ]+) \|")


def _documented() -> dict[str, str]:
    """Each event of the page's table and the level it gives."""
    events: dict[str, str] = {}
    section = PAGE.read_text(encoding="utf-8").split("\n## Logs\n", 1)[1]
    for line in section.splitlines():
        found = ROW.match(line)
        if found:
            names = [name.strip("` ") for name in found[1].split(",")]
            levels = [level.strip() for level in found[2].split(",")]
            levels = levels * len(names) if len(levels) == 1 else levels
            assert len(levels) == len(names), line
            events.update(zip(names, levels, strict=True))
    return events


@functools.cache  # three tests read them: the sources parsed once (~0.7 s of CPU)
def _logger_calls() -> tuple[tuple[str, ast.Call], ...]:
    """(event, call) of every logger call with a literal event in deberc_net."""
    found = []
    for path in (ROOT / "deberc_net").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in LEVELS
                and LOGGER.search(ast.unparse(node.func.value))
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append((node.args[0].value, node))
    return tuple(found)


def _logged() -> set[tuple[str, str]]:
    """(event, level) of every logger call with a literal event in deberc_net."""
    found = set()
    for event, call in _logger_calls():
        assert isinstance(call.func, ast.Attribute)
        level = "error" if call.func.attr == "exception" else call.func.attr
        found.add((event, level))
    return found


def test_no_event_passes_a_field_the_log_itself_writes() -> None:
    """The log's own keys (``level``, ``timestamp``) would overwrite a field of the
    same name (as ``house_bot_start``'s bot level once was)."""
    own = {"level", "timestamp", "event"}
    clashes = [
        (event, keyword.arg)
        for event, call in _logger_calls()
        for keyword in call.keywords
        if keyword.arg in own
    ]
    assert not clashes


def test_the_tables_events_are_logged_by_the_code_at_their_level() -> None:
    documented = _documented()
    assert {"listening", "worker_died", "worker_failed_to_start", "stopped"} <= set(documented)
    logged = _logged()
    missing = {event: level for event, level in documented.items() if (event, level) not in logged}
    assert not missing, f"documented but not logged so: {missing}"


def test_every_event_the_code_logs_is_in_the_table() -> None:
    assert {event for event, _ in _logged()} <= set(_documented())


def test_a_servers_log_is_json_on_stderr_with_the_players_address(tmp_path: Path) -> None:
    # a 0.1 s grace after SIGTERM: the default 2 s is waited in full, nobody online or not
    proc, port = start_server_process(tmp_path / "logs.sqlite3", "shutdown_grace_ms = 100")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            read_until(sock, b"\n")
            sock.sendall(b"login misha\nquit\n")
            read_until(sock, b"bye")
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    lines = [json.loads(line) for line in err.splitlines()]
    events = {line["event"]: line for line in lines}
    assert events["connect"]["peer"].startswith("127.0.0.1:")
    assert events["login"]["name"] == "misha"
    assert events["disconnect"]["peer"] == events["connect"]["peer"]
    assert lines[-1]["event"] == "stopped"
    assert all({"event", "level", "timestamp"} <= set(line) for line in lines)
