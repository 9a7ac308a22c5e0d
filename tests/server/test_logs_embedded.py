"""A program that embeds the server (``serve``) and sets no logging up gets structlog's
own defaults, but plain tracebacks: the default draws every frame's locals (rich), and
a table's failure once took 48 s to log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROGRAM = """\
import functools, sys
import structlog, trio
from deberc_net.server.app import serve
from deberc_net.server.config import Config

async def main():
    config = Config(host="127.0.0.1", port=0, db=sys.argv[1])
    async with trio.open_nursery() as nursery:
        await nursery.start(functools.partial(serve, config))
        try:
            kept_in_a_frame = "the frame's locals"
            raise ValueError("a table failed")
        except ValueError:
            structlog.get_logger("deberc.table").exception("table_failed")
        nursery.cancel_scope.cancel()

trio.run(main)
"""


def test_a_program_embedding_serve_gets_plain_tracebacks(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(tmp_path / "embedded.sqlite3")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr  # (structlog's default prints to standard output)
    assert "Traceback (most recent call last):" in said and "table_failed" in said, said
    assert "ValueError: a table failed" in said
    assert "the frame's locals" not in said, said  # failed before: rich drew the locals
