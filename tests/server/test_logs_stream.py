"""The logs go to the standard error of the moment, not to the one there was when
logging was set up: a process (or a test) that swaps ``sys.stderr`` and closes the old
one must not make every later log line raise — a store's error path logs its traceback
before it refuses (store_open_failed), and a ValueError there would hide the refusal."""

from __future__ import annotations

import io
import json
import signal
import socket
import sys
from pathlib import Path

import pytest
import structlog

from deberc_net.server import logs
from deberc_net.server.logs import LifecycleLog, configure_logging
from tests.server.process import read_until, start_server_process


def test_a_log_line_after_the_first_stderr_was_closed_goes_to_the_current_one() -> None:
    saved_config = structlog.get_config()
    saved_stderr = sys.stderr
    first, second = io.StringIO(), io.StringIO()
    try:
        sys.stderr = first
        configure_logging("info", json_output=True)
        log = structlog.get_logger()
        log.info("before")  # caches the logger (cache_logger_on_first_use)
        sys.stderr = second
        first.close()
        log.info("after", n=1)
    finally:
        sys.stderr = saved_stderr
        structlog.configure(**saved_config)
    line = json.loads(second.getvalue())
    assert (line["event"], line["n"], line["level"]) == ("after", 1, "info")


def test_lifecycle_lines_pass_any_log_level_and_the_rest_keep_theirs() -> None:
    """docs/settings.md, "Logs": a server's listening, shutdown and stopped are written
    under log_level = "warning" too (a worker's with its index, as its other lines)."""
    saved_config = structlog.get_config()
    saved_stderr = sys.stderr
    sys.stderr = written = io.StringIO()
    try:
        configure_logging("error", json_output=True, worker=1)
        structlog.get_logger("deberc.server").info("connect")
        structlog.get_logger("deberc.server").warning("outbox_full")
        LifecycleLog("deberc.server").info("listening", port=7501)
    finally:
        sys.stderr = saved_stderr
        structlog.configure(**saved_config)
    [line] = [json.loads(text) for text in written.getvalue().splitlines()]
    assert (line["event"], line["level"], line["worker"]) == ("listening", "info", 1)


def test_a_ladders_own_server_keeps_to_its_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ladder run``'s server logs nothing of its lifecycle: its output is the ladder's."""
    monkeypatch.setattr(logs, "lifecycle_passes", True)  # (as it was, after the test)
    saved_config = structlog.get_config()
    saved_stderr = sys.stderr
    sys.stderr = written = io.StringIO()
    try:
        configure_logging("warning", json_output=True, lifecycle=False)
        LifecycleLog("deberc.server").info("listening", port=7501)
    finally:
        sys.stderr = saved_stderr
        structlog.configure(**saved_config)
    assert written.getvalue() == ""


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_a_json_line_keeps_cyrillic_as_written_where_the_stream_takes_it(encoding: str) -> None:
    """A 'said' line in Russian reads as said (grep finds it), not as \\u escapes; where
    standard error is not UTF-8 (an ASCII locale) it is escaped, still JSON."""
    saved_config = structlog.get_config()
    saved_stderr = sys.stderr
    raw = io.BytesIO()
    # (kept: a wrapper collected closes the bytes under it)
    sys.stderr = stream = io.TextIOWrapper(raw, encoding=encoding, errors="backslashreplace")
    try:
        configure_logging("info", json_output=True)
        structlog.get_logger("deberc.lobby").info("said", name="иван", text="привет всем")
        stream.flush()
    finally:
        sys.stderr = saved_stderr
        structlog.configure(**saved_config)
    text = raw.getvalue().decode("utf-8")
    assert json.loads(text)["text"] == "привет всем"
    assert ('"text": "привет всем"' in text) == (encoding == "utf-8"), text


@pytest.mark.timeout(60)
def test_a_server_whose_log_reader_went_away_plays_on_and_stops_cleanly(tmp_path: Path) -> None:
    """An operator's `serve 2>&1 | tee club.log`, tee stopped: the server's next log line
    raised BrokenPipeError out of the task that logged it, and the server stopped with
    status 1, its players cut off. Its lines are dropped now; it plays on."""
    proc, port = start_server_process(tmp_path / "db.sqlite3", "shutdown_grace_ms = 100")
    try:
        assert proc.stderr is not None
        proc.stderr.close()  # the log's reader is gone: each line written meets EPIPE
        with (
            socket.create_connection(("127.0.0.1", port), timeout=30) as ann,
            socket.create_connection(("127.0.0.1", port), timeout=30) as bob,
        ):
            ann.sendall(b"style machine\nlogin ann\nnew 2\n")  # connect, login, a table: logged
            table = read_until(ann, b"cmd=sit").split(b"table=")[1].split()[0]
            bob.sendall(b"style machine\nlogin bob\nsit " + table + b"\n")
            assert b"kind=start" in read_until(bob, b"kind=start")
            ann.sendall(b"who\n")
            assert b"who " in read_until(ann, b"\nwho ")
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
