"""A full disk, for real (a tiny tmpfs, mounted as root: skipped otherwise): a table
that cannot draw its match number is a store's failure, logged as one
(``match_number_failed``, a warning, no traceback), not a bug's ``table_error``, which
a full disk logged with its traceback for every table bots opened (operator evening
s41; docs/settings.md, Logs)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from .conftest import Connector
from .process import start_server_process


@contextlib.contextmanager
def _tiny_disk(where: Path) -> Iterator[Path]:
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a tmpfs is mounted by root only")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(disk: Path) -> None:
    """Fill the disk to its last byte."""
    with open(disk / "filler", "wb", buffering=0) as f, contextlib.suppress(OSError):
        while True:
            f.write(b"\0" * 4096)


async def test_tables_that_cannot_draw_a_match_number_on_a_full_disk_log_a_warning(
    tmp_path: Path, connect: Connector
) -> None:
    with _tiny_disk(tmp_path / "disk") as disk:
        # (no heartbeat meanwhile: its write would fill the log first)
        settings = "heartbeat_ms = 600000\nserver_dead_ms = 1200000"
        proc, port = start_server_process(disk / "s.sqlite3", settings)
        try:
            _fill(disk)
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            for client in (ann, bob):
                await client.send("seek 2")
            for client in (ann, bob):
                closed = await client.expect("info")
                assert closed["closed"] == "1"
        finally:
            proc.kill()
            _, err = await trio.to_thread.run_sync(proc.communicate)
    logged = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert not [e for e in logged if e["level"] == "error"], logged
    (failed,) = [e for e in logged if e["event"] == "match_number_failed"]
    assert (failed["level"], failed["table"]) == ("warning", 1)
    assert "full" in failed["error"] and "exception" not in failed, failed
