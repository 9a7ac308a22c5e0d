"""tests/abandoned_runs.py: a trio run a signal's exception abandoned is finished."""

from __future__ import annotations

import inspect
import signal
from collections.abc import Awaitable, Callable
from types import FrameType

import pytest
import trio

from tests.abandoned_runs import close_abandoned_run


class Overran(Exception):
    """What pytest-timeout's SIGALRM handler raises (its Failed), in short."""


def _overran(signum: int, frame: FrameType | None) -> None:
    raise Overran


def _abandoned(async_fn: Callable[[], Awaitable[object]]) -> Overran:
    """The exception of a trio.run of ``async_fn`` that SIGALRM ended while it waited."""
    old = signal.signal(signal.SIGALRM, _overran)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)  # while the run waits for I/O
        with pytest.raises(Overran) as raised:
            trio.run(async_fn)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return raised.value


def test_a_run_a_signal_ended_is_closed_and_the_next_run_starts() -> None:
    """Failed before: the second trio.run said 'Attempted to call run() from inside a
    run()', as every trio test after one the time limit ended did."""
    raised = _abandoned(trio.sleep_forever)
    assert trio.lowlevel.in_trio_run()  # what the next test met
    assert close_abandoned_run(raised)
    assert not trio.lowlevel.in_trio_run()
    trio.run(trio.sleep, 0)
    assert not close_abandoned_run(raised)  # nothing left to close


def test_the_abandoned_runs_tasks_unwind_inside_it_and_none_is_left_suspended() -> None:
    """Failed before: the run's loop was closed with its tasks suspended, and the garbage
    collector finalized their coroutines later, outside any run, in whichever test ran
    then: PytestUnraisableExceptionWarnings (a cancel scope's exit 'must be called from
    async context', two nurseries' children, a closed epoll) charged to that test."""
    tasks: list[trio.lowlevel.Task] = []
    unwound_in_a_run: list[bool] = []

    async def waits() -> None:
        root = trio.lowlevel.current_root_task()
        assert root is not None
        tasks.extend([root, trio.lowlevel.current_task()])
        async with trio.open_nursery() as nursery:
            nursery.start_soon(child)
            await trio.sleep_forever()

    async def child() -> None:
        tasks.append(trio.lowlevel.current_task())
        try:
            await trio.sleep_forever()
        finally:
            unwound_in_a_run.append(trio.lowlevel.in_trio_run())

    raised = _abandoned(waits)
    assert [inspect.getcoroutinestate(task.coro) for task in tasks] == [inspect.CORO_SUSPENDED] * 3
    assert close_abandoned_run(raised)
    assert unwound_in_a_run == [True]  # its finally ran, cancelled, in its own run
    assert [inspect.getcoroutinestate(task.coro) for task in tasks] == [
        inspect.CORO_CLOSED
    ] * 3  # (the <init> task's Runner.init too): nothing for the collector to finalize
