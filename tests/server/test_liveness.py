"""``process_ended`` (server/cluster/liveness.py): how a worker knows another of its
parent's is dead, by its pid, before the bus says so (docs/scaling.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from deberc_net.server.cluster.liveness import process_ended


@pytest.mark.timeout(30)
def test_a_running_process_lives_and_a_killed_one_has_ended_reaped_or_not() -> None:
    assert not process_ended(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert not process_ended(child.pid)
        os.kill(child.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        # not reaped (no wait yet): a zombie, still there to os.kill(pid, 0)
        while not process_ended(child.pid):
            assert time.monotonic() < deadline, "a killed child never seen ended"
            time.sleep(0.01)
        os.kill(child.pid, 0)  # (it is a zombie, not gone)
    finally:
        child.kill()
        child.wait(10)
    assert process_ended(child.pid)  # reaped: gone
