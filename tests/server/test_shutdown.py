"""SIGTERM / SIGINT: stop accepting, tell everyone, keep what is stored, exit 0."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _start(db: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "deberc_net", "serve", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        entry = json.loads(line)
        if entry.get("event") == "listening":
            return proc, int(entry["port"])
    proc.kill()
    raise AssertionError("the server did not report its port")


def _read_until(sock: socket.socket, needle: bytes, seconds: float = 10) -> bytes:
    sock.settimeout(seconds)
    data = b""
    while needle not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_cleanly_and_tells_everyone(tmp_path: Path, signum: int) -> None:
    proc, port = _start(tmp_path / "s.sqlite3")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"style machine\nlogin waiter\n")
            _read_until(client, b"cmd=login")
            proc.send_signal(signum)
            said = _read_until(client, b"shutting down")
            assert b"info text=The server is shutting down" in said
            rest = _read_until(client, b"\xff")  # until the server closes the connection
            assert b"error" not in rest
        assert proc.wait(timeout=20) == 0
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    events = [json.loads(line)["event"] for line in proc.stderr.read().splitlines() if line]
    assert "shutdown" in events and events[-1] == "stopped"
