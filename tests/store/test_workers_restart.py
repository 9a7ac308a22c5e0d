"""``serve --workers 2``'s parent while a dead worker waits ``worker_restart_ms`` to be
started again (docs/settings.md): it still watches the other, and a SIGTERM stops it at
once, not after the wait."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from deberc_net.server.config import RANGES

from .workers import Workers, served_workers

# the longest wait the setting takes (docs/settings.md, its range): a restart that
# never comes within the test
NEVER_MS = RANGES["worker_restart_ms"].most
SETTINGS = f"[server]\nlag_ms = 0\nshutdown_grace_ms = 100\nworker_restart_ms = {NEVER_MS}\n"


async def _died(workers: Workers, worker: int) -> None:
    with trio.fail_after(15):
        while not any(
            e.get("event") == "worker_died" and e.get("worker") == worker for e in workers.events
        ):
            await trio.sleep(0.05)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_worker_waiting_to_restart_holds_up_neither_the_others_nor_a_stop(
    postgres_url: str, tmp_path: Path
) -> None:
    """Before the fix the parent slept the whole wait: it saw nothing else die, and a
    SIGTERM waited for the sleep's end."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings) as workers:
            os.kill(workers.pids[0], signal.SIGKILL)
            await _died(workers, 0)
            os.kill(workers.pids[1], signal.SIGKILL)
            await _died(workers, 1)  # seen while worker 0 waits
            workers.process.send_signal(signal.SIGTERM)
            with trio.fail_after(15):
                await workers.process.wait()
        assert workers.process.returncode == 0
        started = [e["worker"] for e in workers.events if e.get("event") == "worker_started"]
        assert len(started) == 2 and set(started) == {0, 1}, started  # neither again
        assert [e for e in workers.events if e.get("event") == "stopped"], workers.events[-10:]
