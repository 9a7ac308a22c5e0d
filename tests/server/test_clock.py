"""The clock a connection asks for ('clock human|bot'), and the warning before it runs
out (docs/protocol.md §11.1), over real sockets."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable

import pytest
import trio
from trio.testing import MockClock

from .client import LineClient, fields, is_event, random_legal, seat_pair
from .conftest import Connector

WARNING = "10 s left to answer."


def a_pass(ask: dict[str, str]) -> str:
    """A pass where there is one, so that the deal goes on to the other seat's ask: a
    random call could be chetyre-semerki (four sevens), which ends the deal first."""
    return "pas" if "pas" in ask["legal"].split(",") else random_legal(ask, random.Random(1))


async def test_clock_human_gives_a_machine_style_seat_the_human_clock(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(human_clock_ms=45_000, bot_clock_ms=7_000, lag_ms=250)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    assert await ann.reply("clock human", "ok") == (
        "ok cmd=clock clock=human ms=45000 text=Your clock: 45 s a call, from your next "
        "match's start."
    )
    clocks: dict[str, int] = {}

    async def first_ask(client: LineClient) -> None:
        ask = fields(await client.read_until(lambda x: x.startswith("ask ")))[1]
        clocks[client.label] = int(ask["clock"])
        await client.send(f"{a_pass(ask)} seq={ask['seq']}")

    await seat_pair(ann, bob)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(first_ask, ann)
        nursery.start_soon(first_ask, bob)
    # ann asked for a person's clock; bob, in the machine style, has a bot's
    assert clocks == {"ann": 45_250, "bob": 7_250}


async def test_clock_refuses_a_bad_choice_and_keeps_the_style_default(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    for bad in ("clock", "clock fast", "clock human bot"):
        assert await ann.reply(bad, "error") == ("error code=bad-argument text=clock human|bot"), (
            bad
        )
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    ask = fields(await ann.read_until(lambda x: x.startswith(("ask ", "state "))))[1]
    assert int(ask["clock"]) == 10_000  # nothing taken: the machine style's bot clock


async def people_at_a_table(port: int, connect: Connector) -> tuple[LineClient, LineClient]:
    """ann and bob, in the human style, sat at one 2-player table (the match starts)."""
    ann = await connect.human(port, "ann")
    bob = await connect.human(port, "bob")
    await ann.send("new 2")
    sat = await ann.read_until(lambda line: line.startswith("You sit at table"))
    table = re.findall(r"\d+", sat)[0]
    await bob.send(f"sit {table}")
    return ann, bob


async def test_a_person_is_warned_once_when_10_s_are_left(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(human_clock_ms=30_000)
    ann, bob = await people_at_a_table(port, connect)
    asked_at = None
    for person in (ann, bob):
        await person.read_until(lambda line: line.startswith("Deal 1."))
        asked_at = trio.current_time()
    assert asked_at is not None
    first = await ann.read_until(lambda x: x.startswith(("Your call", "Waiting for")))
    to_act, other = (ann, bob) if first.startswith("Your call") else (bob, ann)
    # the one asked hears it 20 s into its 30 s, once; then the clock calls for it
    await to_act.read_until(lambda x: x == WARNING, timeout=60)
    assert trio.current_time() - asked_at == 20.0
    made = await to_act.read_until(lambda x: "(by the clock)" in x or x == WARNING, timeout=60)
    assert made.endswith("(by the clock)"), made
    assert trio.current_time() - asked_at == 30.0
    # the other was not asked until now: never warned
    assert WARNING not in other.lines + await other.drain(1)


async def test_a_clock_no_longer_than_the_warning_is_warned_at_half_of_it(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A tryout, s47: with a 5 s clock under the 10 s warning no warning came, and a
    player lost the game to his timeouts never told. Such a clock is warned at half of
    it (in whole seconds, the lag allowance on top): 2 s left of 5 s, 3 s into it; and
    before the timeout that would lose the game, that too."""
    port = await start_server(human_clock_ms=5_000, max_timeouts=2, lag_ms=500)
    ann, bob = await people_at_a_table(port, connect)
    asked_at = None
    for person in (ann, bob):
        await person.read_until(lambda line: line.startswith("Deal 1."))
        asked_at = trio.current_time()
    assert asked_at is not None
    first = await ann.read_until(lambda x: x.startswith(("Your call", "Waiting for")))
    to_act = ann if first.startswith("Your call") else bob
    await to_act.read_until(lambda x: x == "2 s left to answer.", timeout=60)
    assert trio.current_time() - asked_at == 3.0
    made = await to_act.read_until(lambda x: "(by the clock)" in x, timeout=60)
    assert trio.current_time() - asked_at == 5.5, made  # (the lag allowance on top)
    ended = await ann.read_until(lambda x: x.startswith("Game over:"), timeout=600)
    await bob.read_until(lambda x: x.startswith("Game over:"), timeout=60)
    lost = ann if "(ann let" in ended else bob
    assert _warnings(lost.lines)[-1] == (
        "2 s left to answer: if the clock runs out now, the game is lost (2 in a row)."
    ), lost.lines


async def test_no_warning_when_half_the_clock_is_less_than_a_second(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(human_clock_ms=1_000)
    ann, bob = await people_at_a_table(port, connect)
    made = await ann.read_until(lambda x: "(by the clock)" in x, timeout=60)
    heard = ann.lines + bob.lines + await bob.drain(1)
    assert not any("left to answer" in x for x in heard), made


async def test_a_call_answered_late_in_the_clock_gives_the_next_seat_its_whole_clock(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A call is handled in its reader's task (server/table.py, call_here), which
    leaves the table's wake-up at the earlier clock's end rather than moving it later:
    woken then, the table waits on, and the next seat's automatic call comes when its
    own clock ends, not before and not never."""
    port = await start_server(bot_clock_ms=10_000, lag_ms=0)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    views = {
        c.label: fields(await c.read_until(lambda x: x.startswith(("ask ", "state "))))
        for c in (ann, bob)
    }
    first, other = (ann, bob) if views["ann"][0] == "ask" else (bob, ann)
    ask = views[first.label][1]
    await trio.sleep(6)  # most of its 10 s gone
    await first.send(f"{a_pass(ask)} seq={ask['seq']}")
    asked = await other.read_until(lambda x: x.startswith("ask "), timeout=60)
    asked_at = trio.current_time()
    assert fields(asked)[1]["clock"] == "10000"
    auto = await other.read_until(lambda x: is_event(x, "call") or is_event(x, "play"), 60)
    assert fields(auto)[1]["auto"] == "1", auto
    assert trio.current_time() - asked_at == pytest.approx(10, abs=0.01)


def _warnings(lines: list[str]) -> list[str]:
    """The clock's warnings among a person's ``lines``, each with its continuation (a
    line wrapped at 80 columns goes on indented)."""
    out = []
    for i, line in enumerate(lines):
        if re.match(r"(\d+ s left|Осталось \d+ с)", line):
            more = lines[i + 1] if i + 1 < len(lines) and lines[i + 1].startswith("  ") else ""
            out.append(f"{line} {more.strip()}".strip())
    return out


async def test_the_warning_before_the_timeout_that_loses_the_game_says_so(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """The warning before a timeout that forfeits (the seat's ``max_timeouts``-th in a
    row) says that the game is lost if the clock runs out; the ones before, only the
    seconds left. A tryout (s44): a person lost the game to a third timeout warned
    as the first two."""
    port = await start_server(human_clock_ms=30_000, max_timeouts=2)
    ann, bob = await people_at_a_table(port, connect)
    await bob.send("lang ru")  # (before his first ask: the deal is dealt at once, the
    # clock jumps only when all is idle)
    ended = await ann.read_until(lambda x: x.startswith("Game over:"), timeout=600)
    await bob.read_until(lambda x: x.startswith("Партия окончена:"), timeout=60)
    lost, won = (ann, bob) if "(ann let" in ended else (bob, ann)
    if lost is ann:
        assert _warnings(ann.lines) == [
            WARNING,
            "10 s left to answer: if the clock runs out now, the game is lost (2 in a row).",
        ]
    else:
        assert _warnings(bob.lines) == [
            "Осталось 10 с на ответ.",
            "Осталось 10 с на ответ: если время выйдет и сейчас, партия проиграна (пропусков"
            " подряд: 2).",
        ]
    # the other was warned of his first timeout only, in the plain words
    assert _warnings(won.lines) in ([WARNING], ["Осталось 10 с на ответ."]), won.lines
