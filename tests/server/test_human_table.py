"""At the table (issue #13): 'last' (the last trick) and 'sheet' (the score sheet), for
players and observers, in both styles, over real sockets."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable

import trio

from deberc_net.protocol.lang import Lang, outcome_said

from .client import LineClient, fields, is_event, play_machine, seat_pair, sent_by
from .conftest import Connector

SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def pretty(card: str) -> str:
    return card[:-1] + SYMBOL[card[-1]]


async def two_deals_played(
    port: int, connect: Connector
) -> tuple[int, LineClient, LineClient, LineClient]:
    """ann and bob (bots) play until two deals have ended; hugo (a person) watches."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    hugo = await connect.human(port, "hugo")
    table, ann_seat, _ = await seat_pair(ann, bob, "2 to-301")
    hugo.label = "ann,bob" if ann_seat == 0 else "bob,ann"  # the names by seat
    await hugo.send(f"observe {table}")
    await hugo.read_until(lambda line: line.startswith("You observe table"))
    ended = {ann.label: 0, bob.label: 0}

    def second_deal_end(client: LineClient) -> Callable[[str], bool]:
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
        line = await hugo.read_until(lambda _: True)
        written, totals = end["written"].split(","), end["totals"].split(",")
        # (each number right-aligned in its own column: spaces between written and total)
        cells = r"\s+".join(rf"{w}\s+{t}" for w, t in zip(written, totals, strict=True))
        said = outcome_said(end["outcome"], Lang.EN)  # ('void' reads 'redealt')
        assert re.match(rf"\s+{end['deal']} {said}\s+{cells}", line), line
        assert len(line) <= 80


async def test_last_and_sheet_before_any_trick_or_away_from_a_table(
    port: int, connect: Connector
) -> None:
    ann = await connect.human(port, "ann")
    await ann.send("last")  # no table, no match yet: as 'sheet' says it (§5.12)
    assert await ann.read_until(lambda x: x.startswith("Error")) == (
        "Error (not-seated): you sit at no table, observe none, and have no match"
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


async def seated_people(port: int, connect: Connector) -> tuple[int, LineClient, LineClient]:
    """ann and bob, people, at a 2-player table whose game has started."""
    ann = await connect.human(port, "ann")
    bob = await connect.human(port, "bob")
    await ann.send("new 2")
    sat = await ann.read_until(lambda line: line.startswith("You sit at table"))
    table = int(re.findall(r"\d+", sat)[0])
    await bob.send(f"sit {table}")
    for person in (ann, bob):
        await person.read_until(lambda line: line.startswith("Deal 1."))
    return table, ann, bob


async def test_watchers_are_announced_to_the_players(port: int, connect: Connector) -> None:
    table, ann, _bob = await seated_people(port, connect)
    bot = await connect.machine(port, "bot")
    await bot.send(f"observe {table}")
    joined = await bot.expect("event", kind="observer")
    assert joined == {
        "seq": joined["seq"],
        "table": str(table),
        "kind": "observer",
        "name": "bot",
        "watching": "1",
        "observers": "1",
    }
    assert await ann.read_until(lambda x: "watch" in x) == "bot watches the table (1 watching)."
    eve = await connect.human(port, "eve")
    await eve.send(f"observe {table}")
    assert await ann.read_until(lambda x: "watch" in x) == "eve watches the table (2 watching)."
    await bot.expect("event", kind="observer", name="eve", watching="1", observers="2")
    await eve.send("unobserve")
    assert await ann.read_until(lambda x: "watch" in x) == "eve stops watching (1 watching)."
    await bot.expect("event", kind="observer", name="eve", watching="0", observers="1")
    await bot.aclose()  # a watcher that goes away is gone too
    assert await ann.read_until(lambda x: "watch" in x) == "bot stops watching (nobody watching)."


async def test_a_watchers_say_goes_to_the_watchers_only(port: int, connect: Connector) -> None:
    table, ann, bob = await seated_people(port, connect)
    eve = await connect.human(port, "eve")
    bot = await connect.machine(port, "bot")
    carl = await connect.human(port, "carl")  # in the lobby
    for watcher in (eve, bot):
        await watcher.send(f"observe {table}")
        await watcher.read_until(lambda x: "observe table" in x)
    await eve.send("say who leads?")
    assert await eve.read_until(lambda x: "says" in x) == (
        f"[table {table}, watchers] eve says: who leads?"
    )
    said = await bot.expect("say")
    assert said == {"from": "eve", "table": str(table), "watchers": "1", "text": "who leads?"}
    await ann.send("say good luck")  # the players' talk is heard by everyone at the table
    await bot.expect("say", text="good luck", **sent_by("ann"))
    assert "watchers" not in bot.lines[-1]
    for person in (ann, bob, carl):  # a ping's answer comes after anything said before it
        await person.send("ping")
        await person.read_until(lambda x: x == "pong")
        assert not any("who leads?" in x for x in person.lines), person.label


async def test_leave_in_a_running_game_asks_first(
    port: int, connect: Connector, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    table, ann, bob = await seated_people(port, connect)
    await ann.send("leave")
    asked = "Leaving forfeits the game for your side. 'leave' again within 10 s, or 'leave!',"
    assert await ann.read_until(lambda x: x.startswith("Leaving")) == asked
    await trio.sleep(11)  # too late: the next 'leave' asks again
    await ann.send("leave")
    assert await ann.read_until(lambda x: x.startswith("Leaving")) == asked
    await ann.send("tables")  # still seated, still playing
    assert re.match(
        rf"Table {table}: moscow for 2 players, playing deal 1: (ann|bob) 0, (ann|bob) 0",
        await ann.read_until(lambda x: x.startswith("Table ")),
    )
    await ann.send("leave")
    assert await ann.read_until(lambda x: x.startswith("You leave")) == (
        f"You leave table {table}."
    )
    assert (await bob.read_until(lambda x: x.startswith("Game over"))).startswith(
        "Game over: bob wins (ann left the table: forfeit)."
    )


async def test_no_to_the_leave_question_keeps_the_seat_and_is_no_call(
    port: int, connect: Connector
) -> None:
    """'no' (or 'нет') right after 'leave' asked answers the question (tryout 18,
    finding 6: 'no', an alias of ne-prokhodit, was refused as a call in the bidding,
    'нет' as no table call); the next 'leave' asks again."""
    table, ann, _bob = await seated_people(port, connect)
    for answer in ("no", "нет", "No"):
        await ann.send("leave")
        await ann.read_until(lambda x: x.startswith("Leaving"))
        await ann.send(answer)
        said = await ann.read_until(lambda x: x.startswith(("You stay", "Error")))
        assert said == f"You stay at table {table}.", (answer, said)
    await ann.send("leave")  # asked again: a 'no' is no first 'leave' of two
    said = await ann.read_until(lambda x: x.startswith(("Leaving", "You leave")))
    assert said.startswith("Leaving"), said
    await ann.send("tables")  # still seated, still playing
    assert re.match(
        rf"Table {table}: moscow for 2 players, playing deal 1: (ann|bob) 0, (ann|bob) 0",
        await ann.read_until(lambda x: x.startswith("Table ")),
    )


async def test_yes_to_the_leave_question_says_how_to_leave_and_keeps_it_open(
    port: int, connect: Connector
) -> None:
    """'yes' (or 'да') to the leave question was refused as no table call, ««да» — не
    ход и не заявка» (a tryout, s43): it is told how to leave, the seat kept and the
    question open, so a 'leave' after it leaves."""
    table, ann, bob = await seated_people(port, connect)
    await ann.send("leave")
    await ann.read_until(lambda x: x.startswith("Leaving"))
    for answer in ("yes", "Да"):
        await ann.send(answer)
        said = await ann.read_until(lambda x: x.startswith(("You are still", "Error")))
        assert re.fullmatch(
            rf"You are still at table {table}: to leave it, 'leave' again within (?:10|9) s,"
            r" or 'leave!'\.",
            said,
        ), (answer, said)
    await ann.send("leave")  # the question asked before the answers: this leaves
    said = await ann.read_until(lambda x: x.startswith(("Leaving", "You leave")))
    assert said == f"You leave table {table}.", said
    await bob.read_until(lambda x: x.startswith("Game over: bob wins (ann left the table"))


async def test_leave_bang_leaves_at_once_and_bots_are_not_asked(
    port: int, connect: Connector
) -> None:
    table, ann, bob = await seated_people(port, connect)
    await ann.send("leave!")
    assert await ann.read_until(lambda x: x.startswith(("You leave", "Leaving"))) == (
        f"You leave table {table}."
    )
    await bob.read_until(
        lambda x: x.startswith("Game over: bob wins (ann left the table: forfeit).")
    )
    x1, x2 = await connect.machine(port, "x1"), await connect.machine(port, "x2")
    await seat_pair(x1, x2)
    await x1.send("leave")  # a program means what it sends: no question
    await x1.expect("ok", cmd="leave")
    end = await x2.expect("event", kind="match-end")
    assert end["reason"] == "left"


async def test_no_answering_prokhodit_after_leave_is_the_call_not_a_stay(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """'no' is ne-prokhodit's alias: when that is the answer the table waits for from
    ann (bob asked 'prokhodit?' after her 'leave' question), her 'no' is that call; it
    answered the leave question instead ('You stay'), the table still waiting on her.
    The seed deals bob (seat 1, first to bid) a trump sequence that does not pass."""
    port = await start_server(match_seed="s105")
    ann = await connect.human(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    sat = await ann.read_until(lambda line: line.startswith("You sit at table"))
    table = int(re.findall(r"\d+", sat)[0])
    await bob.send(f"sit {table}")
    await bob.expect("ask")
    await ann.send("leave")
    await ann.read_until(lambda x: x.startswith("Leaving"))
    await bob.send("igrayu")
    await bob.expect("ask", player="1")
    await bob.send("prokhodit?")
    await bob.expect("event", kind="call", call="prokhodit?")
    await ann.send("no")
    said = await ann.read_until(lambda x: x.startswith(("You stay", "Error", "ann:", "You:")))
    assert not said.startswith("You stay"), said
    answered = await bob.expect("event", kind="call", seat="0")
    assert answered["call"] == "ne-prokhodit", answered


async def test_a_newcomer_is_told_who_sits_at_the_table_already(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    await ann.send("new 4")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    bob = await connect.machine(port, "bob")
    await bob.send(f"sit {table} 2")
    assert (await bob.expect("ok", cmd="sit"))["seats"] == "ann,-,bob,-"
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda line: line.startswith("Язык"))
    await vera.send(f"sit {table}")
    told = await vera.read_until(lambda line: line.startswith("Вы за столом"))
    assert told == f"Вы за столом {table}, место 1. За столом: ann (место 0), bob (место 2)."
