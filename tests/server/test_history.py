"""'history' over real sockets: the match's deals trick by trick, in both styles."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable

import trio

from deberc_net.protocol.lang import Lang, outcome_said

from .client import (
    a_short_match_after_asking,
    block,
    fields,
    is_event,
    play_machine,
    second_deal_first_trick,
)
from .conftest import Connector


async def test_history_tells_every_deal_and_trick(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    # a fixed deck (match_seed) with the bots' seeds: deal 1 played, deal 2 begun, each
    # time (with a random deck one deal in ~60 was passed out, and the deals told were
    # not those this test reads: it failed once in CI)
    port = await start_server(match_seed="history")
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.human(port, "eve")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("history")
    assert await ann.expect("error") == {
        "code": "wrong-phase",
        "text": "the game has not started",
    }
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await eve.send(f"observe {table}")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(4), second_deal_first_trick())
        nursery.start_soon(play_machine, bob, random.Random(5), second_deal_first_trick())
    record = json.loads(fields(next(x for x in ann.lines if x.startswith("record ")))[1]["text"])
    deal2_trick = fields([x for x in ann.lines if is_event(x, "trick")][-1])[1]

    lines = [x for x in await block(ann, "history") if not x.startswith(("event", "ask", "state"))]
    head, deal1, *rest = [fields(x) for x in lines]
    assert head == ("history", {"table": table, "match": head[1]["match"], "deals": "2"})
    assert deal1[0] == "history-deal"
    # what its declarations scored, appended when any did (§5.17), as its record says
    told_scored = [
        f"{entry['seat']}:{item['points']}:{item['combo'].replace(' ', '_')}"
        for entry in record["declared"]
        for item in entry["scored"]
    ]
    assert sorted(deal1[1].pop("scored", "").split(",")) == sorted(told_scored or [""])
    for appended in ("scored_to", "scored_hangs", "hung"):  # a bide's, hanging points'
        deal1[1].pop(appended, None)
    assert deal1[1] == {
        "table": table,
        "deal": "1",
        "dealer": str(record["dealer"]),
        "trump": record["trump"] or "-",
        "player": "-" if record["player"] is None else str(record["player"]),
        "outcome": record["outcome"],
        "written": ",".join(str(w) for w in record["written"]),
        "tricks": str(len(record["tricks"])),
    }
    tricks1 = rest[: len(record["tricks"])]
    for i, ((tag, got), want) in enumerate(zip(tricks1, record["tricks"], strict=True), 1):
        assert tag == "history-trick"
        assert got == {
            "table": table,
            "deal": "1",
            "trick": str(i),
            "leader": str(want["leader"]),
            "cards": ",".join(want["cards"]),
            "winner": str(want["winner"]),
        }
    (tag, deal2), (_, trick) = rest[len(record["tricks"]) :]
    assert (tag, deal2["deal"], deal2["outcome"], deal2["written"], deal2["tricks"]) == (
        "history-deal",
        "2",
        "-",
        "-",
        "1",
    )
    assert (trick["cards"], trick["winner"]) == (deal2_trick["cards"], deal2_trick["winner"])

    told = await block(eve, "history")  # a watcher reads it too, in the human style
    told = told[next(i for i, x in enumerate(told) if x.startswith("History of")) :]
    told = [x for x in told if x.startswith(("History", "Deal", "  "))]
    assert told[0] == f"History of table {table} ({head[1]['match']}): ann v bob"
    said = outcome_said(record["outcome"], Lang.EN)  # ('void' reads 'redealt')
    assert told[1].startswith("Deal 1, ") and f": {said}, ann " in told[1]
    # under a finished deal, what its declarations scored (its record's), if any did
    counted = any(entry["scored"] for entry in record["declared"])
    scored = [x for x in told if x.startswith("    Scored for combinations: ")]
    assert (told[2:3] == scored) if counted else (scored == [])
    told = [x for x in told if x not in scored]
    first = record["tricks"][0]
    names = ("ann", "bob")
    assert told[2].startswith(f"  1 {names[first['leader']]} ")
    assert told[2].endswith(f" > {names[first['winner']]}")
    assert told[-2].startswith("Deal 2, ") and told[-2].endswith(": being played")
    assert all(len(x) <= 80 for x in told)


async def test_after_the_match_history_tells_your_last_one(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await a_short_match_after_asking(ann, bob, "history")
    records = [json.loads(fields(x)[1]["text"]) for x in bob.lines if x.startswith("record ")]
    match = fields(next(x for x in bob.lines if is_event(x, "start")))[1]["match"]
    await bob.send("history")
    head = await bob.expect("history")
    assert head == {"table": table, "match": match, "deals": str(len(records))}
    for record in records:
        deal = await bob.expect("history-deal")
        assert (deal["deal"], deal["outcome"]) == (str(record["deal_no"]), record["outcome"])
        for want in record["tricks"]:
            trick = await bob.expect("history-trick")
            assert trick["cards"] == ",".join(want["cards"])
