"""`make serve ARGS="..."` passes serve's flags on (README): a port of one's own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_make_serve_takes_serves_flags_in_args(tmp_path: Path) -> None:
    db = tmp_path / "made.sqlite3"
    args = f"--port 0 --http-port 0 --db {db}"
    proc = subprocess.Popen(
        ["make", "-s", "serve", f"ARGS={args}"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # make and its server: stopped together below
    )
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 30
        listening = None
        while listening is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            if line.startswith("{") and json.loads(line).get("event") == "listening":
                listening = json.loads(line)
        assert listening is not None, "no 'listening' line from make serve"
        assert listening["port"] != 7501 and listening["db"] == str(db)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
