"""'sheet' after the match: at no table, your last finished match's score sheet, as
'history' tells its deals (docs/protocol.md §5.13, §5.17)."""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from deberc_net.game.rules import Settings
from deberc_net.plugins import RuleInfo, hookimpl
from deberc_net.server.app import serve
from deberc_net.testing import rule_book

from .client import a_short_match_after_asking, a_whole_match, fields, is_event, seat_pair
from .conftest import Connector, make_config, running_server


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


class _ToFiftyOne:
    """An option plugin a server had, and a later one on the same file has not."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="to-51", kind="option", summary="a match to 51")

    @hookimpl
    def deberc_configure(self, settings: Settings, players: int) -> None:
        settings.target = 51


async def test_sheet_of_a_last_match_whose_rules_are_gone_is_a_clear_refusal(
    db_path: Path, connect: Connector
) -> None:
    """The sheet needs the match's rules (its target): played with a plugin the server
    no longer has, 'sheet' says so (it was 'internal'); 'history' still tells it."""
    async with trio.open_nursery() as nursery:
        config = make_config(db_path)
        port = await nursery.start(functools.partial(serve, config, rules=rule_book(_ToFiftyOne())))
        ann = await connect.machine(port, "ann")
        bob = await connect.machine(port, "bob")
        table = await a_whole_match(ann, bob, "2 to-51")
        nursery.cancel_scope.cancel()
    async with running_server(make_config(db_path)) as port:  # without the plugin
        ann = await connect.machine(port, "ann")
        await ann.send("sheet")
        refused = await ann.expect("error")
        assert refused["code"] == "bad-rules"
        assert refused["text"].startswith(f"your last match (table {table}) was played by rules")
        assert refused["text"].endswith("'history' still tells its deals")
        await ann.send("history")
        assert (await ann.expect("history"))["table"] == table


async def test_a_match_left_before_any_call_still_has_its_history_and_sheet(
    port: int, connect: Connector
) -> None:
    """The tryout's: anna left at once; boris's 'history' and 'sheet' said he had no
    match, though 'games' listed it (no deal was stored). They name it, and say no
    deal was played."""
    anna = await connect.machine(port, "anna")
    boris = await connect.human(port, "boris")
    await anna.send("new 2 private")
    table = (await anna.expect("ok", cmd="sit"))["table"]
    await anna.send("invite boris")
    await anna.expect("ok", cmd="invite")
    await boris.send(f"sit {table}")
    await anna.read_until(lambda x: is_event(x, "start"), 30)
    await anna.send("leave!")
    end = fields(await anna.read_until(lambda x: is_event(x, "match-end"), 30))[1]
    await boris.read_until(lambda x: x.startswith("Game over"), 30)
    await boris.send("history")
    title = await boris.read_until(lambda x: x.startswith(("History", "Error")))
    assert title == f"History of table {table} ({end['match']}): anna v boris"
    told = "No deal was played: the match ended before anyone made a call."
    assert await boris.read_until(lambda _: True) == told
    await boris.send("sheet")
    await boris.read_until(lambda x: x.startswith(("Score sheet", "Error")))
    await boris.read_until(lambda x: x.startswith("deal outcome"))
    said = await boris.read_until(lambda _: True)
    assert said == "   - no deal: the match ended before anyone made a call"
    await anna.send("sheet")  # the machine style: its head and no row
    head = await anna.expect("sheet")
    assert (head["table"], head["deals"]) == (table, "0")


async def test_a_match_its_clock_ended_before_any_call_still_has_its_history_and_sheet(
    start_server: Callable[..., Awaitable[int]], connect: Connector
) -> None:
    """As a match left at once: one whose first caller let his clock run out (one
    timeout forfeits here) stored no deal, and is told all the same (§5.17)."""
    port = await start_server(bot_clock_ms=150, max_timeouts=1)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    with trio.fail_after(30):
        end = fields(await bob.read_until(lambda x: is_event(x, "match-end")))[1]
    assert end["reason"] == "timeouts" and not any(x.startswith("record ") for x in bob.lines)
    await bob.send("history")
    head = await bob.expect("history")
    assert (head["table"], head["match"], head["deals"]) == (str(table), end["match"], "0")
    await bob.send("sheet")
    assert (await bob.expect("sheet"))["deals"] == "0"
