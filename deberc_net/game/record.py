"""``deberc-deal/1`` records: writing a deal's record, and replaying one (the same deck
and calls give the same result). docs/records.md describes every key."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

import attrs

from .calls import from_record
from .cards import card_str, parse_card
from .combos import BELLA_POINTS
from .deal import DONE, Deal
from .outcomes import FORFEITS, Outcome
from .rules import RuleSet
from .scoring import bella_counts

# Keys that depend on when calls were made, not on what happened.
_TIMING_KEYS = ("ms",)


def deal_record(deal: Deal) -> dict[str, Any]:
    """The deal as a ``deberc-deal/1`` record (without table/match/players)."""
    score = deal.score
    talk = deal.talk
    declared: list[dict[str, Any]] = []
    # a void deal (four sevens, a redeal) writes nothing: nothing said in it scored
    void = deal.outcome == Outcome.VOID
    counted = {} if void else deal.counted_combos()
    # every seat that spoke, and every seat whose sequences count though it said
    # nothing itself (a partner under pair-combinations)
    for seat in sorted({*talk.declared_combos, *talk.declared_calls, *counted}):
        combos = counted.get(seat, [])
        declared.append(
            {
                "seat": seat,
                "calls": talk.declared_calls.get(seat, []),
                "scored": [
                    {
                        "combo": c.describe(),
                        "cards": [card_str(x) for x in c.cards],
                        "points": c.points,
                    }
                    for c in combos
                ],
            }
        )
    if bella_counts(deal) and not void:
        declared.append(
            {
                "seat": talk.bella_owner,
                "calls": ["bella"],
                "scored": [{"combo": "bella", "points": BELLA_POINTS}],
            }
        )
    return {
        "dealer": deal.dealer,
        "deck": [card_str(c) for c in deal.deck],
        "calls": [
            {
                "seat": e.seat,
                **e.call.record(),
                "ms": e.ms,
                **({"auto": True} if e.auto else {}),
                **({"engine": True} if e.engine else {}),
                **({"penalty": e.penalty} if e.penalty else {}),
            }
            for e in deal.log
        ],
        "trump": None if deal.trump is None else "shdc"[deal.trump],
        "player": deal.player,
        "first_trump": deal.first_trump,
        "turned": card_str(deal.original_turned),
        "fresa": None if deal.fresa is None else card_str(deal.fresa),
        "tricks": [
            {"leader": t.leader, "cards": [card_str(c) for _, c in t.cards], "winner": t.winner}
            for t in deal.tricks
        ],
        "declared": declared,
        "points": list(score.points) if score else None,
        "written": list(score.written) if score else None,
        "hanging": score.hanging_out if score else deal.hanging_in,
        "outcome": deal.outcome,
        "bides_before": list(deal.bides_before),
        "void_reason": deal.void_reason,
        "notes": list(score.notes) if score else [],
        **deal.record_extra(),
    }


@attrs.define(eq=False)
class LazyRecord:
    """A deal's record, built the first time somebody asks for it: self-play and a
    bench play thousands of deals nobody reads. ``build`` must give the same record
    whenever it runs (it reads a finished deal and values taken when the deal ended)."""

    _build: Callable[[], dict[str, Any]] | None
    _record: dict[str, Any] | None = None

    def get(self) -> dict[str, Any]:
        if self._record is None:
            assert self._build is not None
            self._record, self._build = self._build(), None  # the deal may go now
        return self._record


class Records(Sequence[dict[str, Any]]):
    """A match's deal records, in order, each built when first read."""

    def __init__(self) -> None:
        self._records: list[LazyRecord] = []

    def append(self, record: LazyRecord) -> None:
        self._records.append(record)

    def __len__(self) -> int:
        return len(self._records)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [r.get() for r in self._records[index]]
        return self._records[index].get()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (r.get() for r in self._records)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Records | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a mutable sequence, as a list

    def __repr__(self) -> str:
        return f"Records({list(self)!r})"


def replay_calls(
    record: dict[str, Any],
    rules: RuleSet,
    before_call: Callable[[Deal, dict[str, Any]], None] | None = None,
) -> Deal:
    """Rebuild a deal from its record by applying every call the players made (and its
    forfeit, if it ended in one), without checking that the calls finish it.
    ``before_call`` sees the deal before each recorded call is applied (the web replay
    takes the hands and the talk from there)."""
    deal = (rules.deal_class or Deal)(
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
        if before_call is not None:
            before_call(deal, entry)
        if entry.get("engine"):
            continue  # the engine makes these itself (a show after skin)
        deal.apply(entry["seat"], from_record(entry), ms=entry["ms"], auto=entry.get("auto", False))
    if deal.phase != DONE and record["outcome"] in FORFEITS:
        deal.end_deal(record["outcome"], deal.deal_points(), [0] * len(deal.sides))
    return deal


def replay_deal(record: dict[str, Any], rules: RuleSet) -> Deal:
    """Rebuild a deal from its record by applying every call the players made;
    ValueError if the calls do not finish it."""
    deal = replay_calls(record, rules)
    if deal.phase != DONE and record["outcome"] != Outcome.CLAIM:
        raise ValueError(f"deal {record['deal_no']}: the calls do not finish the deal")
    return deal


def without_timing(record: dict[str, Any]) -> dict[str, Any]:
    out = dict(record)
    out["calls"] = [{k: v for k, v in c.items() if k not in _TIMING_KEYS} for c in record["calls"]]
    return out


def replay_matches(record: dict[str, Any], rules: RuleSet) -> bool:
    """Does replaying ``record`` give back the same deal body (timings aside)?"""
    body = deal_record(replay_deal(record, rules))
    original = without_timing(record)
    rebuilt = without_timing(body)
    return all(original.get(k) == v for k, v in rebuilt.items())
