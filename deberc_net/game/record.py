"""``deberc-deal/1`` records: a deal's record folded from the events the engine told
about it, and replaying one (the same deck and calls give the same events, so the same
record). docs/records.md describes every key."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar, overload

import attrs

from .calls import MENYAYU, PLAY, from_record
from .cards import card_str, parse_card
from .combos import BELLA_POINTS
from .deal import DONE, Deal
from .events import (
    CallMade,
    CardPlayed,
    DealAbandoned,
    DealEnded,
    DealStarted,
    MatchEvent,
    MatchOver,
    Ordered,
    Penalized,
    TrickTaken,
    Unveiled,
)
from .outcomes import FORFEITS, Outcome
from .record_json import LEAVES, CheckedRecord, RecordValueError, plain
from .rules import RuleSet
from .scoring import bella_counts
from .seeding import deal_seed

T = TypeVar("T")

RECORD_FORMAT = "deberc-deal/1"

_CARD_NAMES = tuple(card_str(card) for card in range(32))

# Keys that depend on when calls were made, not on what happened.
_TIMING_KEYS = ("ms",)
# keys added to deberc-deal/1 after records were stored: a record written before one was
# added lacks it, and its replay is not the worse for that (docs/records.md)
_LATER_KEYS = frozenset({"unfinished_trick"})
# a note added since: a dave given up notes its stake (December 2026), as a short game's
# played deal always did; a given-up record stored before has none
_LATER_STAKE_NOTE = re.compile(r"stake \d+")


@attrs.frozen
class RecordHead:
    """What a match writes around each deal's body: where and by whom it was played."""

    table: str
    match: str
    seed: str  # the match's: a deal's own is derived from it (seeding.deal_seed)
    rule_fields: dict[str, Any]  # RuleSet.record_fields: variant, options, versions
    players: tuple[str, ...]
    # ``plain_head`` of the others if known (a match checks its own once); None: checked
    # with each record
    checked: bool | None = None


class RecordFold:
    """A deal's ``deberc-deal/1`` record, folded from the events the engine told about
    it, in the order they were made: its ``DealStarted``, every call, card, order and
    trick, and the ``Unveiled`` facts of its end (on ``DealEnded`` or ``DealAbandoned``,
    or given to ``unveil`` for a deal still in play). ``talk_calls``: the calls a seat
    says in the table talk, which the record lists under ``declared``."""

    def __init__(self, talk_calls: frozenset[str]) -> None:
        self._talk_calls = talk_calls
        self._started: DealStarted | None = None
        self._calls: list[dict[str, Any]] = []
        self._said: dict[int, list[str]] = {}
        self._ordered: Ordered | None = None
        self._tricks: list[dict[str, Any]] = []
        self._leader: int | None = None  # of the trick in play: its first card's seat
        self._totals: tuple[int, ...] | None = None  # the match's, after the deal
        self._match_over: MatchOver | None = None
        self._unveiled: Unveiled | None = None
        # every value given so far is one orjson writes as json.dumps does (record_json)
        self._plain = True

    def feed(self, event: MatchEvent) -> None:
        self.feed_all((event,))

    def feed_all(self, events: Iterable[MatchEvent]) -> RecordFold:
        steps, calls, names = _STEPS, self._calls, _CARD_NAMES
        for event in events:
            if type(event) is CardPlayed:  # half of a deal's events: kept cheap here
                # (unpacked: one step, not four attribute reads)
                seat, card, auto, ms = event  # ms: the caller's (Deal.apply)
                if type(ms) is not int:
                    self._plain = plain(ms, "a played card's ms (Deal.apply)") and self._plain
                entry = {"seat": seat, "call": PLAY, "card": names[card], "ms": ms}
                if auto:
                    entry["auto"] = True
                calls.append(entry)
                if self._leader is None:  # the trick's first card
                    self._leader = seat
                continue
            if type(event) is TrickTaken:  # a quarter of them: here, not by a method's call
                winner, cards = event
                self._tricks.append(
                    {"leader": self._leader, "cards": [names[c] for c in cards], "winner": winner}
                )
                self._leader = None
                continue
            step = steps.get(type(event))
            if step is not None:
                step(self, event)
        return self

    def unveil(self, unveiled: Unveiled) -> RecordFold:
        """The end's facts of a deal that has no end event (a bare deal, a replay)."""
        self._unveiled = unveiled
        return self

    def _start(self, event: DealStarted) -> None:
        self._started = event

    def _call(self, event: CallMade) -> None:
        call = event.call
        entry = {"seat": event.seat, **call.record(), "ms": event.ms}
        if event.auto:
            entry["auto"] = True
        if event.engine:
            entry["engine"] = True
        # a plugin's call (its name) and the caller's ms; the keys are Call.record's own
        if not {*map(type, entry.values())} <= LEAVES:
            self._plain = _plain_call(entry, call.name) and self._plain
        self._calls.append(entry)
        if call.name in self._talk_calls:
            self._said.setdefault(event.seat, []).append(call.token())

    def _penalty(self, event: Penalized) -> None:
        entry = {"seat": event.seat, **event.call.record(), "ms": event.ms}
        if event.auto:
            entry["auto"] = True
        entry["penalty"] = event.code
        if not {*map(type, entry.values())} <= LEAVES:
            self._plain = _plain_call(entry, event.call.name) and self._plain
        self._calls.append(entry)

    def _order(self, event: Ordered) -> None:
        self._ordered = event

    def _ended(self, event: DealEnded | DealAbandoned) -> None:
        self.ended(event.totals, event.unveiled, event.match_over)

    def ended(
        self, totals: tuple[int, ...], unveiled: Unveiled | None, match_over: MatchOver | None
    ) -> RecordFold:
        """The facts of the deal's end, as its ``DealEnded`` or ``DealAbandoned`` tells
        them (a match gives them without the event, which holds the record)."""
        self._totals, self._unveiled, self._match_over = totals, unveiled, match_over
        return self

    def body(self) -> dict[str, Any]:
        """The deal's part of the record (without table, match, players)."""
        started, end = self._started, self._unveiled
        assert started is not None and end is not None, "a record needs a start and an end"
        ordered = self._ordered
        trump: int | None
        player: int | None
        if ordered is not None:
            trump, player, first = ordered.trump, ordered.player, ordered.first
        else:  # never ordered: void, or a trump known from the start (Tertz)
            trump, player, first = started.trump, None, started.trump is not None
        said = self._said
        counted = dict(end.scored)
        checked = self._plain & plain(end.extra, _EXTRA)
        declared: list[dict[str, Any]] = [
            {
                "seat": seat,
                "calls": said.get(seat, []),
                "scored": [
                    {
                        "combo": c.describe(),
                        "cards": [_CARD_NAMES[x] for x in c.cards],
                        "points": c.points,
                    }
                    for c in counted.get(seat, ())
                ],
            }
            for seat in sorted({*said, *counted})
        ]
        for entry in declared:  # a game's own combinations (Combo.describe, points)
            if entry["scored"]:
                checked &= plain(entry["scored"], "a combination's describe() or points")
        self._plain = checked
        if end.bella is not None:
            declared.append(
                {
                    "seat": end.bella,
                    "calls": ["bella"],
                    "scored": [{"combo": "bella", "points": BELLA_POINTS}],
                }
            )
        return {
            "dealer": started.dealer,
            "deck": [_CARD_NAMES[c] for c in end.deck],  # (no call a card: every deal)
            "calls": self._calls,
            "trump": None if trump is None else "shdc"[trump],
            "player": player,
            "first_trump": first,
            "turned": card_str(started.turned),
            "fresa": None if end.fresa is None else card_str(end.fresa),
            "tricks": self._tricks,
            **self._unfinished_trick(),
            "declared": declared,
            "points": None if end.points is None else list(end.points),
            "written": None if end.written is None else list(end.written),
            "hanging": end.hanging,
            "outcome": end.outcome,
            "bides_before": list(started.bides),
            "void_reason": end.void_reason,
            "notes": list(end.notes),
            **end.extra,
        }

    def _unfinished_trick(self) -> dict[str, Any]:
        """A deal that ended with cards on the table (a forfeit, a penalty): that trick,
        its cards the plays after the taken tricks' (docs/records.md)."""
        if self._leader is None:
            return {}
        plays = [c["card"] for c in self._calls if c["call"] == PLAY and "penalty" not in c]
        laid = plays[sum(len(trick["cards"]) for trick in self._tricks) :]
        return {"unfinished_trick": {"leader": self._leader, "cards": laid}}

    def record(self, head: RecordHead) -> dict[str, Any]:
        """The whole record: ``head`` around the body, the match's standing after it."""
        started, totals = self._started, self._totals
        assert started is not None and totals is not None, "a match's record needs its end"
        over = self._match_over
        over_entry = None if over is None else _match_over_entry(over)
        try:
            body = self.body()  # (which checks its own parts: self._plain)
            checked = (
                self._plain
                & plain(over_entry, _OVER)
                & _plain_values(head, started, self._unveiled, totals)
            )
        except RecordValueError as e:  # which rules gave it
            rules = head.rule_fields
            raise RecordValueError(
                f"{e} (variant {rules.get('variant')!r}, options {rules.get('options')!r})"
            ) from None
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "table": head.table,
            "match": head.match,
            "deal_no": started.deal,
            "seed": deal_seed(head.seed, started.deal),
            **head.rule_fields,
            "players": list(head.players),
            **body,
            "totals_before": list(started.score),
            "hanging_before": started.hanging,
            "hanging_pending_before": list(started.pending),
            "totals": list(totals),
        }
        if over_entry is not None:
            record["match_over"] = over_entry
        return CheckedRecord(record) if checked else record  # (orjson writes a checked one)


# where a record's values come from, for the error refusing one (record_json.plain)
_START = "the deal's start (its dealer: deberc_next_dealer; totals, hanging, bides)"
_SCORED = (
    "the deal's end (its outcome, points, written, hanging and notes: the scoring hooks "
    "deberc_deal_points, deberc_deal_outcome, deberc_adjust_written) or the totals"
)
_EXTRA = "the deal's record_extra()"
_OVER = "the match's end (its winner and reason: deberc_match_end; stakes)"
_HEAD = "the record's head (table, match, seed, rules, players)"


def _plain_values(
    head: RecordHead, started: DealStarted, end: Unveiled | None, totals: tuple[int, ...]
) -> bool:
    """``plain`` of the record's values from its start (a plugin's dealer, the scoring's
    standing), its end (the scoring hooks') and the totals, checked together (one set of
    their types, ~20 values), then part by part if one is other than a str, int, bool or
    None, to name its giver; the head's as its match checked it (or now)."""
    assert end is not None
    start = (started.dealer, started.hanging, *started.score, *started.bides, *started.pending)
    scored = (end.outcome, end.hanging, end.void_reason, *end.notes, *(end.points or ()))
    given = (*start, *scored, *(end.written or ()), *totals)
    if head.checked is None:
        head_plain = plain_head(head.table, head.match, head.seed, head.rule_fields, head.players)
    else:
        head_plain = head.checked
    if {*map(type, given)} <= LEAVES:
        return head_plain
    written = (*(end.written or ()), *totals)
    return plain(start, _START) & plain(scored, _SCORED) & plain(written, _SCORED) & head_plain


def plain_head(
    table: str, match: str, seed: str, rule_fields: dict[str, Any], players: tuple[str, ...]
) -> bool:
    """``plain`` of a record's head (the same for every deal of a match: it checks it
    once, ``Match``), the error naming it."""
    return plain((table, match, seed, *players), _HEAD) & plain(rule_fields, _HEAD)


def _plain_call(entry: dict[str, Any], name: object) -> bool:
    """A call's entry (a plugin's call, its record(); the caller's ms): a few a deal."""
    try:
        return plain(entry, "its record() or ms")
    except RecordValueError as e:
        raise RecordValueError(f"the call {name!r}: {e}") from None


def _match_over_entry(over: MatchOver) -> dict[str, Any]:
    """A record's ``match_over`` (docs/records.md): its keys after ``reason`` only when
    they apply, so a record of a match without them is the same bytes as before."""
    entry: dict[str, Any] = {"winner": over.winner, "reason": over.reason}
    if over.stakes is not None:
        entry["stakes"] = list(over.stakes)
    if over.forfeit is not None:  # the seat that lost it (a later key: appended)
        entry["forfeit"] = over.forfeit
    return entry


_STEPS: dict[type, Callable[[RecordFold, Any], None]] = {
    DealStarted: RecordFold._start,
    CallMade: RecordFold._call,
    Penalized: RecordFold._penalty,
    Ordered: RecordFold._order,
    DealEnded: RecordFold._ended,
    DealAbandoned: RecordFold._ended,
}


def unveil(deal: Deal) -> Unveiled:
    """What ``deal``'s end makes public (as it stands now, for a deal still in play)."""
    end = deal.result
    outcome, void_reason = "", None
    points: tuple[int, ...] | None = None
    written: tuple[int, ...] | None = None
    notes: tuple[str, ...] = ()
    hanging = deal.hanging_in
    if end is not None:
        score = end.score
        outcome, void_reason = score.outcome, end.void_reason  # end.outcome, read once
        points, written = tuple(score.points), tuple(score.written)
        hanging, notes = score.hanging_out, tuple(score.notes)
    # a void deal (four sevens, a redeal) writes nothing: nothing said in it scored
    void = outcome == Outcome.VOID
    # every seat whose sequences count, a partner's under pair-combinations included
    counted = {} if void else deal.counted_combos()
    scored = tuple([(seat, tuple(combos)) for seat, combos in counted.items()]) if counted else ()
    bella = deal.talk.bella_owner if not void and bella_counts(deal) else None
    # every field in order, built as the engine builds its card events (deal.py)
    return _unveiled(
        (
            deal.deck,
            deal.fresa,
            outcome,
            points,
            written,
            hanging,
            void_reason,
            notes,
            scored,
            bella,
            deal.record_extra(),
        )
    )


_unveiled: Callable[[tuple[Any, ...]], Unveiled] = partial(tuple.__new__, Unveiled)


def deal_record(deal: Deal) -> dict[str, Any]:
    """The deal as a ``deberc-deal/1`` record (without table/match/players): its events
    folded, with what its end makes public (``unveil``)."""
    fold = RecordFold(deal.talk_calls).feed_all([deal.started(), *deal.history])
    return fold.unveil(unveil(deal)).body()


@attrs.define(eq=False)
class LazyRecord:
    """A deal's record, built the first time somebody asks for it: self-play and a
    bench play thousands of deals nobody reads. ``build`` must give the same record
    whenever it runs (Match's folds the deal's events, which stop at its end)."""

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

    def copy(self) -> Records:
        """A list of its own over the same records (appending to one leaves the other)."""
        twin = Records()
        twin._records = list(self._records)
        return twin

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


def draws_per_trick(draws: Sequence[T], seats_per_trick: Iterable[int]) -> list[list[T]]:
    """A record's ``draws`` (Tertz, docs/records.md) split by the tricks they followed:
    after each trick every seat draws one card, its winner first, while the talon lasts
    (docs/rules.md §12.2), so they go a round a trick, in trick order."""
    out: list[list[T]] = []
    taken = 0
    for seats in seats_per_trick:
        out.append(list(draws[taken : taken + seats]))
        taken += seats
    return out


def swap_trick(calls: Iterable[tuple[int, str]], players: int) -> tuple[int, int] | None:
    """Where a deal's trump seven took the turned card (``menyayu``; at most once a
    deal: the seven lies face up after it), from its calls in order as (seat, call
    name): the trick it was said in, counting from 0 (the cards played before it, a
    round a trick), and the seat; None if nobody swapped. Tertz swaps at any trick
    (docs/rules.md §12.3), so its history says where (docs/protocol.md §5.17)."""
    played = 0
    for seat, name in calls:
        if name == PLAY:
            played += 1
        elif name == MENYAYU:
            return played // players, seat
    return None


def replay_calls(record: dict[str, Any], rules: RuleSet) -> Deal:
    """Rebuild a deal from its record by applying every call the players made (and its
    forfeit, if it ended in one), without checking that the calls finish it (the web
    replay folds the events the rebuilt deal told: server/web/replay.py)."""
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


def _later_notes_aside(original: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
    """``rebuilt`` without the notes a replay adds that ``original`` was stored before
    (a dave given up: its stake); as rebuilt for any other record."""
    notes = original.get("notes") or []
    if original.get("outcome") != Outcome.GAVE_UP or any(
        _LATER_STAKE_NOTE.fullmatch(str(n)) for n in notes
    ):
        return rebuilt
    kept = [n for n in rebuilt.get("notes", []) if not _LATER_STAKE_NOTE.fullmatch(str(n))]
    return {**rebuilt, "notes": kept}


def replay_matches(record: dict[str, Any], rules: RuleSet) -> bool:
    """Does replaying ``record`` give back the same deal body (timings aside, and a key
    added since an older record was written)?"""
    body = deal_record(replay_deal(record, rules))
    original = without_timing(record)
    rebuilt = _later_notes_aside(original, without_timing(body))
    return all(
        original.get(k) == v for k, v in rebuilt.items() if k in original or k not in _LATER_KEYS
    )
