"""server/summaries.py: a flood of one kind of line is logged as its first line, then one
summary an interval while it lasts (on trio's autojumping clock: the minutes pass at
once)."""

from __future__ import annotations

from typing import Any

import trio
from trio.testing import MockClock

from deberc_net.server.summaries import ADDRESSES_KEPT, OTHERS, Summaries


async def test_the_first_is_said_whole_the_rest_once_an_interval(
    autojump_clock: MockClock, nursery: trio.Nursery
) -> None:
    said: list[dict[str, Any]] = []
    refusals = Summaries(lambda **fields: said.append(fields), nursery, interval=60)
    refusals.note("full", "10.0.0.1", peer="10.0.0.1:5000")
    for n in range(7):
        refusals.note("full", "10.0.0.2" if n < 5 else "10.0.0.3", peer="?")
    refusals.note("per-address", "10.0.0.9", peer="10.0.0.9:1")  # a reason of its own
    assert said == [
        {"reason": "full", "peer": "10.0.0.1:5000"},
        {"reason": "per-address", "peer": "10.0.0.9:1"},
    ]
    await trio.sleep(61)
    assert said[2:] == [
        {
            "reason": "full",
            "repeated": 7,
            "addresses": 2,
            "top": {"10.0.0.2": 5, "10.0.0.3": 2},
            "window_s": 60,
        }
    ]  # (per-address: nothing more came, no summary)
    refusals.note("full", "10.0.0.2", peer="?")  # the flood goes on: counted on
    await trio.sleep(60)
    assert said[3]["repeated"] == 1
    await trio.sleep(60)  # a quiet minute ends it
    refusals.note("full", "10.0.0.4", peer="10.0.0.4:7")
    assert said[4:] == [{"reason": "full", "peer": "10.0.0.4:7"}]


async def test_a_stop_says_what_was_counted(autojump_clock: MockClock) -> None:
    said: list[dict[str, Any]] = []
    async with trio.open_nursery() as nursery:
        refusals = Summaries(lambda **fields: said.append(fields), nursery, interval=60)
        refusals.note("full", "10.0.0.1", peer="?")
        refusals.note("full", "10.0.0.1", peer="?")
        await trio.sleep(10)
        nursery.cancel_scope.cancel()
    assert [line.get("repeated") for line in said] == [None, 1]


async def test_a_spray_of_addresses_is_counted_in_bounded_memory(
    autojump_clock: MockClock, nursery: trio.Nursery
) -> None:
    said: list[dict[str, Any]] = []
    refusals = Summaries(lambda **fields: said.append(fields), nursery, interval=60)
    refusals.note("full", "first", peer="?")
    for n in range(ADDRESSES_KEPT + 50):
        refusals.note("full", f"10.1.{n // 256}.{n % 256}", peer="?")
    await trio.sleep(61)
    summary = said[-1]
    assert summary["repeated"] == ADDRESSES_KEPT + 50
    assert summary["addresses"] == ADDRESSES_KEPT + 1 and summary["top"][OTHERS] == 50
