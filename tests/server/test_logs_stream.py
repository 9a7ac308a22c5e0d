"""The logs go to the standard error of the moment, not to the one there was when
logging was set up: a process (or a test) that swaps ``sys.stderr`` and closes the old
one must not make every later log line raise — a store's error path logs its traceback
before it refuses (store_open_failed), and a ValueError there would hide the refusal."""

from __future__ import annotations

import io
import json
import sys

import pytest
import structlog

from deberc_net.server import logs
from deberc_net.server.logs import LifecycleLog, configure_logging


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
