"""The session's PostgreSQL template (tests/store/postgres_server.py) survives a worker
killed while it copies it: the next server is started from a whole template or from a
fresh initdb, never from a part of one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .postgres_server import TEMPLATE, PostgresServer, binaries

ROOT = Path(__file__).resolve().parent.parent.parent

# cp as the first worker's copy of its data directory to the template meets it: the
# copy begun (the target made), then the worker killed (SIGKILL: nothing of its own runs)
KILLING_CP = """#!/bin/sh
case "$3" in
  */{template}*) mkdir -p "$3"; kill -s KILL "$PPID"; exit 1 ;;
esac
exec {cp} "$@"
"""


def test_a_worker_killed_copying_the_template_leaves_no_part_of_one(tmp_path: Path) -> None:
    if binaries() is None:
        pytest.skip("PostgreSQL is not installed")
    shared = tmp_path / "shared"
    fake = tmp_path / "bin"
    fake.mkdir()
    real = shutil.which("cp")
    assert real is not None
    (fake / "cp").write_text(KILLING_CP.replace("{template}", TEMPLATE).replace("{cp}", real))
    (fake / "cp").chmod(0o755)
    path = f"{fake}{os.pathsep}{os.environ['PATH']}"
    starting = "import sys; from pathlib import Path; from tests.store.postgres_server "
    starting += "import PostgresServer; PostgresServer.start(Path(sys.argv[1]))"
    killed = subprocess.run(
        [sys.executable, "-c", starting, str(shared)],
        cwd=ROOT,
        env={**os.environ, "PATH": path},
        capture_output=True,
        timeout=50,
        check=False,
    )
    assert killed.returncode == -9, killed.stderr.decode()
    server = PostgresServer.start(shared)
    try:
        server.drop_database(server.new_database())
    finally:
        server.stop()
