"""At three and four players a person is told whose turn it is after every card, as
at a real table: 'Waiting for X.' came only as a deal started and once its game was
ordered, and the cards between said nothing of who was next (s47's notes). Two
players are not told it (after one's card it is the other's), nor is a program: it
reads to_act from the events' order (docs/protocol.md §6.3)."""

from __future__ import annotations

import random
import re

import pytest
import trio

from .client import PROMPT, LineClient, fields, human_choice, play_machine
from .conftest import Connector

CARD_LINE = re.compile(r"^(\S+) plays (?!in )\S+")  # "ann plays K♣", not "plays in ♣"
DEAL_END = re.compile(r"^Deal \d+: ")


async def _one_deal(client: LineClient, answer: bool) -> list[str]:
    """A person's lines until the end of the first deal in which a card was played
    (``answer``: he sits and answers each prompt as people do)."""
    lines: list[str] = []
    while True:
        line = await client.read_until(lambda _: True)
        lines.append(line)
        assert not line.startswith("Error"), f"{client.label}: {line}"
        if DEAL_END.match(line) and any(CARD_LINE.match(x) for x in lines):
            return lines
        prompt = PROMPT.match(line)
        if answer and prompt:
            await client.send(human_choice(prompt.group(1)))


def _untold_cards(lines: list[str], me: str | None) -> list[str]:
    """The cards (after a deal's first) whose player nobody said was next since the
    card before: each the person read 'Waiting for NAME.' for, or (his own) a prompt."""
    untold = []
    since: list[str] = []
    first = True
    for line in lines:
        card = CARD_LINE.match(line)
        if card is None:
            since.append(line)
            continue
        who = card.group(1)
        told = f"Waiting for {who}." in since or (who == me and any(PROMPT.match(x) for x in since))
        if not first and not told:
            untold.append(line)
        first, since = False, []
    return untold


async def _table(connect: Connector, port: int, players: int) -> tuple[str, list[LineClient]]:
    """A table of ``players`` opened by the machine ann; the machine bob and (three or
    more) the machine pat sit after the person cat; dan (a person) and eve (a program)
    watch."""
    ann = await connect.machine(port, "ann")
    await ann.send(f"new {players}")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    cat = await connect.human(port, "cat")
    dan = await connect.human(port, "dan")
    eve = await connect.machine(port, "eve")
    for watcher in (dan, eve):
        await watcher.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await dan.read_until(lambda x: x.startswith(f"Table {table} waits for players"))
    machines = [ann]
    await cat.send(f"sit {table}")
    await cat.read_until(lambda x: x.startswith(f"You sit at table {table}"))
    for name in ("bob", "pat")[: players - 2]:
        other = await connect.machine(port, name)
        await other.send(f"sit {table}")
        await other.expect("ok", cmd="sit")
        machines.append(other)
    return table, [cat, dan, eve, *machines]


async def _a_deal_read(
    connect: Connector, port: int, players: int
) -> tuple[list[str], list[str], list[str]]:
    """The first deal with cards at a table of ``players``, as cat (seated), dan
    (watching) and eve (a program watching) read it."""
    _table_id, (cat, dan, eve, *machines) = await _table(connect, port, players)
    read: dict[str, list[str]] = {}

    async def person(client: LineClient, answer: bool) -> None:
        read[client.label] = await _one_deal(client, answer)

    with trio.fail_after(30):
        async with trio.open_nursery() as bots:
            for i, machine in enumerate(machines):
                bots.start_soon(play_machine, machine, random.Random(i))
            async with trio.open_nursery() as people:
                people.start_soon(person, cat, True)
                people.start_soon(person, dan, False)
            bots.cancel_scope.cancel()
    await eve.read_until(lambda x: x.startswith("event ") and fields(x)[1]["kind"] == "deal-end")
    return read["cat"], read["dan"], eve.lines[: eve.pos]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.timeout(40)
async def test_three_and_four_players_are_told_whose_turn_after_each_card(
    port: int, connect: Connector, players: int
) -> None:
    cat, dan, eve = await _a_deal_read(connect, port, players)
    assert sum(bool(CARD_LINE.match(x)) for x in dan) >= players  # a trick at least
    assert _untold_cards(cat, "cat") == [], cat
    assert _untold_cards(dan, None) == [], dan
    # a program is sent events, not a 'state' after each card (§6.3)
    played = [i for i, x in enumerate(eve) if x.startswith("event ") and " kind=play " in x]
    assert played, eve
    assert not any(x.startswith("state ") for x in eve[played[0] :]), eve


@pytest.mark.timeout(40)
async def test_two_players_are_not_told_whose_turn_after_each_card(
    port: int, connect: Connector
) -> None:
    cat, dan, _eve = await _a_deal_read(connect, port, 2)
    for lines in (cat, dan):
        first = next(i for i, x in enumerate(lines) if CARD_LINE.match(x))
        assert not any(x.startswith("Waiting for ") for x in lines[first:]), lines
