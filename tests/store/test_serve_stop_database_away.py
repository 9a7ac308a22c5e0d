"""A plain server on PostgreSQL stopped (SIGTERM) while its database is away: it tells
its players and ends within moments, not after the pool's 30-s wait for a connection
for each of its last store calls, saying in one line that its stop could not be
stored (docs/scaling.md, "When a process dies")."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.process import read_until

from .workers import database_away

ENDS_WITHIN_S = 15  # its grace (0.3 s), its last calls' waits, a busy machine's start


@pytest.mark.timeout(90)
def test_a_server_stopped_with_its_database_away_ends_at_once_saying_so(
    postgres_url: str, tmp_path: Path
) -> None:
    config = tmp_path / "server.toml"
    config.write_text("[server]\nshutdown_grace_ms = 300\n")
    command = [sys.executable, "-m", "deberc_net", "serve", "--port", "0", "--http-port", "off"]
    command += ["--db", postgres_url, "--config", str(config)]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        port = None
        while port is None:
            entry = json.loads(proc.stderr.readline())
            if entry.get("event") == "listening":
                port = int(entry["port"])
        with (
            socket.create_connection(("127.0.0.1", port), timeout=30) as ann,
            socket.create_connection(("127.0.0.1", port), timeout=30) as bob,
        ):
            ann.sendall(b"style machine\nlogin ann\nnew 2\n")
            read_until(ann, b"cmd=sit")
            bob.sendall(b"style machine\nlogin bob\nseek 2\n")
            read_until(bob, b"kind=start")
            database_away(postgres_url, True)
            try:
                stopped = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                assert b"shutting down" in read_until(ann, b"shutting down")
                status = proc.wait(timeout=60)
                took = time.monotonic() - stopped
            finally:
                database_away(postgres_url, False)
        assert took < ENDS_WITHIN_S, took
        # said in one line, status 2 (a traceback and status 1 before)
        last = proc.stderr.read().splitlines()[-1]
        assert last.startswith("deberc-net serve: the database at "), last
        assert "did not answer at the stop" in last and "lost server's" in last, last
        assert status == 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
