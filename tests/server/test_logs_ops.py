"""What an operator reads in the log (docs/settings.md, "Logs"): the lines a tryout
found missing or noisy, captured from in-process servers (``structlog.testing``)."""

from __future__ import annotations

import json
import signal
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import structlog
import trio

from .client import LineClient, a_whole_match
from .conftest import Connector
from .process import read_until, start_server_process

Register = Callable[[str, str], Awaitable[None]]


def _events(logs: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [line for line in logs if line["event"] == event]


async def test_a_match_between_guests_logs_no_rated_line(
    port: int, connect: Connector, register: Register
) -> None:
    """It logged ``"ratings": {}``: a line that says nothing, at every guests' match."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    with structlog.testing.capture_logs() as logs:
        await a_whole_match(ann, bob, "2 short")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")  # (the match's end is logged by now)
    assert len(_events(logs, "match_end")) == 1
    assert _events(logs, "rated") == []


async def test_a_rated_match_logs_its_ratings(
    port: int, connect: Connector, register: Register
) -> None:
    await register("ann", "pw-ann-1")
    await register("bob", "pw-bob-1")
    ann = await connect.machine(port, "ann", "pw-ann-1")
    bob = await connect.machine(port, "bob", "pw-bob-1")
    with structlog.testing.capture_logs() as logs:
        await a_whole_match(ann, bob, "2 short")
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
    [rated] = _events(logs, "rated")
    assert set(rated["ratings"]) == {"ann", "bob"}


def test_a_lone_server_logs_its_lifecycle_under_log_level_warning(tmp_path: Path) -> None:
    """The checklist's log_level = "warning" (docs/security.md) left a lone server's log
    empty: no listening (start_server_process waits for it), no shutdown, no stopped."""
    proc, port = start_server_process(
        tmp_path / "quiet.sqlite3", 'log_level = "warning"\nshutdown_grace_ms = 100'
    )
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            read_until(sock, b"\n")
            sock.sendall(b"login misha\nquit\n")
            read_until(sock, b"bye")
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    events = [json.loads(line)["event"] for line in err.splitlines()]
    assert events == ["shutdown", "stopped"]  # (its 'listening' read by start_server_process)


async def test_a_full_server_logs_the_refusal_once_and_says_full(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """Three logged in of max_connections = 3: the fourth was told 'full or shutting
    down' and the log had no line. Now one line, ``refused``, with the peer and why;
    the next refusals within the minute are counted for its summary, not logged."""
    port = await start_server(max_connections=3)
    for name in ("ann", "bob", "cat"):
        await connect.machine(port, name)
    with structlog.testing.capture_logs() as logs:
        for _ in range(3):
            extra = LineClient(await trio.open_tcp_stream("127.0.0.1", port), "extra")
            await extra.wait_closed()
            await extra.aclose()
            assert extra.lines == ["error code=busy text=the server is full"]
    [refused] = _events(logs, "refused")
    assert refused["reason"] == "full" and refused["log_level"] == "warning"
    assert refused["peer"].startswith("127.0.0.1:")
    assert _events(logs, "connect") == []  # (a refused connection is no connection)
