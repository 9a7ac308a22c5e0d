"""A server that owns its process (``serve(handle_signals=True)``: the CLI's, a worker's)
freezes what its start-up made (``gc.freeze``) before it accepts, so the collector's
older passes stop walking it, collects its young objects less often, and has trio run
woken tasks in the order they woke (docs/performance.md); an in-process one (a test's)
does none of these."""

from __future__ import annotations

import functools
import gc
from pathlib import Path

import pytest
import trio
import trio._core._run as trio_run

from deberc_net.server.app import serve
from deberc_net.server.running import YOUNG_COLLECTION_AFTER
from deberc_net.start_up import collector_paused
from deberc_net.testing import rule_book

from .conftest import make_config


def frozen(thing: object) -> bool:
    """Whether ``thing`` (tracked by the collector) is in its permanent generation:
    ``gc.get_objects()`` lists the other three."""
    return not any(other is thing for other in gc.get_objects())


@pytest.fixture(autouse=True)
def trio_as_in_a_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """The order of a batch as a server's process has it: hypothesis, imported by the
    tests, has trio shuffle each batch instead of tossing its coin."""
    monkeypatch.setattr(trio_run, "_ALLOW_DETERMINISTIC_SCHEDULING", False)


async def test_a_server_owning_its_process_freezes_its_start_up_heap(tmp_path: Path) -> None:
    made_before: list[object] = []
    thresholds = gc.get_threshold()
    coin = trio_run._r
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(
                functools.partial(
                    serve,
                    make_config(tmp_path / "s.sqlite3"),
                    handle_signals=True,
                    rules=rule_book(),
                )
            )
            assert frozen(made_before)
            assert gc.get_threshold() == (YOUNG_COLLECTION_AFTER, *thresholds[1:])
            assert await woken_in_order()
            nursery.cancel_scope.cancel()
    finally:
        gc.set_threshold(*thresholds)  # the test's process is not the server's
    assert trio_run._r is coin  # trio's own coin back once the server ended
    assert not await woken_in_order()


async def test_it_turns_on_the_collector_paused_for_the_cli_s_start_up(tmp_path: Path) -> None:
    """`deberc-net serve` starts with the collector off (start_up.collector_paused): on
    again at the freeze, before the server accepts, not when the command ends."""
    thresholds = gc.get_threshold()
    try:
        with collector_paused():
            async with trio.open_nursery() as nursery:
                assert not gc.isenabled()
                config = make_config(tmp_path / "s.sqlite3")
                await nursery.start(
                    functools.partial(serve, config, handle_signals=True, rules=rule_book())
                )
                assert gc.isenabled()
                nursery.cancel_scope.cancel()
    finally:
        gc.set_threshold(*thresholds)  # the test's process is not the server's
        gc.enable()


async def test_an_in_process_server_leaves_a_paused_collector_paused(tmp_path: Path) -> None:
    with collector_paused():
        async with trio.open_nursery() as nursery:
            await nursery.start(functools.partial(serve, make_config(tmp_path / "s.sqlite3")))
            assert not gc.isenabled()
            nursery.cancel_scope.cancel()
    assert gc.isenabled()


async def woken_in_order(tasks: int = 8, times: int = 20) -> bool:
    """Whether tasks woken together, in the order they waited, ran in that order every
    one of ``times`` times: by trio's coin, about once in a million. (A ParkingLot wakes
    its tasks in order; an Event's are a set.)"""
    for _ in range(times):
        ran: list[int] = []
        lot = trio.lowlevel.ParkingLot()

        async def waiter(
            index: int, lot: trio.lowlevel.ParkingLot = lot, ran: list[int] = ran
        ) -> None:
            await lot.park()
            ran.append(index)

        async with trio.open_nursery() as nursery:
            for index in range(tasks):  # one by one: parked in this order
                nursery.start_soon(waiter, index)
                await trio.testing.wait_all_tasks_blocked()
            lot.unpark_all()
        if ran != sorted(ran):
            return False
    return True


async def test_an_in_process_server_leaves_the_heap_alone(tmp_path: Path) -> None:
    made_before: list[object] = []
    async with trio.open_nursery() as nursery:
        thresholds = gc.get_threshold()
        await nursery.start(functools.partial(serve, make_config(tmp_path / "s.sqlite3")))
        assert not frozen(made_before)
        assert gc.get_threshold() == thresholds
        assert not await woken_in_order()
        nursery.cancel_scope.cancel()
