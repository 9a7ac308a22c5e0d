"""`deberc-net serve` as a process of its own, for the web tests: started on a settings
file and a store, its ports read from its log's first lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


def started(
    settings: Path, db: Path, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], dict[str, int]]:
    """The process, and its ports by their log events (`listening`, `http_listening`)
    once it listens (20 s at most: then those it said). ``env``: variables set for it
    on top of this process's."""
    serve = ["serve", "--port", "0", "--config", str(settings), "--db", str(db)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "deberc_net", *serve],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=None if env is None else {**os.environ, **env},
    )
    assert proc.stderr is not None
    ports: dict[str, int] = {}
    deadline = time.monotonic() + 20
    while "listening" not in ports and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        entry = json.loads(line)
        if entry.get("event") in ("listening", "http_listening"):
            ports[entry["event"]] = int(entry["port"])
    return proc, ports
