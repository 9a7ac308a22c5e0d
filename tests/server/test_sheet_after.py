"""'sheet' after the match: at no table, your last finished match's score sheet, as
'history' tells its deals (docs/protocol.md §5.13, §5.17)."""

from __future__ import annotations

import json
import random

import trio

from .client import fields, is_event, play_machine
from .conftest import Connector


async def test_after_the_match_sheet_tells_your_last_ones(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("sheet")  # no table, no match yet
    assert await ann.expect("error") == {
        "code": "not-seated",
        "text": "you sit at no table, observe none, and have no match",
    }
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(6))
            nursery.start_soon(play_machine, bob, random.Random(7))
    ends = [fields(x)[1] for x in bob.lines if is_event(x, "deal-end")]
    records = [json.loads(fields(x)[1]["text"]) for x in bob.lines if x.startswith("record ")]
    assert len(ends) == len(records) >= 1
    await bob.send("sheet")
    head = await bob.expect("sheet")
    assert (head["table"], head["deals"]) == (table, str(len(ends)))
    bides = [0, 0]
    for end, record in zip(ends, records, strict=True):
        row = await bob.expect("sheet-deal")
        if record["outcome"] == "bide":  # the side that ordered and failed
            bides[record["player"]] += 1
        assert row == {
            "table": table,
            "deal": end["deal"],
            "outcome": end["outcome"],
            "written": end["written"],
            "totals": end["totals"],
            "hanging": end["hanging"],
            "bides": ",".join(map(str, bides)),
        }
