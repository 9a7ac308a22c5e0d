"""The Trick line over a real server's lines when a deal ends in the middle of a trick:
a bide on cards (table-penalties: a card against the rules ends the deal at once,
docs/rules.md §10) and a forfeit ('leave!' with a card on the table). The cards laid
stayed on the Trick line until the next deal, or, the match over, for good. The
client's state is the fold of the lines a player was sent."""

from __future__ import annotations

from pathlib import Path

import trio

from clients.play.draw import table_text
from clients.play.state import TableState, fold
from tests.server.client import fields, is_event, machine_client, next_ask, seat_pair
from tests.server.conftest import make_config, running_server

TRICK_LINE = 4  # the table pane's line: Trick (draw.table_text)


def _trick_line(lines: list[str], upto: int) -> str:
    """The Trick line of the screen the first ``upto`` lines make."""
    state = TableState()
    for line in lines[:upto]:
        state = fold(state, line)
    return table_text(state).splitlines()[TRICK_LINE]


async def test_a_deal_cut_short_mid_trick_leaves_no_cards_on_the_trick_line(
    tmp_path: Path,
) -> None:
    with trio.fail_after(60):
        async with running_server(make_config(tmp_path / "db.sqlite3")) as port:
            ann = await machine_client(port, "ann")
            bob = await machine_client(port, "bob")
            await seat_pair(ann, bob, "2 moscow table-penalties")
            penalized = False
            while True:
                found = await next_ask(ann, bob)
                assert found is not None  # (the match ends by the forfeit below)
                ask, who = found
                legal, hand = ask["legal"].split(","), ask["hand"].split(",")
                # a card on the table, the seat to answer it with a card: not the leader
                # answering a show asked of his trick's card ('pokazhi'; legal
                # pokazyvayu,skin, where a card is answer-required, no penalty)
                if ask["phase"] != "play" or not ask["trick"] or not set(legal) <= set(hand):
                    await who.send("igrayu" if "igrayu" in legal else legal[0])
                    continue
                if penalized:  # the next deal: the seat leaves, the match forfeited
                    await who.send("leave!")
                    other = bob if who is ann else ann
                    await other.read_until(lambda x: is_event(x, "match-end"))
                    break
                against = [c for c in hand if c not in legal]  # a card against the rules
                if not against:
                    await who.send(legal[0])
                    continue
                await who.send(against[0])
                end = await ann.read_until(lambda x: is_event(x, "deal-end"))
                assert fields(end)[1]["outcome"] == "penalty", end
                penalized = True
            await ann.aclose()
            await bob.aclose()
    lines = other.lines
    ended = 1 + next(
        i for i, x in enumerate(lines) if is_event(x, "deal-end") and "outcome=penalty" in x
    )
    assert _trick_line(lines, ended - 1) != "Trick:  -"  # the card on the table, seen
    assert _trick_line(lines, ended) == "Trick:  -"  # the deal is over: no trick on
    over = next(i for i, x in enumerate(lines) if is_event(x, "match-end")) + 1
    assert _trick_line(lines, over - 1) != "Trick:  -"
    assert _trick_line(lines, over) == "Trick:  -"
    assert _trick_line(lines, len(lines)) == "Trick:  -"
