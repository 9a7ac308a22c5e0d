"""Any token a seat finds in its ``legal=`` is accepted as it is (docs/protocol.md §8.2),
the engine's own option calls too: a plugin that lists ``konets`` at a table without
``manual-claim`` has it taken, not refused as "not a table call here" (the table's
refusal of an option's call where the option is off did not ask ``legal``)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import trio

from deberc_net.game.calls import Call
from deberc_net.game.phases import PLAY
from deberc_net.plugins import PluginDeal, RuleInfo, hookimpl
from deberc_net.server.app import serve
from deberc_net.testing import build_ruleset, legal, new_match, rule_book, say

from .client import LineClient, fields, is_event, seat_pair
from .conftest import Connector, make_config

KONETS = Call("konets")


class _ClaimAnyTime:
    """A test rule: the seat to play may claim the match (``konets``) at any card of
    the play, not only after a trick it took, though ``manual-claim`` is off."""

    @hookimpl
    def deberc_rule_info(self) -> RuleInfo:
        return RuleInfo(name="claim-any-time", kind="option", summary="konets at any card")

    @hookimpl
    def deberc_extra_calls(self, deal: PluginDeal, seat: int) -> list[Call]:
        may = deal.phase == PLAY and seat == deal.to_act and deal.pending is None
        return [KONETS] if may else []


def test_the_plugin_lists_konets_and_the_engine_carries_it_out() -> None:
    """The rule, played with ``deberc_net.testing``: ``konets`` is listed at the first
    card, manual-claim off, and is the engine's claim (a false one this far from 501)."""
    rules = build_ruleset(options=["claim-any-time"], plugins=[_ClaimAnyTime()])
    assert not rules.settings.manual_claim
    match = new_match(rules)
    while (seat := match.deal.to_act) is not None and "konets" not in legal(match, seat):
        calls = legal(match, seat)
        say(match, seat, "igrayu" if "igrayu" in calls else calls[0])
    assert match.deal.phase == PLAY and seat is not None
    say(match, seat, "konets")
    assert match.records[0]["outcome"] == "false-claim"


async def _claim_when_listed(client: LineClient) -> dict[str, Any]:
    """Order when asked, say ``konets`` once it is legal, else the first legal call;
    the deal's record once it ends. Any error fails the test."""
    while True:
        line = await client.read_until(lambda _: True)
        tag, said = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if tag == "record":
            record: dict[str, Any] = json.loads(said["text"])
            return record
        if tag == "ask":
            calls = said["legal"].split(",")
            call = "konets" if "konets" in calls else "igrayu" if "igrayu" in calls else calls[0]
            await client.send(f"{call} seq={said['seq']}")


async def test_a_konets_a_plugin_lists_is_taken_where_manual_claim_is_off(
    db_path: Path, connect: Connector
) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            config = make_config(db_path)
            rules = rule_book(_ClaimAnyTime())
            port = await nursery.start(functools.partial(serve, config, rules=rules))
            ann = await connect.machine(port, "ann")
            bob = await connect.machine(port, "bob")
            await seat_pair(ann, bob, "2 claim-any-time")
            records: dict[str, dict[str, Any]] = {}

            async def run(client: LineClient) -> None:
                records[client.label] = await _claim_when_listed(client)

            async with trio.open_nursery() as players:
                players.start_soon(run, ann)
                players.start_soon(run, bob)
            nursery.cancel_scope.cancel()
    record = records["ann"]
    assert record == records["bob"]
    assert record["outcome"] == "false-claim"  # the engine's konets, far from 501
    assert [c["call"] for c in record["calls"]][-1] == "konets"
    assert any(is_event(line, "call") and "call=konets" in line for line in ann.lines)
