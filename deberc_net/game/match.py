"""A match: deals one after another until the rules say it is over.

The match owns the totals, the hanging points, who deals next and the deal records. Its
``legal_calls`` / ``apply`` / ``view`` are what a table (or a test, or self-play) drives;
``apply``, ``forfeit`` and ``stop`` return the events that say what happened.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from itertools import chain
from typing import Any

import attrs

from .calls import KONETS, Call
from .deal import DONE, Deal
from .errors import GameOver
from .events import (
    DealAbandoned,
    DealEnded,
    DealEvent,
    DealStarted,
    MatchEnded,
    MatchEvent,
    MatchOver,
    Unveiled,
)
from .outcomes import MatchEndReason, Outcome, VoidReason
from .record import (
    RECORD_FORMAT,
    LazyRecord,
    RecordFold,
    RecordHead,
    Records,
    plain_head,
    unveil,
)
from .rules import MatchEnd, MatchSnapshot, RuleSet
from .seeding import deal_seed, deck_for, first_dealer

__all__ = ["RECORD_FORMAT", "Match"]

_deal_ended: Callable[[tuple[Any, ...]], DealEnded] = partial(tuple.__new__, DealEnded)


@attrs.define(eq=False)
class Match:
    rules: RuleSet
    seed: str
    names: tuple[str, ...] = ()
    table: str = "local"
    match_id: str = "1"
    dealer: int | None = None  # the first dealer; by lot from the seed when not given
    decks: dict[int, tuple[int, ...]] = attrs.Factory(dict)  # scripted decks by deal_no
    deal_limit: int | None = None  # stop after so many deals (a ladder board: 1)
    # the server's bound on any match's deals: deals that all void (both pass, each
    # time) never end a match, and its records, memory and replay grew without end
    most_deals: int | None = None

    deal: Deal = attrs.field(init=False)
    _started: DealStarted = attrs.field(init=False)  # the current deal's start
    totals: list[int] = attrs.field(init=False)
    hanging: int = attrs.field(init=False, default=0)
    hanging_pending: tuple[int, ...] = attrs.field(init=False, default=())
    bides: list[int] = attrs.field(init=False)
    records: Records = attrs.field(init=False, factory=Records)
    result: MatchEnd | None = attrs.field(init=False, default=None)
    # its records' head is what orjson writes as json.dumps does (record.plain_head):
    # checked once, the same for every deal
    _head_plain: bool = attrs.field(init=False, default=False)

    def __attrs_post_init__(self) -> None:
        n = self.rules.settings.players
        if not self.names:
            self.names = tuple(f"seat{i}" for i in range(n))
        if len(self.names) != n:
            raise ValueError(f"{n} players need {n} names, got {len(self.names)}")
        fields = self.rules.record_fields()
        self._head_plain = plain_head(self.table, self.match_id, self.seed, fields, self.names)
        sides = len(self.rules.settings.sides())
        self.totals = [0] * sides
        self.bides = [0] * sides
        first = first_dealer(self.seed, n) if self.dealer is None else self.dealer
        self.deal = self._new_deal(1, first)

    def set_standing(
        self,
        totals: list[int],
        hanging: int = 0,
        bides: list[int] | None = None,
        hanging_after: tuple[int, ...] = (),
    ) -> None:
        """Start the match from a standing (a resumed score sheet, a scripted test):
        the first deal is dealt again from the same deck at ``totals``. ``hanging_after``:
        under ``hanging-separate``, the sums waiting for the deals after the next (as a
        deal's end leaves them: ``Match.hanging_pending``). Only before anybody has said
        anything."""
        sides = len(self.totals)
        if self.records or self.deal.deal_no != 1 or self.deal.log:
            raise ValueError("the standing is set before the first call of the match")
        if len(totals) != sides or (bides is not None and len(bides) != sides):
            raise ValueError(f"a standing gives one number per side ({sides} sides)")
        numbers = (hanging, *totals, *(bides or ()), *hanging_after)
        if any(n < 0 for n in numbers):
            raise ValueError("totals, hanging points and bides are never negative")
        if hanging_after and "hanging-separate" not in self.rules.options:
            raise ValueError("later hanging sums wait only under hanging-separate")
        if hanging_after and not hanging:
            # a deal's end moves the first waiting sum up when nothing hangs (scoring)
            raise ValueError("later hanging sums wait behind points hanging now")
        self.totals = list(totals)
        self.hanging = hanging
        self.hanging_pending = tuple(hanging_after)
        if bides is not None:
            self.bides = list(bides)
        self.deal = self._new_deal(1, self.deal.dealer)

    def _new_deal(self, deal_no: int, dealer: int) -> Deal:
        deck = self.decks.get(deal_no) or deck_for(self.seed, deal_no)
        deal = (self.rules.deal_class or Deal)(
            rules=self.rules,
            deal_no=deal_no,
            dealer=dealer,
            deck=deck,
            seed=deal_seed(self.seed, deal_no),
            totals_before=tuple(self.totals),
            hanging_in=self.hanging,
            bides_before=tuple(self.bides),
            # hanging-separate: the sums still waiting must reach the next deal too
            hanging_pending=self.hanging_pending,
        )
        self._started = deal.started()
        return deal

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def to_act(self) -> int | None:
        return None if self.result is not None else self.deal.to_act

    def legal_calls(self, seat: int) -> list[Call]:
        if self.result is not None or not 0 <= seat < len(self.names):  # a name per seat
            return []
        return self.deal.legal_calls(seat)

    def apply(self, seat: int, call: Call, *, ms: int = 0, auto: bool = False) -> list[MatchEvent]:
        """Make ``call`` for ``seat`` (see ``Deal.apply``) and say what happened: the
        deal's events, then at a deal's end ``DealEnded`` and the next ``DealStarted``
        or ``MatchEnded``."""
        if self.result is not None:
            raise GameOver("the match is over")
        deal = self.deal
        # Deal.apply hands out a new list each call: ours to extend
        told: list[Any] = deal.apply(seat, call, ms=ms, auto=auto)  # DealEvents are MatchEvents
        events: list[MatchEvent] = told
        if deal.phase is DONE:  # the phases are Phase's members (read every move)
            events += self._finish_deal()
        return events

    def finish_deal(self) -> list[MatchEvent]:
        """What ``apply`` adds to a deal's events, for a driver in this process that
        makes its calls on ``deal`` itself (``Deal.apply``; self-play, which reads no
        events: one call a move fewer): once the deal is over, ``DealEnded`` and the
        next ``DealStarted`` or ``MatchEnded``; nothing while it goes on."""
        if self.result is None and self.deal.phase is DONE:
            return self._finish_deal()
        return []

    def copy(self) -> Match:
        """A copy to play on (a test's twin, a search): the current deal is copied as
        ``Deal.copy`` copies it, the totals and bides are the copy's own; the rules, the
        scripted decks and the records already made (each built once, the same for
        both) are shared. Nothing done to the copy reaches this match."""
        new = copy.copy(self)
        new.deal = self.deal.copy()
        new.totals = list(self.totals)
        new.bides = list(self.bides)
        new.records = self.records.copy()
        return new

    def deal_started(self) -> DealStarted:
        """The current deal's start (a table tells the first one when the match starts)."""
        return self._started

    def forfeit(
        self, side: int, reason: str = "forfeit", *, seat: int | None = None
    ) -> list[MatchEvent]:
        """End the match against ``side`` (``seat`` left, timed out, stayed away). A deal
        in progress is recorded as it stands, its outcome the reason; nobody writes."""
        if self.over:
            return []
        others = [s for s in range(len(self.totals)) if s != side]
        # the highest total; max keeps the first of a tie: the lowest seat (protocol §11.3)
        self.result = MatchEnd(max(others, key=lambda s: self.totals[s]), reason)
        events: list[MatchEvent] = []
        deal = self.deal
        if deal.phase != DONE and deal.log:  # the deal so far, with the calls that lost it
            zero = [0] * len(self.totals)
            deal.end_deal(reason, deal.deal_points(), zero)
            totals, unveiled = tuple(self.totals), unveil(deal)
            over = self._match_over(forfeit=seat)
            record = self._record_later(deal, totals, unveiled, over)
            self.records.append(record)
            abandoned = DealAbandoned(
                deal.deal_no, record, totals, tuple(self.bides), unveiled, over
            )
            events.append(abandoned)
        events.append(self._ended(forfeit=seat))
        return events

    def stop(self, reason: str) -> list[MatchEvent]:
        """End the match between deals (a ladder board is one deal): the side with the
        most points wins, a tie is a draw."""
        if self.over:
            return []
        top = max(self.totals)
        leaders = [s for s, t in enumerate(self.totals) if t == top]
        self.result = MatchEnd(leaders[0] if len(leaders) == 1 else None, reason)
        return [self._ended()]

    def _ended(self, forfeit: int | None = None) -> MatchEnded:
        result = self.result
        assert result is not None
        sides = self.rules.settings.sides()
        winners = (
            () if result.winner is None else tuple(self.names[s] for s in sides[result.winner])
        )
        return MatchEnded(
            result.winner,
            winners,
            result.reason,
            tuple(self.totals),
            self.seed,
            forfeit,
            deals=len(self.records),
            claimed=result.reason == Outcome.CLAIM
            and bool(self.deal.log)
            and self.deal.log[-1].call.name == KONETS,
        )

    def _finish_deal(self) -> list[MatchEvent]:
        deal = self.deal
        deal_result = deal.result  # how the deal ended (self.result: how the match did)
        assert deal_result is not None
        score = deal_result.score
        for side, points in enumerate(score.written):
            self.totals[side] += points
        if score.outcome == Outcome.BIDE:
            self.bides[score.player_side] += 1
        self.hanging = score.hanging_out
        self.hanging_pending = tuple(score.hanging_pending)
        snapshot = MatchSnapshot(
            totals=tuple(self.totals),
            target=self.rules.settings.target,
            last_deal=score,
            dealer=deal.dealer,
            deal_no=deal.deal_no,
            players=self.rules.settings.players,
        )
        if deal_result.match_end is not None:
            self.result = MatchEnd(*deal_result.match_end)
        elif score.outcome != Outcome.VOID:
            self.result = self.rules.match_end(snapshot)
        over = self.result is not None
        totals, unveiled = tuple(self.totals), unveil(deal)
        match_over = self._match_over() if over else None
        record = self._record_later(deal, totals, unveiled, match_over)
        self.records.append(record)
        # a board's deals played, or the server's most (the last deal's record carries
        # the seed then too: docs/protocol.md §14)
        stop = self._stop_after(len(self.records)) if self.result is None else None
        # every field in order, built as the engine builds its card events (deal.py);
        # the outcome is the score's (DealResult.outcome, without the property)
        ended = _deal_ended(
            (
                deal.deal_no,
                score.outcome,
                tuple(score.points),
                tuple(score.written),
                totals,
                score.hanging_out,
                record,
                over or stop is not None,  # seed_told
                tuple(self.bides),
                unveiled,
                match_over,
                tuple(score.hanging_pending),
            )
        )
        events: list[MatchEvent] = [ended]
        if stop is not None:
            # after the record: it is the deal's, and the deal did not end the match
            events += self.stop(stop)
        elif self.result is not None:
            events.append(self._ended())
        else:
            self.deal = self._new_deal(deal.deal_no + 1, self._next_dealer(deal, snapshot))
            events.append(self.deal_started())
        return events

    def _stop_after(self, deals: int) -> MatchEndReason | None:
        """Why a match not over after ``deals`` deals stops there: a ladder board's
        deals played, or the server's most a match; None if it plays on."""
        if self.deal_limit is not None and deals >= self.deal_limit:
            return MatchEndReason.DEALS
        if self.most_deals is not None and deals >= self.most_deals:
            return MatchEndReason.MOST_DEALS
        return None

    def _next_dealer(self, deal: Deal, snapshot: MatchSnapshot) -> int:
        deal_result = deal.result
        assert deal_result is not None
        if deal_result.void_reason == VoidReason.SEVENS:
            return deal.dealer  # a misdeal-like redeal: the same dealer deals again
        if deal_result.score.outcome == Outcome.VOID:
            return (deal.dealer + 1) % self.rules.settings.players
        return self.rules.next_dealer(snapshot)

    def _settle_stakes(self, stake: int) -> list[int]:
        """Per side: every player put ``stake`` in (seed 004: "all players place an
        initial bet"), the winning side takes it all; a drawn match settles nothing.
        Four players: each loser pays his stake, each partner of the winners gains one."""
        assert self.result is not None
        winner = self.result.winner
        sides = self.rules.settings.sides()
        if winner is None:
            return [0] * len(sides)
        pot = stake * self.rules.settings.players
        return [
            pot - stake * len(seats) if s == winner else -stake * len(seats)
            for s, seats in enumerate(sides)
        ]

    def _match_over(self, forfeit: int | None = None) -> MatchOver | None:
        """The match's result as the deal just ended leaves it (None: it goes on, or a
        board stops after its deals, which is no deal's doing); ``forfeit``: the seat
        whose forfeit ended it."""
        result = self.result
        if result is None:
            return None
        stake = self.rules.settings.stake
        # stake-N: the winner takes every other side's stake
        stakes = None if stake is None else tuple(self._settle_stakes(stake))
        return MatchOver(result.winner, result.reason, stakes, forfeit)

    def _record_later(
        self,
        deal: Deal,
        totals: tuple[int, ...],
        unveiled: Unveiled,
        match_over: MatchOver | None,
    ) -> LazyRecord:
        """The ended deal's record, folded from its events when first asked for (most
        records of a self-play nobody reads), with the facts of its end (its
        ``DealEnded`` or ``DealAbandoned``'s)."""
        # Neither the match nor the end's event, which hold this record: a finished
        # match is then freed by its reference count, not left to the cyclic collector
        # (whose collections it would walk). A partial, not a closure: 2 objects a deal.
        fold = partial(
            _fold_record,
            (self.table, self.match_id, self.seed, self.rules, self.names, self._head_plain),
            deal.talk_calls,
            self._started,
            deal.history,
            (totals, unveiled, match_over),
        )
        return LazyRecord(fold)


def _fold_record(
    head: tuple[str, str, str, RuleSet, tuple[str, ...], bool],
    talk_calls: frozenset[str],
    started: DealStarted,
    history: list[DealEvent],
    end: tuple[tuple[int, ...], Unveiled, MatchOver | None],
) -> dict[str, Any]:
    """A deal's record (``Match._record_later``): its start, its events and its end;
    ``head``: the match's table, id, seed, rules and names as the deal ended."""
    table, match_id, seed, rules, names, checked = head
    fold = RecordFold(talk_calls).feed_all(chain((started,), history)).ended(*end)
    return fold.record(RecordHead(table, match_id, seed, rules.record_fields(), names, checked))
