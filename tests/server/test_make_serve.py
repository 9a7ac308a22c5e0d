"""`make serve ARGS="..."` passes serve's flags on (README): a port of one's own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# the serve target with this interpreter's deberc-net, its install taken as done: make
# never reinstalls (a pyproject.toml newer than the stamp) nor makes a .venv in the tree
MAKE_SERVE = ["make", "-s", "-o", ".venv/.installed", "serve", f"BIN={Path(sys.executable).parent}"]


def test_make_serve_in_the_test_never_installs_anything() -> None:
    """As if pyproject.toml had just changed (-W): still only the server's command."""
    dry = subprocess.run(
        [*MAKE_SERVE, "-n", "-W", "pyproject.toml", "ARGS=--port 0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert dry.stdout.splitlines() == [
        f"{Path(sys.executable).parent}/deberc-net serve --house-bots --port 0"
    ], dry.stdout


def test_make_serve_takes_serves_flags_in_args(tmp_path: Path) -> None:
    db = tmp_path / "made.sqlite3"
    # a 0.1 s grace after the SIGTERM below (the default 2 s is waited in full)
    settings = tmp_path / "settings.toml"
    settings.write_text("[server]\nshutdown_grace_ms = 100\n")
    args = f"--port 0 --http-port 0 --db {db} --config {settings}"
    proc = subprocess.Popen(
        [*MAKE_SERVE, f"ARGS={args}"],
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
