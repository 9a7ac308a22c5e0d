"""A bot and a person at one table (nobody watching): each event is told to each in its
own style, the machine line to the bot, the person's sentence to the person, every one
of them (the table writes the machine line straight from its template and renders the
person's through the generic renderer: both in one event's telling)."""

from __future__ import annotations

import random

import trio

from .client import fields, is_event, play_human, play_machine
from .conftest import Connector


async def test_a_bot_and_a_person_are_each_told_every_trick_in_their_style(
    port: int, connect: Connector
) -> None:
    bot = await connect.machine(port, "ann")
    person = await connect.human(port, "hugo")
    await bot.send("seek 2 to-301")
    await bot.expect("ok", cmd="seek")
    await person.send("seek 2 to-301")
    await person.read_until(lambda line: line.startswith("You sit at table"))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, bot, random.Random(3))
        nursery.start_soon(play_human, person)
    tricks = [fields(line)[1] for line in bot.lines if is_event(line, "trick")]
    taken = [line for line in person.lines if " takes the trick (" in line]
    assert tricks and len(taken) == len(tricks)
    names: dict[str, str | None] = {"0": None, "1": None}
    for told, said in zip(tricks, taken, strict=True):  # the same trick, the same winner
        names[told["winner"]] = names[told["winner"]] or said.split(" takes")[0]
        assert said.startswith(f"{names[told['winner']]} takes the trick (")
    assert set(names.values()) == {"ann", "hugo"}
    assert not any(line.startswith("event ") for line in person.lines)
    assert all(is_event(line, "trick") or "kind=trick" not in line for line in bot.lines)
