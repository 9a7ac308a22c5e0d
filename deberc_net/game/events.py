"""What happened at a table, as the engine says it: one small immutable class per kind.

``Deal.apply`` and ``Match.apply`` return these (as h11's ``next_event()`` hands out
``Request``, ``Data``, ``EndOfMessage``), so nothing downstream works out what happened
by comparing states. Every event is public: it holds only what all seats may know. The
server numbers them, and protocol/render.py turns each class into lines.

Each kind is a ``typing.NamedTuple``: typed, immutable, and built by one call to
``tuple.__new__`` from a short generated ``__new__``. The engine makes one per card and
per trick, and a frozen attrs class (which sets each field through
``object.__setattr__``) cost about twice as much to build (issue #9, docs/performance.md).
Equality is the attrs classes' own, not a tuple's: only events of the same class are
equal, and the fields marked below (``ms``, a record, the unveiled facts) are left out
of it and of the hash (``_compared``). Change an event with ``_replace``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from .calls import Call
from .cards import Card
from .combos import Combo

if TYPE_CHECKING:
    from .record import LazyRecord


class CallMade(NamedTuple):
    """A spoken call (anything but a card); ``auto``: the clock made it. ``ms``: when,
    in milliseconds since the deal started (not part of what happened: left out of
    equality); ``engine``: the engine made it itself (the show after 'skin')."""

    seat: int
    call: Call
    auto: bool = False
    ms: int = 0
    engine: bool = False


class CardPlayed(NamedTuple):
    seat: int
    card: Card
    auto: bool = False
    ms: int = 0  # as CallMade.ms


class Penalized(NamedTuple):
    """table-penalties: an illegal call is punished (``code`` says why), not carried out."""

    seat: int
    call: Call
    code: str
    ms: int = 0  # as CallMade.ms
    auto: bool = False


class Ordered(NamedTuple):
    """The game is ordered: ``player`` plays in ``trump`` (``first``: the turned suit).

    ``fresa`` is told only where the rules show it, and only once it is dealt."""

    player: int
    trump: int
    first: bool
    fresa: Card | None


class Dealt(NamedTuple):
    """The last cards are dealt after a pause past the order (settings.pause_after_order)."""

    fresa: Card | None


class TrickTaken(NamedTuple):
    winner: int
    cards: tuple[Card, ...]  # in the order they were played


class Shown(NamedTuple):
    """A seat's declared combination goes face up."""

    seat: int
    cards: tuple[Card, ...]


class MatchStarted(NamedTuple):
    players: tuple[str, ...]
    match: str


class DealStarted(NamedTuple):
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


class Unveiled(NamedTuple):
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
    extra: dict[str, Any]


class MatchOver(NamedTuple):
    """The match ended with this deal: ``winner`` a side (None: a draw), with a
    ``stake-N`` option the settlement, per side, and on a forfeit the seat that lost it
    (``MatchEnded.forfeit``: with three or four players the winner does not say who)."""

    winner: int | None
    reason: str
    stakes: tuple[int, ...] | None = None
    forfeit: int | None = None


class DealEnded(NamedTuple):
    """A deal is over and written. ``record`` is its ``deberc-deal/1`` record in full;
    ``seed_told``: the match was over when the deal ended, so the players may learn the
    deal's seed (before that it would tell the decks still to come)."""

    deal: int
    outcome: str
    points: tuple[int, ...] | None
    written: tuple[int, ...] | None
    totals: tuple[int, ...]
    hanging: int
    source: dict[str, Any] | LazyRecord  # the record, or what builds it (``record``)
    seed_told: bool = False
    bides: tuple[int, ...] = ()  # each side's bides after the deal
    unveiled: Unveiled | None = None
    match_over: MatchOver | None = None  # the deal ended the match
    # hanging-separate: the sums waiting for the deals after the next (``hanging`` is the
    # next deal's), in order
    pending: tuple[int, ...] = ()

    @property
    def record(self) -> dict[str, Any]:
        """The record, built now if nobody asked for it before (record.LazyRecord)."""
        source = self.source
        return source if isinstance(source, dict) else source.get()


class DealAbandoned(NamedTuple):
    """A forfeit ended the deal in play: it is recorded as it stood and nobody writes,
    so there is no deal end to announce, only its record."""

    deal: int
    source: dict[str, Any] | LazyRecord  # the record, or what builds it (``record``)
    totals: tuple[int, ...] = ()
    bides: tuple[int, ...] = ()
    unveiled: Unveiled | None = None
    match_over: MatchOver | None = None

    @property
    def record(self) -> dict[str, Any]:
        source = self.source
        return source if isinstance(source, dict) else source.get()


class MatchEnded(NamedTuple):
    """``winner`` is a side (None: a draw); ``winners`` its players' names;
    ``forfeit`` the seat whose leaving, clock or absence lost the match; ``match`` its
    id, as the server's table tells it (the human style names it: its replay's key);
    ``deals`` how many deals it dealt."""

    winner: int | None
    winners: tuple[str, ...]
    reason: str
    totals: tuple[int, ...]
    seed: str | None  # None: withheld (a ladder board whose other seatings still play)
    forfeit: int | None = None
    match: str | None = None
    # the deals played (out, or given up mid-deal: one record each); None: untold
    deals: int | None = None
    # a seat's true 'konets' ended it (manual-claim, docs/rules.md §10), not the
    # server's claim as a side reached the target: both are reason 'claim'
    claimed: bool = False
    # the whole seconds its players have to agree to a rematch, as the server's table
    # tells it (its setting rematch_ms, docs/protocol.md §5.16); None: untold
    rematch_s: int | None = None


def _compared(cls: type[tuple[Any, ...]], *left_out: str) -> None:
    """Give ``cls`` the equality and hash of an attrs class: equal only to an event of
    the same class whose fields, but ``left_out``, are equal (a tuple's own would call
    a trick and a shown combination of the same seat and cards equal)."""
    fields: tuple[str, ...] = vars(cls)["_fields"]
    key: Callable[[Any], Any] = operator.itemgetter(
        *[i for i, name in enumerate(fields) if name not in left_out]
    )

    def __eq__(self: tuple[Any, ...], other: object) -> bool:
        return other.__class__ is self.__class__ and key(self) == key(other)

    def __ne__(self: tuple[Any, ...], other: object) -> bool:
        return not __eq__(self, other)

    def __hash__(self: tuple[Any, ...]) -> int:
        return hash((cls, key(self)))

    cls.__eq__ = __eq__  # type: ignore[method-assign]
    cls.__ne__ = __ne__  # type: ignore[method-assign,assignment]
    cls.__hash__ = __hash__  # type: ignore[method-assign]


for _event, *_left_out in (
    (CallMade, "ms"),
    (CardPlayed, "ms"),
    (Penalized, "ms"),
    (Ordered,),
    (Dealt,),
    (TrickTaken,),
    (Shown,),
    (MatchStarted,),
    (DealStarted,),
    (Unveiled, "extra"),
    (MatchOver,),
    (DealEnded, "source", "unveiled"),
    (DealAbandoned, "source", "unveiled"),
    (MatchEnded,),
):
    _compared(_event, *_left_out)


DealEvent = CallMade | CardPlayed | Penalized | Ordered | Dealt | TrickTaken | Shown
"""What ``Deal.apply`` returns."""

MatchEvent = DealEvent | MatchStarted | DealStarted | DealEnded | DealAbandoned | MatchEnded
"""What ``Match.apply``, ``Match.forfeit`` and ``Match.stop`` return."""

# The order a call's consequences are told in: the calls made, each show with its
# pokazyvayu (the engine's own after 'skin' too: the cards go face up before the trick
# they complete is taken, as at a table), then the order, the last cards, the tricks.
_TOLD_AFTER = {Ordered: 1, Dealt: 2, TrickTaken: 3}


def in_telling_order(events: list[DealEvent]) -> list[DealEvent]:
    """``events`` as they are told: each kind in the order it happened, the kinds in a
    fixed order (a card that completes a trick and the show it brings: the show first)."""
    if len(events) < 2:
        return events  # one call, one event: most calls
    if len(events) == 2 and _TOLD_AFTER.get(type(events[0]), 0) < _TOLD_AFTER.get(
        type(events[1]), 0
    ):
        return events  # a call and its one consequence (the order), in order
    ranks = [_TOLD_AFTER.get(type(event), 0) for event in events]
    if all(map(operator.lt, ranks, ranks[1:])):
        return events  # the usual case (a card, then its trick): already in order

    def key(event: DealEvent) -> int:
        return _TOLD_AFTER.get(type(event), 0)

    return sorted(events, key=key)  # (stable: a show stays after its pokazyvayu)
