"""The server in a process of its own, for the tests that send it signals."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.hangup import as_from_a_terminal, as_under_nohup


def start_server_process(
    db: Path,
    settings: str | None = None,
    nohup: bool = False,
    said: list[dict[str, Any]] | None = None,
    web: bool = False,
) -> tuple[subprocess.Popen[str], int]:
    """``deberc-net serve`` in its own process on a free port: the process and its port.
    ``settings``: the ``[server]`` table's lines of a --config file (beside ``db``).
    SIGHUP at its default, as from a terminal, even where this suite runs under nohup;
    ``nohup``: ignored, as under it. ``said``: gets the log's lines read up to its
    ``listening`` (its start's: a migration's, say; ``http_listening`` names the web
    face's port). ``web``: with the web face, on a free port (else none: its default
    port is fixed)."""
    command = [sys.executable, "-m", "deberc_net", "serve", "--port", "0", "--db", str(db)]
    if web:  # (a settings file's http_port = 0 is a free port; the flag's off is none)
        settings = "http_port = 0" if settings is None else f"{settings}\nhttp_port = 0"
    else:
        command += ["--http-port", "off"]
    if settings is not None:
        config = db.with_suffix(".toml")
        config.write_text(f"[server]\n{settings}\n")
        command += ["--config", str(config)]
    proc = subprocess.Popen(
        as_under_nohup(command) if nohup else as_from_a_terminal(command),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        entry = json.loads(line)
        if said is not None:
            said.append(entry)
        if entry.get("event") == "listening":
            return proc, int(entry["port"])
    proc.kill()
    raise AssertionError("the server did not report its port")


def read_until(sock: socket.socket, needle: bytes, seconds: float = 30) -> bytes:
    """Read until ``needle`` arrives or the server closes (a hard time limit)."""
    sock.settimeout(seconds)
    data = b""
    while needle not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data
