"""The stall meter (tests/stall_meter.py) counts the time its process was stopped, and
not the time its own Python work held the loop."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from tests.stall_meter import stall_meter

STOPPED_S = 0.4


@pytest.mark.timeout(30)
def test_a_stopped_process_is_a_stall_and_its_own_busy_loop_is_not() -> None:
    with stall_meter() as meter:
        start, cpu = time.monotonic(), time.thread_time()
        while time.thread_time() - cpu < STOPPED_S:  # the GIL held by this thread's work
            pass
        busy = time.monotonic()
        # what this thread ran is no stall (on a loaded machine the process also waits
        # for a core: that is one, on top)
        assert meter.ran_s(start, busy) >= STOPPED_S * 0.9
        # stopped whole, as a machine's stall stops it, by a process that goes on
        stopper = subprocess.Popen(
            ["sh", "-c", f"kill -STOP {os.getpid()}; sleep {STOPPED_S}; kill -CONT {os.getpid()}"]
        )
        assert stopper.wait(timeout=20) == 0
        time.sleep(0.05)  # (the meter's thread woke, and saw it)
        end = time.monotonic()
    assert STOPPED_S * 0.8 <= meter.stalled_s(busy, end) <= end - busy
    assert meter.ran_s(busy, end) < end - busy - STOPPED_S * 0.8
