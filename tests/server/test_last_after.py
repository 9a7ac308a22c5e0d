"""'last' after the match: at no table, the last trick of your last finished match (or
of the match you watched to its end), as 'sheet' and 'history' tell that match
(docs/protocol.md §5.12). A newcomers' tryout: the watcher's 'history' and 'sheet' told
the match just over, his 'last' said he watched no table."""

from __future__ import annotations

import json
import random

import pytest
import trio

from .client import fields, person_told, play_machine
from .conftest import Connector


@pytest.mark.timeout(60)
async def test_after_the_match_last_tells_its_last_trick(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    gosha = await connect.human(port, "gosha")
    assert await person_told(gosha, "lang ru")
    await ann.send("last")  # no table, no match yet: as 'sheet' and 'history' say it
    assert await ann.expect("error") == {
        "code": "not-seated",
        "text": "you sit at no table, observe none, and have no match",
    }
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await gosha.send(f"observe {table}")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(6))
            nursery.start_soon(play_machine, bob, random.Random(7))
        await gosha.read_until(lambda x: x.startswith("Партия окончена"))
    records = [json.loads(fields(x)[1]["text"]) for x in bob.lines if x.startswith("record ")]
    record = next(r for r in reversed(records) if r["tricks"])
    trick = record["tricks"][-1]
    await bob.send("last")
    assert await bob.expect("last") == {
        "table": table,
        "deal": str(record["deal_no"]),
        "leader": str(trick["leader"]),
        "cards": ",".join(trick["cards"]),
        "winner": str(trick["winner"]),
    }
    lines = await person_told(gosha, "last")  # after the match end's last lines
    first = next(i for i, x in enumerate(lines) if x.startswith("Последняя взятка"))
    told = " ".join(x.strip() for x in lines[first:])
    assert told.startswith(f"Последняя взятка (раздача {record['deal_no']}): первый ход — ")
    names = ("ann", "bob")
    assert told.endswith(f"взятку берёт {names[trick['winner']]}.")
