"""At the table (issue #13): 'last' (the last trick) and 'sheet' (the score sheet), for
players and observers, in both styles, over real sockets."""

from __future__ import annotations

import random
import re

import trio

from .client import fields, is_event, play_machine, seat_pair
from .conftest import Connector

SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def pretty(card: str) -> str:
    return card[:-1] + SYMBOL[card[-1]]


async def two_deals_played(port: int, connect: Connector):  # type: ignore[no-untyped-def]
    """ann and bob (bots) play until two deals have ended; hugo (a person) watches."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    hugo = await connect.human(port, "hugo")
    table, ann_seat, _ = await seat_pair(ann, bob, "2 to-301")
    hugo.label = "ann,bob" if ann_seat == 0 else "bob,ann"  # the names by seat
    await hugo.send(f"observe {table}")
    await hugo.read_until(lambda line: line.startswith("You observe table"))
    ended = {ann.label: 0, bob.label: 0}

    def second_deal_end(client):  # type: ignore[no-untyped-def]
        def stop(line: str) -> bool:
            if is_event(line, "deal-end"):
                ended[client.label] += 1
            return ended[client.label] == 2

        return stop

    async with trio.open_nursery() as nursery:
        for client in (ann, bob):
            nursery.start_soon(play_machine, client, random.Random(5), second_deal_end(client))
    return table, ann, bob, hugo


async def test_last_tells_the_last_trick_to_players_and_observers(
    port: int, connect: Connector
) -> None:
    table, ann, _bob, hugo = await two_deals_played(port, connect)
    tricks = [fields(x)[1] for x in ann.lines if is_event(x, "trick")]
    assert tricks, "two deals, and no trick taken"
    taken = tricks[-1]
    await ann.send("last")
    last = await ann.expect("last", table=str(table))
    assert last["cards"] == taken["cards"] and last["winner"] == taken["winner"]
    assert list(last) == ["table", "deal", "leader", "cards", "winner"]
    leader = int(last["leader"])
    names = hugo.label.split(",")
    await hugo.send("last")
    said = await hugo.read_until(lambda line: line.startswith("Last trick"))
    cards = [pretty(c) for c in taken["cards"].split(",")]
    laid = ", ".join(f"{names[(leader + i) % 2]} {c}" for i, c in enumerate(cards))
    assert said == (
        f"Last trick (deal {last['deal']}): {names[leader]} led; {laid}; "
        f"{names[int(taken['winner'])]} took it."
    )


async def test_sheet_lists_every_deal_with_its_written_points_and_totals(
    port: int, connect: Connector
) -> None:
    table, ann, bob, hugo = await two_deals_played(port, connect)
    ends = [fields(x)[1] for x in ann.lines if is_event(x, "deal-end")]
    await bob.send("sheet")
    head = await bob.expect("sheet", table=str(table))
    assert head == {"table": str(table), "deals": "2", "target": "301"}
    for end in ends:
        row = await bob.expect("sheet-deal")
        assert [row[k] for k in ("deal", "outcome", "written", "totals", "hanging")] == [
            end[k] for k in ("deal", "outcome", "written", "totals", "hanging")
        ]
        assert re.fullmatch(r"\d+,\d+", row["bides"])
    await hugo.send("sheet")
    title = await hugo.read_until(lambda line: line.startswith("Score sheet"))
    assert title == (
        f"Score sheet, table {table} (to 301): each side's written points, then its total."
    )
    await hugo.read_until(lambda line: line.startswith("deal outcome"))
    for end in ends:
        row = await hugo.read_until(lambda _: True)
        written, totals = end["written"].split(","), end["totals"].split(",")
        cells = r"\s+".join(f"{w} {t}" for w, t in zip(written, totals, strict=True))
        assert re.match(rf"\s+{end['deal']} {end['outcome']}\s+{cells}", row), row
        assert len(row) <= 80


async def test_last_and_sheet_before_any_trick_or_away_from_a_table(
    port: int, connect: Connector
) -> None:
    ann = await connect.human(port, "ann")
    await ann.send("last")
    assert await ann.read_until(lambda x: x.startswith("Error")) == (
        "Error (not-seated): you sit at no table and observe none"
    )
    bob = await connect.human(port, "bob")
    for person in (ann, bob):
        await person.send("seek 2")
    await ann.read_until(lambda line: line.startswith("Your hand"))
    await ann.send("last")
    assert await ann.read_until(lambda x: x.startswith("Error")) == (
        "Error (wrong-phase): no trick has been taken yet"
    )
    await ann.send("sheet")
    await ann.read_until(lambda x: x.startswith("Score sheet"))
    header = await ann.read_until(lambda _: True)
    assert re.fullmatch(r"deal outcome\s+(ann|bob)\s+(ann|bob)", header), header
    assert await ann.read_until(lambda _: True) == "   - no deal finished yet"
