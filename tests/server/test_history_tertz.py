"""'history' of a Tertz match (docs/protocol.md §5.17): a finished deal tells its break
and every trick's draws (public once the deal is over: its record tells them), the deal
in play its break only; the terminal client reads them back as the human style says
them."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import trio

from clients.play.replies import history_text
from clients.play.words import game_words
from deberc_net.game.cards import parse_card
from deberc_net.protocol.render import pretty_card
from deberc_net.protocol.wire import parse_line

from .client import block, fields, play_machine, second_deal_first_trick
from .conftest import Connector

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


class Swapping(random.Random):
    """A random player that swaps its trump 7 whenever it may (so the deal played has
    a swap for its history to tell: a random one mostly had none)."""

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        swaps = [seq[i] for i in range(len(seq)) if seq[i] == "menyayu"]
        return swaps[0] if swaps else super().choice(seq)


async def test_a_tertz_history_tells_the_break_and_the_draws(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    port = await start_server(match_seed="tertz-history-2")  # its deal 1 has a swap
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.human(port, "eve")
    await ann.send("new 2 tertz")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await eve.send(f"observe {table}")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, Swapping(4), second_deal_first_trick())
            nursery.start_soon(play_machine, bob, Swapping(5), second_deal_first_trick())
        record = json.loads(
            fields(next(x for x in ann.lines if x.startswith("record ")))[1]["text"]
        )
        raw = [x for x in await block(ann, "history") if x.startswith("history")]
        told = await block(eve, "history")
    lines = [fields(x) for x in raw]
    deal1 = lines[1][1]
    assert deal1["broken"] == str(record["talon_broken"])
    tricks1 = [f for _, f in lines[2 : 2 + len(record["tricks"])]]
    drawn = [item for f in tricks1 for item in f["draws"].split(",") if item]
    assert drawn == [f"{seat}:{card}" for seat, card in record["draws"]]
    assert [f["draws"].split(",")[0].split(":")[0] for f in tricks1[:7]] == [
        f["winner"] for f in tricks1[:7]
    ]  # the winner draws first
    (_, deal2), (_, trick) = lines[2 + len(record["tricks"]) :]
    assert deal2["broken"] == "-" and "draws" not in trick  # not broken yet; draws unseen

    names = ("ann", "bob")
    human = told[next(i for i, x in enumerate(told) if x.startswith("History of")) :]
    human = [x for x in human if x.startswith(("History", "Deal", " "))]
    # what a finished deal's declarations scored, its record's, the machine lines carry
    # too (scored=, docs/protocol.md §5.17): the terminal client says them
    scored = [x for x in human if x.startswith("    Scored for combinations: ")]
    counted = [
        f"{entry['seat']}:{item['points']}:{item['combo'].replace(' ', '_')}"
        for entry in record["declared"]
        for item in entry["scored"]
    ]
    assert len(scored) == bool(counted)
    assert sorted(deal1.get("scored", "").split(",")) == sorted(counted or [""])
    human = [x for x in human if x not in scored]
    # a seat's swap of the trump 7 is said under the trick it was made in: deal 1 has
    # one (the seed's), at the trick its record's menyayu was said in
    calls = [(c["seat"], c["call"]) for c in record["calls"]]
    assert any(call == "menyayu" for _, call in calls), "deal 1 has no swap: another seed"
    seat = next(s for s, call in calls if call == "menyayu")
    at = sum(call == "play" for _, call in calls[: calls.index((seat, "menyayu"))]) // 2
    assert tricks1[at]["swap"] == f"{seat}:{record['turned']}"
    assert sum("swap=" in x for x in raw[2 : 2 + len(record["tricks"])]) == 1
    swaps = [x for x in human if ", before his card, swaps the trump 7 for the turned " in x]
    took = pretty_card(parse_card(record["turned"]))
    said = f", before his card, swaps the trump 7 for the turned {took}: menyayu"
    assert swaps[0] == f"      {names[seat]}{said}"
    assert len(swaps) == sum("swap=" in x for x in raw)  # deal 2's, if in its first trick
    plain = [x for x in human if x not in swaps]
    loser = names[1 - record["tricks"][0]["winner"]]
    assert plain[3] == f"      {loser} breaks the deck: lomayu {record['talon_broken']}"
    assert plain[4].startswith("      draw: ") and plain[4].count(" ") >= 9
    assert sum(x.startswith("      draw: ") for x in human) == 7
    assert all(len(x) <= 80 for x in human)
    # the terminal client, given the machine lines, says what the human style says,
    # in the game's words (Tertz's bella is 'mariage')
    shown = history_text([parse_line(x) for x in raw], names, words=game_words("tertz", 2))
    assert [x for x in shown if x not in scored] == human
    assert [x for x in shown if x.startswith("    Scored")] == scored
