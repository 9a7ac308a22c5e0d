"""What happened at a table, as the engine says it: one small frozen class per kind.

``Deal.apply`` and ``Match.apply`` return these (as h11's ``next_event()`` hands out
``Request``, ``Data``, ``EndOfMessage``), so nothing downstream works out what happened
by comparing states. Every event is public: it holds only what all seats may know. The
server numbers them, and protocol/render.py turns each class into lines.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import attrs

from .calls import Call
from .cards import Card
from .combos import Combo

if TYPE_CHECKING:
    from .record import LazyRecord


@attrs.frozen
class CallMade:
    """A spoken call (anything but a card); ``auto``: the clock made it. ``ms``: when,
    in milliseconds since the deal started (not part of what happened: left out of
    equality); ``engine``: the engine made it itself (the show after 'skin')."""

    seat: int
    call: Call
    auto: bool = False
    ms: int = attrs.field(default=0, eq=False)
    engine: bool = False


@attrs.frozen
class CardPlayed:
    seat: int
    card: Card
    auto: bool = False
    ms: int = attrs.field(default=0, eq=False)  # as CallMade.ms


@attrs.frozen
class Penalized:
    """table-penalties: an illegal call is punished (``code`` says why), not carried out."""

    seat: int
    call: Call
    code: str
    ms: int = attrs.field(default=0, eq=False)  # as CallMade.ms
    auto: bool = False


@attrs.frozen
class Ordered:
    """The game is ordered: ``player`` plays in ``trump`` (``first``: the turned suit).

    ``fresa`` is told only where the rules show it, and only once it is dealt."""

    player: int
    trump: int
    first: bool
    fresa: Card | None


@attrs.frozen
class Dealt:
    """The last cards are dealt after a pause past the order (settings.pause_after_order)."""

    fresa: Card | None


@attrs.frozen
class TrickTaken:
    winner: int
    cards: tuple[Card, ...]  # in the order they were played


@attrs.frozen
class Shown:
    """A seat's declared combination goes face up."""

    seat: int
    cards: tuple[Card, ...]


@attrs.frozen
class MatchStarted:
    players: tuple[str, ...]
    match: str


@attrs.frozen
class DealStarted:
    """``bides`` and ``pending``: each side's bides and the hanging-separate sums coming
    into the deal; ``trump``: a trump nobody orders, known from the start (Tertz)."""

    deal: int
    dealer: int
    turned: Card
    score: tuple[int, ...]  # the totals before this deal, by side
    hanging: int
    bides: tuple[int, ...] = ()
    pending: tuple[int, ...] = ()
    trump: int | None = None


@attrs.frozen
class Unveiled:
    """What a deal's end makes public, for its record (game/record.py folds it in with
    the deal's other events): the deck, the fresa even where it stayed hidden, the
    result (``points`` and ``written`` None while the deal is unfinished), why a void
    deal was void, the scoring notes, each seat's combinations that count, the seat
    whose bella counts, and the keys a game of its own adds (``Deal.record_extra``)."""

    deck: tuple[Card, ...]
    fresa: Card | None
    outcome: str
    points: tuple[int, ...] | None
    written: tuple[int, ...] | None
    hanging: int
    void_reason: str | None
    notes: tuple[str, ...]
    scored: tuple[tuple[int, tuple[Combo, ...]], ...]  # (seat, combinations) by seat
    bella: int | None
    extra: dict[str, Any] = attrs.field(factory=dict, eq=False)


@attrs.frozen
class MatchOver:
    """The match ended with this deal: ``winner`` a side (None: a draw), and with a
    ``stake-N`` option the settlement, per side."""

    winner: int | None
    reason: str
    stakes: tuple[int, ...] | None = None


@attrs.frozen
class DealEnded:
    """A deal is over and written. ``record`` is its ``deberc-deal/1`` record in full;
    ``seed_told``: the match was over when the deal ended, so the players may learn the
    deal's seed (before that it would tell the decks still to come)."""

    deal: int
    outcome: str
    points: tuple[int, ...] | None
    written: tuple[int, ...] | None
    totals: tuple[int, ...]
    hanging: int
    _record: dict[str, Any] | LazyRecord = attrs.field(eq=False, repr=False, alias="record")
    seed_told: bool = False
    bides: tuple[int, ...] = ()  # each side's bides after the deal
    unveiled: Unveiled | None = attrs.field(default=None, eq=False, repr=False)
    match_over: MatchOver | None = None  # the deal ended the match

    @property
    def record(self) -> dict[str, Any]:
        """The record, built now if nobody asked for it before (record.LazyRecord)."""
        return self._record if isinstance(self._record, dict) else self._record.get()


@attrs.frozen
class DealAbandoned:
    """A forfeit ended the deal in play: it is recorded as it stood and nobody writes,
    so there is no deal end to announce, only its record."""

    deal: int
    _record: dict[str, Any] | LazyRecord = attrs.field(eq=False, repr=False, alias="record")
    totals: tuple[int, ...] = ()
    bides: tuple[int, ...] = ()
    unveiled: Unveiled | None = attrs.field(default=None, eq=False, repr=False)
    match_over: MatchOver | None = None

    @property
    def record(self) -> dict[str, Any]:
        return self._record if isinstance(self._record, dict) else self._record.get()


@attrs.frozen
class MatchEnded:
    """``winner`` is a side (None: a draw); ``winners`` its players' names;
    ``forfeit`` the seat whose leaving, clock or absence lost the match."""

    winner: int | None
    winners: tuple[str, ...]
    reason: str
    totals: tuple[int, ...]
    seed: str | None  # None: withheld (a ladder board whose other seatings still play)
    forfeit: int | None = None


DealEvent = CallMade | CardPlayed | Penalized | Ordered | Dealt | TrickTaken | Shown
"""What ``Deal.apply`` returns."""

MatchEvent = DealEvent | MatchStarted | DealStarted | DealEnded | DealAbandoned | MatchEnded
"""What ``Match.apply``, ``Match.forfeit`` and ``Match.stop`` return."""

# The order a call's consequences are told in: the calls made (the engine's own show
# after 'skin' included), then the order, the last cards, the tricks, the shown cards.
_TOLD_AFTER = {Ordered: 1, Dealt: 2, TrickTaken: 3, Shown: 4}


def in_telling_order(events: list[DealEvent]) -> list[DealEvent]:
    """``events`` as they are told: each kind in the order it happened, the kinds in a
    fixed order (a card that completes a trick and a shown combination: the trick first),
    shown cards by seat."""
    if len(events) < 2:
        return events  # one call, one event: most calls
    ranks = [_TOLD_AFTER.get(type(event), 0) for event in events]
    if all(map(operator.lt, ranks, ranks[1:])):
        return events  # the usual case (a card, then its trick): already in order

    def key(event: DealEvent) -> tuple[int, int]:
        return (_TOLD_AFTER.get(type(event), 0), event.seat if isinstance(event, Shown) else 0)

    return sorted(events, key=key)
