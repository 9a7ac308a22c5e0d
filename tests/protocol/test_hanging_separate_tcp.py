"""`hanging-separate` over TCP, one whole flow: two hanging bides in a row, then the two
deals that play for the two sums. The seats (machine style) are told `hanging_after=`
on the lines that carry `hanging=` while the second sum waits, in their `ask` lines
too; watchers in the human style, English and Russian, are told both sums
(docs/protocol.md §9.6)."""

from __future__ import annotations

import pytest
import trio

from deberc_net.game import match as match_module
from deberc_net.game.match import Match
from deberc_net.testing import build_deck, build_ruleset, parse
from tests.game.decks import EVEN, EVEN_PLAY, SIMPLE, SIMPLE_PLAY
from tests.protocol.conftest import Start
from tests.server.client import LineClient, fields
from tests.server.conftest import Connector

DECKS = {n: build_deck(*(EVEN if n < 3 else SIMPLE)) for n in (1, 2, 3, 4)}
# deals 1 and 2 hang 35 each (dealer 1, then 0); deals 3 and 4 are made by who orders
# (a seat's call, or the cards, each by the seat to act: -1)
SCRIPT: list[tuple[int, str]] = [(0, "pas"), (1, "igrayu"), (-1, EVEN_PLAY)]
SCRIPT += [(1, "pas"), (0, "igrayu"), (-1, EVEN_PLAY)]
SCRIPT += [(0, "igrayu"), (-1, SIMPLE_PLAY), (1, "igrayu"), (-1, SIMPLE_PLAY)]


def calls() -> list[tuple[int, str]]:
    """SCRIPT by seat, each card by the seat the engine says is to act."""
    match = Match(build_ruleset(2, options=("hanging-separate",)), seed="t", dealer=1, decks=DECKS)
    said: list[tuple[int, str]] = []
    for seat, tokens in SCRIPT:
        for token in tokens.split():
            who = match.deal.to_act if seat < 0 else seat
            assert who is not None
            match.apply(who, parse(token))
            said.append((who, token))
    assert [r["outcome"] for r in match.records] == ["hanging", "hanging", "made", "made"]
    return said


async def play(seats: list[LineClient], said: list[tuple[int, str]]) -> None:
    for seat, call in said:
        ask = await seats[seat].expect("ask")
        await seats[seat].send(f"{call} seq={ask['seq']}")


def text(client: LineClient) -> str:
    """A person's lines as one text (a long line is wrapped, its rest indented)."""
    return " ".join(line.strip() for line in client.lines)


@pytest.mark.timeout(60)
async def test_two_hanging_bides_in_a_row_then_their_two_deals(
    start: Start, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = calls()
    monkeypatch.setattr(match_module, "deck_for", lambda seed, n: DECKS.get(n) or DECKS[4])
    monkeypatch.setattr(match_module, "first_dealer", lambda seed, n: 1)
    port = await start()
    ann = await connect.machine(port, "ann")
    await ann.send("new 2 hanging-separate")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    eve, ira = await connect.human(port, "eve"), await connect.human(port, "ira")
    await ira.send("lang ru")
    for watcher in (eve, ira):
        await watcher.send(f"observe {table}")
    bob = await connect.machine(port, "bob")
    await bob.send(f"sit {table}")
    with trio.fail_after(40):
        await play([ann, bob], said)
        await ann.expect("event", kind="deal", deal="5")
        await eve.read_until(lambda line: line.startswith("Deal 5."))
        await ira.read_until(lambda line: line.startswith("Раздача 5."))

    told = [fields(line)[1] for line in ann.lines if line.startswith("event ")]
    hanging = [
        (f["kind"], f["deal"], f["hanging"], f.get("hanging_after"))
        for f in told
        if f["kind"] in ("deal", "deal-end")
    ]
    assert hanging == [
        ("deal", "1", "0", None),
        ("deal-end", "1", "35", None),
        ("deal", "2", "35", None),
        ("deal-end", "2", "35", "35"),  # deal 3 plays for the first 35, deal 4 the second
        ("deal", "3", "35", "35"),
        ("deal-end", "3", "35", None),
        ("deal", "4", "35", None),
        ("deal-end", "4", "0", None),
        ("deal", "5", "0", None),
    ]
    asks = [fields(line)[1] for line in ann.lines if line.startswith("ask ")]
    assert {a.get("hanging_after") for a in asks if a["deal"] == "3"} == {"35"}
    assert all("hanging_after" not in a for a in asks if a["deal"] != "3")
    written = [f["written"] for f in told if f["kind"] == "deal-end"]
    assert written == ["35,0", "0,35", "127,35", "35,127"]

    english, russian = text(eve), text(ira)
    assert "35 points hang for the next deal, 35 for the one after." in english
    assert "Hanging: 35 for this deal, 35 for the next." in english
    assert "Score: ann 162, bob 70. Hanging: 35." in english
    assert "висит 35 на следующую раздачу, 35 на раздачу после неё." in russian
    assert "Висит: 35 на эту раздачу, 35 на следующую." in russian
