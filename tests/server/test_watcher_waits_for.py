"""A watcher in the human style is shown whom the table waits for when the seats not to
act are (a deal's start, the game ordered): a tryout (s47) watched a table and read
only the cards laid ('ann plays K♣'), never whose turn it was. A program watching reads
``to_act`` from the events' order, as before: no ``state`` line is added for it."""

from __future__ import annotations

import pytest

from .client import LineClient, fields
from .conftest import Connector


async def _asked(ann: LineClient, bob: LineClient) -> tuple[LineClient, dict[str, str]]:
    """Which of the two is asked to act now (the other is shown his state), with its
    ask's fields."""
    views = []
    for client in (ann, bob):
        views.append(fields(await client.read_until(lambda x: x.startswith(("ask ", "state ")))))
    (tag_a, seen_a), (_tag_b, seen_b) = views
    return (ann, seen_a) if tag_a == "ask" else (bob, seen_b)


@pytest.mark.timeout(30)
async def test_a_person_watching_is_told_whom_the_table_waits_for(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    cat = await connect.human(port, "cat")
    await cat.send(f"observe {table}")
    await cat.read_until(lambda x: x.startswith(f"Table {table} waits for players"))
    dan = await connect.machine(port, "dan")
    await dan.send(f"observe {table}")
    await dan.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    asker, ask = await _asked(ann, bob)
    names = {"0": "ann", "1": "bob"}  # (ann opened it: seat 0)
    await cat.read_until(lambda x: x.startswith("Deal 1."))
    # the deal's start: was nothing till the first call's line
    assert await cat.read_until(lambda _: True) == f"Waiting for {names[ask['to_act']]}."
    await asker.send("igrayu")
    asker, ask = await _asked(ann, bob)
    await cat.read_until(lambda x: " plays in " in x)
    # the game ordered (the hands change: the seats are shown theirs): whom it waits for
    assert await cat.read_until(lambda _: True) == f"Waiting for {names[ask['to_act']]}."
    await dan.expect("event", kind="order")
    card = ask["legal"].split(",")[-1]
    await asker.send(card)
    mark = dan.pos
    await dan.expect("event", kind="play")
    # a program is told events only, as before (§6.3): it reads to_act from them
    assert all(fields(line)[0] == "event" for line in dan.lines[mark : dan.pos]), dan.lines
