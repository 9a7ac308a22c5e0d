"""'history' and a deal's record as people read it mark the cards the clock played
(docs/protocol.md §5.17, §14, §11.2): a card laid for a seat whose time ran out stood
in its trick as the player's own, though the table had said `auto=1`, `(by the
clock)`. Told of the deal in play (to watchers, in English and Russian), of a finished
match (read from the store, machine style) and at the deal's end (`Deal 1 in full`)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
import trio

from clients.play.replies import history_text
from deberc_net.game.cards import parse_card
from deberc_net.protocol.lang import ru_card
from deberc_net.protocol.render import pretty_card
from deberc_net.protocol.wire import parse_line

from .client import LineClient, block, fields, is_event
from .conftest import Connector

CARD = re.compile(r"(?:10|[789JQKA])[shdc]")


async def _until_clock_trick(client: LineClient, clock: dict[str, str]) -> None:
    """Order and play the first legal card, but let the clock answer the first ask of
    the play; return once the trick the clock played in is taken."""
    while True:
        line = await client.read_until(lambda _: True, 30)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "play") and f.get("auto") == "1":
            clock.update(f)
        elif is_event(line, "trick") and clock:
            return
        elif tag == "ask":
            legal = f["legal"].split(",")
            if f["phase"] == "play" and not clock.get("silent"):
                clock["silent"] = "1"  # this one the clock answers
                continue
            call = "igrayu" if "igrayu" in legal else next(c for c in legal if CARD.fullmatch(c))
            await client.send(f"{call} seq={f['seq']}")


async def _a_clock_trick_watched(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> tuple[LineClient, LineClient, LineClient, dict[str, str]]:
    """ann and bob at a table on a 300 ms bot clock, watched by eve (English) and vera
    (Russian), till the trick the clock played in is taken: ann, eve, vera and the
    clock's play event's fields."""
    port = await start_server(bot_clock_ms=300)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.human(port, "eve")
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    for watcher in (eve, vera):
        await watcher.send(f"observe {table}")
    clock: dict[str, str] = {}
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_until_clock_trick, ann, clock)
            nursery.start_soon(_until_clock_trick, bob, {"silent": "1"})
    return ann, eve, vera, clock


@pytest.mark.timeout(60)
async def test_history_marks_the_cards_the_clock_played(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    ann, eve, vera, clock = await _a_clock_trick_watched(start_server, connect)
    with trio.fail_after(40):
        name = ("ann", "bob")[int(clock["seat"])]
        card = parse_card(clock["card"])
        # the deal in play, as its watchers are told it
        await eve.send("history")
        said = await eve.read_until(lambda line: line.startswith("      by the clock:"))
        await vera.send("history")
        said_ru = await vera.read_until(lambda line: line.startswith("      по часам:"))
        # the finished match, from the store (ann is at no table once she left)
        await ann.send("leave!")
        await ann.expect("event", kind="match-end")
        raw = [x for x in await block(ann, "history") if x.startswith("history")]
        # the deal's record as people are told it at its end (§14), the card marked
        laid = await eve.read_until(lambda line: line.startswith("  trick ") and "clock" in line)
        laid_ru = await vera.read_until(lambda line: line.startswith("  взятка ") and "час" in line)
    told = next(x for x in raw if x.startswith("history-trick") and "auto=" in x)
    assert said == f"      by the clock: {name} {pretty_card(card)}"
    assert said_ru == f"      по часам: {name} {ru_card(card)}"
    trick = fields(told)[1]
    assert trick["auto"] == clock["seat"]
    assert clock["card"] in trick["cards"].split(",")
    assert f"{name} {pretty_card(card)} (by the clock)" in laid
    assert f"{name} {ru_card(card)} (по часам)" in laid_ru
    # the terminal client says it as the server's human style does
    shown = history_text([parse_line(x) for x in raw], ("ann", "bob"), over=True)
    assert said in shown


@pytest.mark.timeout(60)
async def test_last_marks_the_cards_the_clock_played(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """'last' (§5.12) marks them as 'history' does: the machine line's ``auto=``, the
    human style's '(by the clock)', «(по часам)»."""
    ann, eve, vera, clock = await _a_clock_trick_watched(start_server, connect)
    with trio.fail_after(40):
        for asker in (eve, vera, ann):  # at once: the clock plays on for the idle seats
            await asker.send("last")
        said = await eve.read_until(lambda line: line.startswith("Last trick"))
        said_ru = await vera.read_until(lambda line: line.startswith("Последняя взятка"))
        told = await ann.expect("last")
    name = ("ann", "bob")[int(clock["seat"])]
    card = parse_card(clock["card"])
    assert f"{name} {pretty_card(card)} (by the clock)" in said
    assert said.count("(by the clock)") == 1
    assert f"{name} {ru_card(card)} (по часам)" in said_ru
    assert told["auto"] == clock["seat"]
    assert clock["card"] in told["cards"].split(",")
