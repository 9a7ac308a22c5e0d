"""A griefer who drops his connection instead of 'leave!' before the first deal ends
(docs/protocol.md §5.5): once his seat is given up at the away limit, he counts as one
who left the match, so the player he left has his seek again, first in line, and is
kept apart from his name (and from an address two such names came from). Before, a
dropped connection counted for nothing, and the away limit was all that bound him. A
player who comes back to his seat in time is no leaver. Real sockets on loopback, on
virtual time."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import trio
import trio.testing

from .client import LineClient, fields, is_event, play_human, play_machine
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

AWAY_S = 120  # the away limit (away_limit_ms's default)


async def _matched_and_dropped(victim: LineClient, grief: LineClient) -> str:
    """``grief`` seeks, meets the seeking ``victim``, and drops his connection as the
    match starts; the victim plays on to the match's end (the away limit later). Its
    line."""
    await grief.send("seek 2")
    await grief.read_until(lambda x: is_event(x, "start"))
    await grief.aclose()
    # the table has his drop before the victim's first call (the drop is dated, and a
    # void deal, four sevens shown, ends no first deal: §5.5; but the away line is
    # what tells the victim his opponent is gone)
    await victim.take(lambda x: is_event(x, "away"))
    began = trio.current_time()
    end = await play_machine(victim, random.Random(1), timeout=AWAY_S + 10)
    assert AWAY_S - 1 <= trio.current_time() - began <= AWAY_S + 1
    return end


async def _not_matched(client: LineClient) -> None:
    await client.send("seek 2")
    await client.expect("ok", cmd="seek")
    await client.send("ping")
    await client.expect("ok", cmd="ping")
    assert not [x for x in client.lines if x.startswith("ok cmd=sit")]
    await client.send("quit")
    await client.wait_closed()


async def test_a_seat_dropped_and_never_taken_again_counts_as_a_leave(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    grief = await connect.machine(port, "grief", source="127.0.0.2")
    end = await _matched_and_dropped(victim, grief)
    assert fields(end)[1]["reason"] == "away", end
    kept = fields(await victim.read_until(lambda x: x.startswith("info ")))[1]["text"]
    assert kept == (
        "grief left before the first deal ended: seek a moscow game for 2 players again and you"
        " are first in line, and are not matched with grief again for 10 min."
    )
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    # his name is kept apart, from anywhere
    await _not_matched(await connect.machine(port, "grief", source="127.0.0.5"))
    # one such name does not blame his address; a second one does (its address as the
    # table knew it: his connection has gone)
    grief2 = await connect.machine(port, "grief2", source="127.0.0.2")
    await _matched_and_dropped(victim, grief2)
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    await _not_matched(await connect.machine(port, "third", source="127.0.0.2"))
    honest = await connect.machine(port, "honest", source="127.0.0.9")
    await honest.send("seek 2")
    table = (await honest.expect("ok", cmd="sit"))["table"]
    assert (await victim.expect("ok", cmd="sit"))["table"] == table


async def test_a_player_back_at_his_seat_in_time_is_no_leaver(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()
    victim = await connect.machine(port, "victim")
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    dropped = await connect.machine(port, "dropped", source="127.0.0.2")
    await dropped.send("seek 2")
    await dropped.read_until(lambda x: is_event(x, "start"))
    mark = len(victim.lines)
    async with trio.open_nursery() as nursery:
        ends: list[str] = []

        async def plays() -> None:
            ends.append(await play_machine(victim, random.Random(1), timeout=AWAY_S * 3))

        nursery.start_soon(plays)
        await dropped.aclose()
        await victim.seen(lambda x: is_event(x, "away"))
        await trio.sleep(AWAY_S - 20)
        back = await connect.machine(port, "dropped", token=dropped.token, source="127.0.0.3")
        await victim.seen(lambda x: is_event(x, "back"))
    # he was back, but played no more: the match ended on time, well after the away
    # limit of his drop, a forfeit that is nobody's choice
    [end] = ends
    assert fields(end)[1]["reason"] == "timeouts" and "forfeit=1" in end, end
    await victim.send("ping")
    await victim.expect("ok", cmd="ping")
    assert not [x for x in victim.lines[mark:] if x.startswith("info ")], victim.lines[mark:]
    # nothing keeps them apart: they meet at once
    await victim.send("seek 2")
    await victim.expect("ok", cmd="seek")
    await back.read_until(lambda x: is_event(x, "match-end"))
    await back.send("seek 2")
    table = (await back.expect("ok", cmd="sit"))["table"]
    assert (await victim.expect("ok", cmd="sit"))["table"] == table


async def test_a_person_whose_seek_a_dropped_leaver_gave_back_is_offered_no_rematch(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The seek given back (first in line) calls the match's rematch offer off at once
    (§5.5): a person was told "'rematch' within 60 s plays again with the same players."
    all the same, and his 'rematch' then refused (a club evening, s39)."""
    port = await start_server()
    victim = await connect.human(port, "victim")
    await victim.send("seek 2")
    await victim.take(lambda x: x.startswith("Waiting for a moscow game for 2 players"))
    grief = await connect.machine(port, "grief", source="127.0.0.2")
    await grief.send("seek 2")
    await grief.read_until(lambda x: is_event(x, "start"))
    await grief.aclose()
    await play_human(victim, timeout=AWAY_S + 10)
    await victim.take(lambda x: x.startswith("grief left before the first deal ended: you"))
    await victim.send("rematch")
    await victim.take(lambda x: x.startswith("Error (not-allowed): the rematch of table"))
    offer = "'rematch' within 60 s plays again with the same players."
    assert offer not in victim.lines, victim.lines
