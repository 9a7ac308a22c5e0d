"""A server that owns its process (``serve(handle_signals=True)``: the CLI's, a worker's)
freezes what its start-up made (``gc.freeze``) before it accepts, so the collector's
older passes stop walking it, and collects its young objects less often (docs/
performance.md); an in-process one (a test's) does neither."""

from __future__ import annotations

import functools
import gc
from pathlib import Path

import trio

from deberc_net.server.app import serve
from deberc_net.server.running import YOUNG_COLLECTION_AFTER
from deberc_net.testing import rule_book

from .conftest import make_config


def frozen(thing: object) -> bool:
    """Whether ``thing`` (tracked by the collector) is in its permanent generation:
    ``gc.get_objects()`` lists the other three."""
    return not any(other is thing for other in gc.get_objects())


async def test_a_server_owning_its_process_freezes_its_start_up_heap(tmp_path: Path) -> None:
    made_before: list[object] = []
    thresholds = gc.get_threshold()
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
            nursery.cancel_scope.cancel()
    finally:
        gc.set_threshold(*thresholds)  # the test's process is not the server's


async def test_an_in_process_server_leaves_the_heap_alone(tmp_path: Path) -> None:
    made_before: list[object] = []
    async with trio.open_nursery() as nursery:
        thresholds = gc.get_threshold()
        await nursery.start(functools.partial(serve, make_config(tmp_path / "s.sqlite3")))
        assert not frozen(made_before)
        assert gc.get_threshold() == thresholds
        nursery.cancel_scope.cancel()
