"""How long the tests' own process stood still (not run at all), for the few tests that
assert a time: that something came within a bound, or did not come before one.

A loaded CI machine stalls whole for seconds at times (ci49c: every process at once,
1.4-2.7 s). A bound measured on the wall clock then fails for a stall, not for the code.
A thread of this process sleeps a few milliseconds over and over: when its sleep ends far
later than it asked, the process was not run meanwhile (stopped, or the machine's cores
taken), and that time is a stall. A loop held by this process's own Python work does not
count: the thread wakes within the interpreter's switch interval (5 ms) and gets the GIL.
So ``ran_s(start, end)`` is the wall time of ``start``..``end`` less the stalls in it,
the time a bound is about (docs/performance.md, "Test suite"). The servers a test starts
as processes stall with the machine as this one does; their own stalls alone are not seen.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import attrs

TICK_S = 0.005  # the thread's sleep
LATE_S = 0.05  # a wake this late: the process was stopped, or waited for a core (not run)


@attrs.define
class StallMeter:
    """The stalls seen since it started: (start, end) on ``time.monotonic``."""

    stalls: list[tuple[float, float]] = attrs.field(factory=list)
    _stop: threading.Event = attrs.field(factory=threading.Event)

    def watch(self) -> None:
        while not self._stop.is_set():
            asked = time.monotonic()
            time.sleep(TICK_S)
            woke = time.monotonic()
            if woke - asked - TICK_S > LATE_S:
                self.stalls.append((asked + TICK_S, woke))

    def stalled_s(self, start: float, end: float) -> float:
        """The stalls' time within ``start``..``end`` (``time.monotonic``, as trio's
        clock is outside virtual-time tests)."""
        return sum(max(0.0, min(b, end) - max(a, start)) for a, b in self.stalls)

    def ran_s(self, start: float, end: float) -> float:
        """The time of ``start``..``end`` that this process was run."""
        return end - start - self.stalled_s(start, end)


@contextmanager
def stall_meter() -> Iterator[StallMeter]:
    meter = StallMeter()
    thread = threading.Thread(target=meter.watch, name="stall-meter", daemon=True)
    thread.start()
    try:
        yield meter
    finally:
        meter._stop.set()
        thread.join()
