"""'sheet' after the match: at no table, your last finished match's score sheet, as
'history' tells its deals (docs/protocol.md §5.13, §5.17)."""

from __future__ import annotations

import json

from .client import a_short_match_after_asking, fields, is_event
from .conftest import Connector


async def test_after_the_match_sheet_tells_your_last_ones(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await a_short_match_after_asking(ann, bob, "sheet")
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
