"""The logs go to the standard error of the moment, not to the one there was when
logging was set up: a process (or a test) that swaps ``sys.stderr`` and closes the old
one must not make every later log line raise — a store's error path logs its traceback
before it refuses (store_open_failed), and a ValueError there would hide the refusal."""

from __future__ import annotations

import io
import json
import sys

import structlog

from deberc_net.server.logs import configure_logging


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
