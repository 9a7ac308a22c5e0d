"""Whose request goes next under the web face's pace (server/web/fair_pace.py,
docs/security.md §8): the address with the fewest turns of late, its own requests in
the order they came; the counts held bounded by the turns, not the addresses."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing

from deberc_net.server.web.fair_pace import HALF_LIFE_S, KEPT, FairQueue
from deberc_net.server.web.request_limit import Pace


async def test_the_address_with_the_fewest_turns_of_late_goes_first() -> None:
    queue = FairQueue()
    for _ in range(3):
        queue.served("flood", 0.0)
    queue.served("other", 0.0)
    flood = [queue.wait("flood") for _ in range(3)]
    other = queue.wait("other")
    visitor = queue.wait("visitor")
    assert len(queue) == 5
    order = []
    while queue.give(1.0):
        order.append(next(e for e in [*flood, other, visitor] if e.is_set() and e not in order))
    # the visitor (none), the other (1), then the flood (3): his own in their order,
    # the other's count (2 now) taken again when its turn comes
    assert order == [visitor, other, *flood]
    assert not queue and not queue.give(2.0)


async def test_turns_count_less_as_they_age() -> None:
    queue = FairQueue()
    for _ in range(8):
        queue.served("ann", 0.0)
    assert queue.count("ann", 0.0) == 8
    assert abs(queue.count("ann", HALF_LIFE_S) - 4) < 1e-9
    for _ in range(3):
        queue.served("bob", 2 * HALF_LIFE_S)
    # ann's 8 turns two half-lives ago are 2: she goes before bob's fresh 3
    bob, ann = queue.wait("bob"), queue.wait("ann")
    assert queue.give(2 * HALF_LIFE_S) and ann.is_set() and not bob.is_set()


async def test_a_request_withdrawn_passes_its_turn_to_the_next() -> None:
    queue = FairQueue()
    gone = queue.wait("ann")
    queue.withdraw("ann", gone)
    bob = queue.wait("bob")
    assert len(queue) == 1
    assert queue.give(0.0) and bob.is_set() and not gone.is_set()
    assert not queue.give(0.0)
    again = queue.wait("ann")  # (ann's emptied place was dropped on the way)
    assert queue.give(0.0) and again.is_set()


async def test_a_request_whose_client_went_is_skipped_at_its_turn_uncounted() -> None:
    queue = FairQueue()
    went = [False]
    gone = queue.wait("ann", lambda: went[0])
    kept = queue.wait("ann")
    bob = queue.wait("bob")
    went[0] = True  # (its connection closed while it waited)
    # ann's first request skipped, her next given the turn, counted once
    assert queue.give(0.0) and gone.is_set() and gone.skipped
    assert kept.is_set() and not kept.skipped and not bob.is_set()
    assert queue.count("ann", 0.0) == 1
    assert queue.give(0.0) and bob.is_set() and not queue
    # one whose client went, alone: no turn given, none counted
    alone = queue.wait("cid", lambda: True)
    assert not queue.give(0.0) and alone.skipped and queue.count("cid", 0.0) == 0


async def test_a_spray_of_addresses_holds_only_the_counts_not_yet_decayed() -> None:
    queue = FairQueue()
    per_s = 150.0
    most = 0
    for n in range(100_000):  # a new address at each turn, at the pace, 11 minutes
        queue.served(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", n / per_s)
        most = max(most, queue.remembered())
    # a turn is forgotten two half-lives on (a quarter left): the last 10 s's 1,500
    # turns, twice as many between two looks through; never all 100,000
    assert most <= max(KEPT, 2 * 2 * HALF_LIFE_S * per_s) + 10, most


async def test_the_counts_keep_their_order_past_a_float_s_range() -> None:
    queue = FairQueue()
    queue.served("ann", 0.0)
    queue.served("bob", 0.0)
    queue.served("bob", 0.0)
    later = 1000 * HALF_LIFE_S  # 2 ** 1000 past the first scale
    queue.served("ann", later)
    queue.served("bob", later)
    queue.served("bob", later)
    assert abs(queue.count("ann", later) - 1) < 1e-9
    bob, ann = queue.wait("bob"), queue.wait("ann")
    assert queue.give(later) and ann.is_set() and not bob.is_set()


async def test_a_request_cancelled_as_its_turn_comes_leaves_the_queue_whole() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("a cancelled request reached the app")

    pace = Pace(app, per_s=1.0, burst=1.0)
    pace.turn = trio.current_time() + 10  # the burst spent: the next request waits
    failed: list[BaseException] = []

    async def ask(scope: trio.CancelScope) -> None:
        with scope:
            try:
                await pace({"type": "http", "client": ("10.0.0.1", 1)}, None, None)  # type: ignore[arg-type]
            except BaseException as exc:
                if not isinstance(exc, trio.Cancelled):
                    failed.append(exc)
                raise

    async with trio.open_nursery() as nursery:
        scope = trio.CancelScope()
        nursery.start_soon(ask, scope)
        await trio.testing.wait_all_tasks_blocked()
        assert len(pace.waiting) == 1
        # its connection gone, and its turn given before its task runs again
        scope.cancel()
        assert pace.waiting.give(trio.current_time())
    # (failed before: withdrawn after it was given, a KeyError in its task)
    assert not failed and not pace.waiting and not pace.waiting.give(trio.current_time())
