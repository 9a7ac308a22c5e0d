"""A live page follows its match into the rematch (docs/web.md, "The live socket"): its
socket stays open while the rematch is on offer, is told where it starts as a watcher's
connection is, or that it was not taken, and closes with the offer."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import trio
from trio_websocket import open_websocket_url

from deberc_net.server.rematch import REMATCH_S
from deberc_net.server.web.feed import CLOSED_CHECK_S
from tests.server.client import BOT_START_S, LineClient, is_event, play_machine
from tests.server.conftest import Connector

from .conftest import WebServer
from .live import lines_of, text_of, to_the_end, to_the_offer

StartWeb = Callable[..., Any]


async def a_short_match(web: WebServer, connect: Connector) -> tuple[LineClient, ...]:
    """ann opens a one-deal table (table 1), carl watches it over the line protocol."""
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    carl = await connect.machine(web.port, "carl")
    await ann.send("new 2 short")
    await ann.expect("ok", cmd="sit", table="1")
    await carl.send("observe 1")
    await carl.expect("ok", cmd="observe")
    return ann, bob, carl


async def play(ann: LineClient, bob: LineClient) -> None:
    await bob.send("sit 1")
    await bob.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))


async def test_pages_are_told_where_the_rematch_starts_as_a_watcher_is(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    # (on virtual time: the offer's seconds told are its 60 less the feed's wait to see
    # its table closed, a second at most; in real time a loaded machine's stall of
    # more than one more second failed the window of 58-60)
    web: WebServer = await start_web()
    ann, bob, carl = await a_short_match(web, connect)
    url = f"ws://127.0.0.1:{web.http_port}/live/table/1"
    with trio.fail_after(30):
        async with open_websocket_url(url) as one, open_websocket_url(url) as two:
            for page in (one, two):  # each observing, then the match
                assert lines_of(await text_of(page))[0].startswith("ok cmd=observe")
            await play(ann, bob)
            offers = [await to_the_offer(page) for page in (one, two)]
            for lines, seconds in offers:  # told after the match's end, with its time
                assert is_event(lines[-1], "match-end"), lines[-3:]
                assert REMATCH_S - CLOSED_CHECK_S <= seconds <= REMATCH_S
            for player in (ann, bob):
                await player.send("rematch")
            new = (await ann.expect("ok", cmd="sit"))["table"]
            assert new != "1"
            told = await carl.read_until(lambda line: line.startswith("info rematch="))
            assert told == (
                f"info rematch={new} table=1 text=The rematch of table 1 starts at table"
                f" {new}: 'observe {new}' to watch it."
            )
            for page in (one, two):  # the same line, the last; then the socket closes
                assert await to_the_end(page) == ([told], [])
    status, _ = await web.get(f"/table/{new}")  # where the page links: the rematch, live
    assert status == 200


@pytest.mark.parametrize("end", ["timeout", "left"])
async def test_a_rematch_untaken_ends_the_page_with_its_offer(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    end: str,
) -> None:
    """Its 60 s run out, or a player gone calls it off: the page is told no rematch
    comes, and its socket closes then, not later (nothing held past the offer)."""
    web: WebServer = await start_web()
    ann, bob, carl = await a_short_match(web, connect)
    url = f"ws://127.0.0.1:{web.http_port}/live/table/1"
    with trio.fail_after(30 + REMATCH_S):
        async with open_websocket_url(url) as page:
            await text_of(page)
            await play(ann, bob)
            await to_the_offer(page)
            offered = trio.current_time()
            if end == "left":
                await ann.send("rematch")
                await ann.expect("ok", cmd="rematch")
                await bob.aclose()
                await ann.expect("rematch", off="left")
            assert await to_the_end(page) == ([], [{"rematch_offer": None}])
            took = trio.current_time() - offered
    if end == "timeout":
        assert REMATCH_S - 2 <= took <= REMATCH_S + CLOSED_CHECK_S
    else:
        assert took < CLOSED_CHECK_S  # at once: the offer's end wakes the feed
    assert not [line for line in carl.lines if line.startswith("info rematch=")]


async def test_a_match_with_no_rematch_on_offer_closes_its_pages_at_its_end(
    start_web: StartWeb, connect: Connector
) -> None:
    """A house bot plays one match only (docs/protocol.md §5.16): nothing to wait for,
    no note; the socket closes with the table, as it always did."""
    web: WebServer = await start_web(house_bots=True)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 short")
    await ann.expect("ok", cmd="sit", table="1")
    url = f"ws://127.0.0.1:{web.http_port}/live/table/1"
    async with open_websocket_url(url) as page:
        with trio.fail_after(30):
            await text_of(page)
            await ann.send("bot random")
            await ann.expect("ok", cmd="bot")
            await play_machine(ann, random.Random(7), timeout=BOT_START_S)
        # the close itself waited for, with a hang's limit a third of the offer's 60 s
        # (a house bot is a process: real time, where a loaded host's stall of a few
        # seconds is no failure; a close held for the offer is)
        with trio.fail_after(REMATCH_S / 3):
            lines, notes = await to_the_end(page)
    assert is_event(lines[-1], "match-end")
    assert not [note for note in notes if "rematch_offer" in note]
