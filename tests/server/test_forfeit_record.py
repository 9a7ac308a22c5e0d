"""A forfeit mid-deal (tryout finding 7): the deal is recorded as it stood, the trick
being laid included (docs/records.md ``unfinished_trick``), with the seat that left
(``match_over.forfeit``, and the match's row), sent, stored in the real SQLite file,
told in the human style, and it replays."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.game.record import replay_matches
from deberc_net.server.store import open_store
from deberc_net.testing import build_ruleset

from .client import LineClient, fields
from .conftest import Connector, make_config, running_server

CARD_TOKEN = re.compile(r"(?:10|[789JQKA])[shdc]")
SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def pretty(card: str) -> str:
    return card[:-1] + SYMBOL[card[-1]]


async def _seat(players: list[LineClient]) -> tuple[str, dict[str, int]]:
    """Every client seeks the same game: the table and each name's seat."""
    seats: dict[str, int] = {}
    table = ""
    for client in players:
        await client.send(f"seek {len(players)}")
        await client.expect("ok", cmd="seek")
    for client in players:
        sat = await client.expect("ok", cmd="sit")
        table, seats[client.label] = sat["table"], int(sat["seat"])
    return table, seats


async def _play_then_leave(players: list[LineClient], cards: int) -> list[str]:
    """Each seat orders the game when asked (igrayu) and plays its first legal card
    until ``cards`` cards are down; then the next seat asked for a card leaves. The
    cards played, in order."""
    played: list[str] = []  # as the first client is told
    sent = 0  # cards sent by all

    async def answer(client: LineClient) -> None:
        nonlocal sent
        while True:
            line = await client.read_until(lambda x: x.startswith(("ask ", "event ")))
            tag, f = fields(line)
            if tag == "event" and f["kind"] == "match-end":
                return
            if tag == "event" and f["kind"] == "play" and client is players[0]:
                played.append(f["card"])
            if tag != "ask":
                continue
            legal = f["legal"].split(",")
            cards_legal = [t for t in legal if CARD_TOKEN.fullmatch(t)]
            if cards_legal and sent >= cards:
                await client.send("leave")
            elif cards_legal:
                sent += 1
                await client.send(f"{cards_legal[0]} seq={f['seq']}")
            else:
                call = "igrayu" if "igrayu" in legal else legal[0]
                await client.send(f"{call} seq={f['seq']}")

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for client in players:
                nursery.start_soon(answer, client)
    return played


@pytest.mark.parametrize(("players", "cards"), [(2, 1), (2, 3), (3, 2)])
async def test_a_forfeit_mid_deal_records_the_cards_played_and_says_so(
    db_path: Path, connect: Connector, players: int, cards: int
) -> None:
    async with running_server(make_config(db_path)) as port:
        seated = [await connect.machine(port, f"p{i}") for i in range(players)]
        table, seats = await _seat(seated)
        hugo = await connect.human(port, "hugo")
        await hugo.send(f"observe {table}")
        await hugo.read_until(lambda line: line.startswith("You observe table"))
        start = await seated[0].expect("event", kind="start")
        played = await _play_then_leave(seated, cards)
        assert len(played) == cards
        [line] = [x for x in seated[0].lines if x.startswith("record ")]
        sent = json.loads(fields(line)[1]["text"])
        told = await hugo.read_until(lambda line: line.startswith("Deal 1 in full"))
        told_tricks = [
            await hugo.read_until(lambda line: line.startswith("  trick "))
            for _ in range(-(-cards // players))
        ]
        await hugo.read_until(lambda line: line.startswith("Game over:"))
        # the sheet (after the match: read from the store) lists the deal the forfeit
        # cut off: its outcome the reason, nothing written (docs/protocol.md §5.13)
        zeros = ",".join(["0"] * players)
        await seated[0].send("sheet")
        assert (await seated[0].expect("sheet"))["deals"] == "1"
        sheet_deal = await seated[0].expect("sheet-deal")
        assert (sheet_deal["outcome"], sheet_deal["written"], sheet_deal["totals"]) == (
            "left",
            zeros,
            zeros,
        )
    # the server is stopped: read its file as it was left
    stored, row = await trio.to_thread.run_sync(_stored, db_path, start["match"])
    # who lost it, as the match-end told it: in the record and the match's row
    [end] = [x for x in seated[0].lines if x.startswith("event ") and "kind=match-end" in x]
    leaver = int(fields(end)[1]["forfeit"])
    assert sent["match_over"]["forfeit"] == leaver == row["forfeit"]

    for record in (sent, stored):
        assert record["outcome"] == "left" and record["written"] == [0] * players
        taken = [c for trick in record["tricks"] for c in trick["cards"]]
        unfinished = record.get("unfinished_trick")
        laid = unfinished["cards"] if unfinished else []
        assert taken + laid == played  # every card played, in order, none twice
        assert len(record["tricks"]) == cards // players
        assert bool(unfinished) == (cards % players != 0)
        if unfinished:
            last_winner = record["tricks"][-1]["winner"] if record["tricks"] else None
            first_seat = next(  # the seat that laid the trick's first card
                c["seat"]
                for c in record["calls"]
                if c["call"] == "play" and c["card"] == unfinished["cards"][0]
            )
            assert unfinished["leader"] == first_seat
            assert last_winner is None or last_winner == first_seat
        assert replay_matches(record, build_ruleset(players))
    assert {k: v for k, v in stored.items() if k != "seed"} == {
        k: v for k, v in sent.items() if k != "seed"
    }
    assert told == "Deal 1 in full:"  # never "no card was played" after a card was
    names = {seat: name for name, seat in seats.items()}
    unfinished = [sent["unfinished_trick"]] if "unfinished_trick" in sent else []
    expected = []
    for number, trick in enumerate([*sent["tricks"], *unfinished], 1):
        seat, laid = trick["leader"], []
        for card in trick["cards"]:
            laid.append(f"{names[seat]} {pretty(card)}")
            seat = (seat + 1) % players
        took = f" → {names[trick['winner']]}" if "winner" in trick else " (unfinished)"
        expected.append(f"  trick {number}: {', '.join(laid)}{took}")
    assert told_tricks == expected


def _stored(db: Path, match_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The match's one record, and its row."""
    store = open_store(db)
    try:
        [record] = store.match_records(match_id)
        row = store.finished_match(match_id)
    finally:
        store.close()
    assert row is not None
    return json.loads(record), row


async def test_a_forfeit_before_the_first_card_says_the_deal_stopped_and_who_left(
    db_path: Path, connect: Connector
) -> None:
    """The club night's finding: a 'leave' after the talk, before any card, was told
    'Deal 1 in full: no card was played.', as if the deal had been played without one."""
    async with running_server(make_config(db_path)) as port:
        seated = [await connect.machine(port, f"p{i}") for i in range(2)]
        table, seats = await _seat(seated)
        hugo = await connect.human(port, "hugo")
        await hugo.send(f"observe {table}")
        await hugo.read_until(lambda line: line.startswith("You observe table"))
        assert await _play_then_leave(seated, 0) == []
        [end] = [x for x in seated[0].lines if x.startswith("event ") and "kind=match-end" in x]
        leaver = {seat: name for name, seat in seats.items()}[int(fields(end)[1]["forfeit"])]
        told = await hugo.read_until(lambda line: line.startswith("Deal 1 "))
    assert told == f"Deal 1 stopped before its first card: {leaver} left the table: forfeit."
