"""A void deal (both passed twice, or four sevens shown) does not end a match's first
deal (docs/protocol.md §5.5): the cards are dealt again and nothing was played or
written, so one who leaves, or drops his connection and is not back within the away
limit, after it and before the first played deal ends still left "before the first
deal ended": the player he left has his seek again, first in line. Before, the deal's
number alone decided, and a drop in deal 2 after a void deal 1 gave nothing back.
Scripted by the calls (every seat passes), real sockets on loopback, virtual time."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import trio
import trio.testing

from .client import LineClient, fields, is_event, play_machine
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

AWAY_S = 120  # the away limit (away_limit_ms's default)
KEPT = (
    "grief left before the first deal ended: seek a moscow game for 2 players again and you"
    " are first in line, and are not matched with grief again for 10 min."
)


async def _matched(port: int, connect: Connector) -> tuple[LineClient, LineClient]:
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    grief = await connect.machine(port, "grief", source="127.0.0.2")
    await grief.send("seek 2")
    await grief.read_until(lambda x: is_event(x, "start"))
    return victim, grief


async def _calling(
    client: LineClient, until: Callable[[str], bool], pick: Callable[[list[str]], str]
) -> None:
    """Answer every ask with ``pick`` of its legal calls until a line ``until`` holds."""
    while True:
        line = await client.read_until(lambda x: x.startswith("ask ") or until(x))
        if until(line):
            return
        ask = fields(line)[1]
        await client.send(f"{pick(ask['legal'].split(','))} seq={ask['seq']}")


def _passes(legal: list[str]) -> str:
    assert "pas" in legal, legal
    return "pas"


def _deal_event(kind: str, deal: int) -> Callable[[str], bool]:
    return lambda x: is_event(x, kind) and fields(x)[1]["deal"] == str(deal)


async def _both(
    victim: LineClient,
    grief: LineClient,
    until: Callable[[str], bool],
    pick: Callable[[list[str]], str],
) -> None:
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_calling, victim, until, pick)
        nursery.start_soon(_calling, grief, until, pick)


async def _pass_out_deals(victim: LineClient, grief: LineClient, deals: int) -> None:
    """Every seat passes in both rounds of the first ``deals`` deals (each void): back
    as the deal after them starts."""
    await _both(victim, grief, _deal_event("deal", deals + 1), _passes)


async def test_a_drop_after_a_void_first_deal_is_in_the_first_deal(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()
    victim, grief = await _matched(port, connect)
    await _pass_out_deals(victim, grief, deals=1)
    await grief.aclose()  # in deal 2, the first deal played
    await victim.take(lambda x: is_event(x, "away"))
    end = await play_machine(victim, random.Random(1), timeout=AWAY_S + 10)
    assert fields(end)[1]["reason"] == "away", end
    kept = fields(await victim.read_until(lambda x: x.startswith("info ")))[1]["text"]
    assert kept == KEPT


async def test_a_leave_after_two_void_deals_is_in_the_first_deal(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()
    victim, grief = await _matched(port, connect)
    await _pass_out_deals(victim, grief, deals=2)
    await grief.send("leave!")
    end = await victim.read_until(lambda x: is_event(x, "match-end"))
    assert fields(end)[1]["reason"] == "left", end
    kept = fields(await victim.read_until(lambda x: x.startswith("info ")))[1]["text"]
    assert kept == KEPT


async def test_a_leave_after_a_played_first_deal_gives_no_seek_back(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The first played deal over (a void one before it), a leaver no longer ends the
    match "at once": the other's seek is not given back."""
    port = await start_server()
    victim, grief = await _matched(port, connect)
    await _pass_out_deals(victim, grief, deals=1)
    rng = random.Random(2)

    def plays(legal: list[str]) -> str:  # no pass, no four sevens: deal 2 is played
        return rng.choice([c for c in legal if c not in ("pas", "chetyre-semerki")])

    await _both(victim, grief, _deal_event("deal-end", 2), plays)
    await grief.send("leave!")
    end = await victim.read_until(lambda x: is_event(x, "match-end"))
    assert fields(end)[1]["reason"] == "left", end
    mark = victim.pos
    await victim.send("ping")
    await victim.expect("ok", cmd="ping")
    assert not [x for x in victim.lines[mark:] if x.startswith("info ")], victim.lines[mark:]
