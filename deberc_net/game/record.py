"""Replaying ``deberc-deal/1`` records: the same deck and calls give the same result."""

from __future__ import annotations

from typing import Any

from .calls import from_record
from .cards import parse_card
from .deal import DONE, Deal
from .rules import RuleSet

FORFEITS = ("left", "timeouts", "away")  # a match lost this way records the deal so far
# Keys that depend on when calls were made, not on what happened.
_TIMING_KEYS = ("ms",)


def replay_deal(record: dict[str, Any], rules: RuleSet) -> Deal:
    """Rebuild a deal from its record by applying every call the players made."""
    deal = Deal(
        rules=rules,
        deal_no=record["deal_no"],
        dealer=record["dealer"],
        deck=tuple(parse_card(c) for c in record["deck"]),
        seed=record["seed"],
        totals_before=tuple(record["totals_before"]),
        hanging_in=record["hanging_before"],
        bides_before=tuple(record["bides_before"]),
        hanging_pending=tuple(record.get("hanging_pending_before", ())),
    )
    for entry in record["calls"]:
        if entry.get("engine"):
            continue  # the engine makes these itself (a show after skin)
        deal.apply(entry["seat"], from_record(entry), ms=entry["ms"], auto=entry.get("auto", False))
    if deal.phase != DONE and record["outcome"] in FORFEITS:
        deal.end_deal(record["outcome"], deal.deal_points(), [0] * len(deal.sides))
    if deal.phase != DONE and record["outcome"] != "claim":
        raise ValueError(f"deal {record['deal_no']}: the calls do not finish the deal")
    return deal


def without_timing(record: dict[str, Any]) -> dict[str, Any]:
    out = dict(record)
    out["calls"] = [{k: v for k, v in c.items() if k not in _TIMING_KEYS} for c in record["calls"]]
    return out


def replay_matches(record: dict[str, Any], rules: RuleSet) -> bool:
    """Does replaying ``record`` give back the same deal body (timings aside)?"""
    body = replay_deal(record, rules).record()
    original = without_timing(record)
    rebuilt = without_timing(body)
    return all(original.get(k) == v for k, v in rebuilt.items())
