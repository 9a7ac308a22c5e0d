"""A web client that never reads what it asked for is cut off, and holds up no stop.

hypercorn writes each answer with its send shielded from cancellation, so a client that
asked for pages (or watched a table) and stopped reading kept that write waiting for
good: its task, its live socket's place, and SIGTERM's stop, which waited for it as long
as the client kept the connection open (a tryout: one connection pipelining 50 page
requests held a server's stop for minutes). The web face's connections are cut off by
the kernel once what they were sent has waited `web_send_timeout_ms` (docs/security.md
§4)."""

from __future__ import annotations

import json
import signal
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from .serve_process import started

REQUESTS = 300  # of table.js (19 KB): more than the kernel buffers on both ends take


def unsent(server_port: int, client_port: int) -> int:
    """The bytes the server's end of a loopback connection holds unsent or unacked
    (/proc/net/tcp's tx_queue): on loopback, more than none once the peer's window is
    shut, the server then waiting to write."""
    with open("/proc/net/tcp") as table:
        for row in table.readlines()[1:]:
            local, remote, _, queues = row.split()[1:5]
            if (int(local.split(":")[1], 16), int(remote.split(":")[1], 16)) == (
                server_port,
                client_port,
            ):
                return int(queues.split(":")[0], 16)
    return 0


@pytest.mark.timeout(60)
def test_a_web_client_that_never_reads_holds_up_no_stop(tmp_path: Path) -> None:
    settings = tmp_path / "server.toml"
    settings.write_text(
        "[server]\nhttp_port = 0\nshutdown_grace_ms = 100\n"
        "web_requests_per_address_burst = 0\n"  # (no allowance: all its requests come)
        "web_send_timeout_ms = 1000\n"
    )
    proc, ports = started(settings, tmp_path / "s.sqlite3")
    stuck = socket.socket()
    try:
        assert set(ports) == {"listening", "http_listening"}, ports
        http = ports["http_listening"]
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        stuck.connect(("127.0.0.1", http))
        stuck.sendall(b"GET /static/table.js HTTP/1.1\r\nHost: x\r\n\r\n" * REQUESTS)
        # its answers fill the buffers, and the server waits to write (seen, not a
        # second slept: a loaded host took longer)
        deadline = time.monotonic() + 20
        while not unsent(http, stuck.getsockname()[1]):
            assert time.monotonic() < deadline, "the server's writes never waited"
            time.sleep(0.05)
        with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/tables", timeout=30) as reply:
            assert json.loads(reply.read()) == {"tables": []}  # others are served meanwhile
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0  # it waited for the reader as long as it lived
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        stuck.close()
    assert proc.stderr is not None
    events = [json.loads(line)["event"] for line in proc.stderr.read().splitlines() if line]
    assert events[-1] == "stopped"
