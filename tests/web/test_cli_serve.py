"""`deberc-net serve` with its web face, as a process: pages served, SIGTERM stops both."""

from __future__ import annotations

import json
import signal
import urllib.request
from pathlib import Path

from .serve_process import started


def test_serve_serves_pages_and_stops_on_sigterm(tmp_path: Path) -> None:
    settings = tmp_path / "server.toml"
    # in a file, 0 is any free port; a 0.1 s grace after SIGTERM (the default 2 s is
    # waited in full: what it lets through is test_attacks', not this test's)
    settings.write_text("[server]\nhttp_port = 0\nshutdown_grace_ms = 100\n")
    proc, ports = started(settings, tmp_path / "s.sqlite3")
    assert proc.stderr is not None
    try:
        assert set(ports) == {"listening", "http_listening"}, ports
        url = f"http://127.0.0.1:{ports['http_listening']}"
        with urllib.request.urlopen(f"{url}/api/tables", timeout=30) as reply:
            assert json.loads(reply.read()) == {"tables": []}
        with urllib.request.urlopen(f"{url}/", timeout=30) as reply:
            page = reply.read().decode()
            assert "Open tables" in page and "No table is open" in page
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    events = [json.loads(line)["event"] for line in proc.stderr.read().splitlines() if line]
    assert "shutdown" in events and events[-1] == "stopped"
