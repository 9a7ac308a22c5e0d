"""tests/abandoned_runs.py: a trio run a signal's exception abandoned is closed."""

from __future__ import annotations

import signal
from types import FrameType

import pytest
import trio

from tests.abandoned_runs import close_abandoned_run


class Overran(Exception):
    """What pytest-timeout's SIGALRM handler raises (its Failed), in short."""


def _overran(signum: int, frame: FrameType | None) -> None:
    raise Overran


def test_a_run_a_signal_ended_is_closed_and_the_next_run_starts() -> None:
    """Failed before: the second trio.run said 'Attempted to call run() from inside a
    run()', as every trio test after one the time limit ended did."""
    old = signal.signal(signal.SIGALRM, _overran)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)  # while the run waits for I/O
        with pytest.raises(Overran) as raised:
            trio.run(trio.sleep, 60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert trio.lowlevel.in_trio_run()  # what the next test met
    assert close_abandoned_run(raised.value)
    assert not trio.lowlevel.in_trio_run()
    trio.run(trio.sleep, 0)
    assert not close_abandoned_run(raised.value)  # nothing left to close
