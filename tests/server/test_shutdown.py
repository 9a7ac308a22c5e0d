"""SIGTERM / SIGINT: stop accepting, tell everyone, keep what is stored, exit 0."""

from __future__ import annotations

import json
import signal
import socket
from pathlib import Path

import pytest

from .process import read_until, start_server_process


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_cleanly_and_tells_everyone(tmp_path: Path, signum: int) -> None:
    # the grace before connections close is test_attacks' (calls answered meanwhile)
    proc, port = start_server_process(tmp_path / "s.sqlite3", "shutdown_grace_ms = 100")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"style machine\nlogin waiter\n")
            read_until(client, b"cmd=login")
            proc.send_signal(signum)
            said = read_until(client, b"shutting down")
            assert b"info text=The server is shutting down" in said
            rest = read_until(client, b"\xff")  # until the server closes the connection
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
