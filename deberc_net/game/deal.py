"""One deal: dealing, bidding and play; the table talk (talk.py) and scoring (scoring.py)
are kept apart, the record and its replay are in record.py.

``legal_calls(seat)`` is the single source of truth for what a seat may say now; ``apply``
accepts exactly those calls and explains any other with a specific ``IllegalCall``,
before touching the state. Seats are numbered in the order of play; seat ``dealer + 1``
gets cards first and leads unless a rule says otherwise.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar, NamedTuple, Self

import attrs

from . import calls as C
from . import errors as E
from . import scoring
from . import talk as T
from .calls import Call
from .cards import (
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    SEVEN,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    Card,
    make,
    suit_of,
)
from .combos import BELLA_POINTS, Combo, find_sequences, holds_bella
from .events import (
    CallMade,
    CardPlayed,
    DealEvent,
    DealStarted,
    Dealt,
    Ordered,
    Penalized,
    TrickTaken,
    in_telling_order,
)
from .outcomes import Outcome, VoidReason
from .phases import BIDDING, DONE, ORDERED, PLAY, Phase
from .play import legal_cards, trick_winner
from .refusals import why_not
from .rules import RuleSet, Settings
from .scoring import DealResult, Tally
from .talk import SWAP_Q, TALK, Declaration, Pending, Question, Talk

# the phases are re-exported: the deal is where callers look for them
__all__ = [
    "BIDDING",
    "DONE",
    "ORDERED",
    "PENALIZED",
    "PLAY",
    "SWAP_Q",
    "TALK",
    "Deal",
    "DealResult",
    "Declaration",
    "LoggedCall",
    "Pending",
    "Phase",
    "Question",
    "Tally",
    "Trick",
]

# What option table-penalties punishes instead of refusing (docs/rules.md §10).
PENALIZED = frozenset(
    {"must-follow-suit", "must-trump", "must-overtrump", "false-declaration", "forbidden-rost"}
)


@attrs.define
class Trick:
    leader: int
    cards: list[tuple[int, Card]] = attrs.Factory(list)
    winner: int | None = None


class LoggedCall(NamedTuple):
    """A call the deal accepted (or punished), in order: immutable, a NamedTuple as the
    events are (game/events.py), one per call (``Deal.log`` reads them off its events)."""

    seat: int
    call: Call
    ms: int
    auto: bool
    engine: bool = False  # made by the engine itself, not replayed
    penalty: str | None = None  # an illegal call punished under table-penalties


@attrs.define
class _Caches:
    """What a deal works out again only when what it depends on changes: the legal
    calls of the seat last asked about (until the state changes: ``Deal._changed``),
    each seat's sequences (by hand and trump), and the combination and bella points
    (the settled sequences, compared by identity: they are set once, never changed in
    place; what else they depend on; the points)."""

    # the seat whose legal calls ``listed`` holds; None (no seat, not even a wrong
    # one such as -1): none
    listed_seat: int | None = None
    listed: list[Call] = attrs.Factory(list)
    combos: dict[int, tuple[tuple[tuple[Card, ...], int | None], list[Combo]]] = attrs.Factory(dict)
    points: (
        tuple[dict[int, list[Combo]] | None, tuple[bool, int | None, int | None, int], list[int]]
        | None
    ) = None


@attrs.define(eq=False)
class Deal:
    # the calls of the table talk: its record lists each seat's under "declared"
    talk_calls: ClassVar[frozenset[str]] = TALK

    rules: RuleSet
    deal_no: int
    dealer: int
    deck: tuple[Card, ...]
    seed: str
    totals_before: tuple[int, ...]
    hanging_in: int = 0
    bides_before: tuple[int, ...] = ()
    hanging_pending: tuple[int, ...] = ()  # sums waiting for later deals (hanging-separate)

    hands: list[list[Card]] = attrs.field(init=False)
    turned: Card = attrs.field(init=False)
    original_turned: Card = attrs.field(init=False)
    talon: list[Card] = attrs.field(init=False)
    fresa: Card | None = attrs.field(init=False, default=None)
    phase: Phase = attrs.field(init=False, default=BIDDING)
    bid_round: int = attrs.field(init=False, default=1)
    turn: int = attrs.field(init=False)
    passes: int = attrs.field(init=False, default=0)
    trump: int | None = attrs.field(init=False, default=None)
    player: int | None = attrs.field(init=False, default=None)
    first_trump: bool = attrs.field(init=False, default=False)
    leader: int = attrs.field(init=False)
    trick: Trick = attrs.field(init=False)
    tricks: list[Trick] = attrs.field(init=False, factory=list)
    # the log's entries read so far off ``history`` (``log``), and how many events that is
    _logged: list[LoggedCall] = attrs.field(init=False, factory=list)
    _logged_upto: int = attrs.field(init=False, default=0)
    talk: Talk = attrs.field(init=False, factory=Talk)  # what was said: talk.py
    tally: Tally = attrs.field(init=False)  # the running score
    result: DealResult | None = attrs.field(init=False, default=None)  # set at the end
    extra: dict[str, Any] = attrs.field(init=False, factory=dict)  # room for plugins
    # what is worked out again only when the state it depends on changes (_Caches)
    _caches: _Caches = attrs.field(init=False, factory=_Caches)
    _told: list[DealEvent] = attrs.field(init=False, factory=list)  # not yet returned
    # every event told so far, in the order made: the deal's record folds them
    # (record.py); a call's consequences may be told in another order (in_telling_order)
    history: list[DealEvent] = attrs.field(init=False, factory=list)
    _sides: tuple[tuple[int, ...], ...] = attrs.field(init=False)
    _side_of: dict[int, int] = attrs.field(init=False)
    # no manual claim and no option's calls: past the first trick a seat mostly has
    # only its cards to play (_legal's short way; not for a game that lists its own calls)
    _cards_only: bool = attrs.field(init=False)

    # a subclass's own _trick_points (Tertz's values) replaces the count inline, and
    # its own _do_play replaces apply's way with a card
    _own_trick_points: ClassVar[bool] = False
    _own_do_play: ClassVar[bool] = False
    _own_compute_legal: ClassVar[bool] = False
    # a subclass's own ``pending``, ``shown`` or ``view_fields``: a view of its deal asks
    # for them (server/ask_line.py reads the engine's own straight off the talk). Kept on
    # the class, not in a table of classes: a class made per table goes with its table
    own_view: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._own_trick_points = cls._trick_points is not Deal._trick_points
        cls._own_do_play = cls._do_play is not Deal._do_play
        cls._own_compute_legal = cls._compute_legal is not Deal._compute_legal
        cls.own_view = (
            cls.pending is not Deal.pending
            or cls.shown is not Deal.shown
            or cls.view_fields is not Deal.view_fields
        )

    def __attrs_post_init__(self) -> None:
        s = self.rules.settings
        n = s.players
        if len(self.deck) != 32 or set(self.deck) != _WHOLE_DECK:  # each card once
            raise ValueError("a deck must hold each of the 32 cards once")
        self._sides, self._side_of = _sides_of(n, s.partnerships)
        self._cards_only = (
            not s.manual_claim and self.rules.extra_calls is None and not self._own_compute_legal
        )
        self.hands = [[] for _ in range(n)]
        pos = self._deal_rounds(s.deal_before, 0)
        self.turned = self.original_turned = self.deck[pos]
        self.talon = list(self.deck[pos + 1 :])
        self.turn = (self.dealer + 1) % n
        self.leader = self.turn
        self.trick = _trick_led_by(self.leader)
        self.tally = Tally([0] * len(self._sides), [0] * len(self._sides))
        if not self.bides_before:
            self.bides_before = (0,) * len(self._sides)

    # ------------------------------------------------------------------ helpers
    @property
    def players(self) -> int:
        return self.rules.settings.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self._sides

    def side_of(self, seat: int) -> int:
        return self._side_of[seat]

    @property
    def to_act(self) -> int | None:
        """The seat the deal waits for (the answerer of a pending question first)."""
        if self.phase is DONE:  # the phases are Phase's members (read every move)
            return None
        pending = self.talk.pending
        return self.turn if pending is None else pending.answerer

    # the table talk, read where callers and plugins always read it
    @property
    def pending(self) -> Pending | None:
        return self.talk.pending

    @pending.setter
    def pending(self, question: Pending | None) -> None:
        self.talk.pending = question

    @property
    def best(self) -> Declaration | None:
        return self.talk.best

    @property
    def talked(self) -> set[int]:
        return self.talk.talked

    @property
    def shown(self) -> dict[int, list[Card]]:
        return self.talk.shown

    @property
    def declared_combos(self) -> dict[int, list[Combo]]:
        return self.talk.declared_combos

    @property
    def declared_calls(self) -> dict[int, list[str]]:
        return self.talk.declared_calls

    @property
    def swapped_by(self) -> int | None:
        return self.talk.swapped_by

    @property
    def bella_owner(self) -> int | None:
        return self.talk.bella_owner

    @property
    def bella_declared(self) -> bool:
        return self.talk.bella_declared

    def _deal_rounds(self, rounds: tuple[int, ...], pos: int, dealer_short: int = 0) -> int:
        """Deal rounds from ``pos``, dealer last; the dealer's final round may be short
        (4 players: the turned card already counts as one of his cards)."""
        hands, deck = self.hands, self.deck
        # tuple(): the plan is cached by its arguments (a plugin might set a list)
        for seat, size in _round_plan(len(hands), self.dealer, tuple(rounds), dealer_short):
            hands[seat] += deck[pos : pos + size]
            pos += size
        return pos

    def order_index(self, seat: int) -> int:
        """Declaration order: 0 for the seat that plays first in the deal."""
        return (seat - self.leader) % self.players

    def combos_of(self, seat: int) -> list[Combo]:
        declared = self.talk.declared_combos
        if seat in declared:
            return declared[seat]
        hand = self.talk.window_hands.get(seat) or tuple(self.hands[seat])
        # asked at every turn of the talk: found once per hand and trump
        key = (hand, self.trump)
        cached = self._caches.combos.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        combos = find_sequences(hand, self.trump, self.rules.settings.sequence_by_strength)
        self._caches.combos[seat] = (key, combos)
        return combos

    def best_combo(self, seat: int, category: int | None = None) -> Combo | None:
        key = self.rules.combo_key
        found = None
        for combo in self.combos_of(seat):
            if category is not None and combo.category != category:
                continue
            if found is None or key(combo, self.trump) > key(found, self.trump):
                found = combo
        return found

    def beats(self, seat_a: int, combo_a: Combo, seat_b: int, combo_b: Combo) -> bool:
        """Does seat A's combination beat seat B's? Equal keys go to the earlier declared."""
        ka = self.rules.combo_key(combo_a, self.trump)
        kb = self.rules.combo_key(combo_b, self.trump)
        if ka != kb:
            return ka > kb
        return self.order_index(seat_a) < self.order_index(seat_b)

    def copy(self) -> Self:
        """A copy to play on (a search bot's): every part of the state that a call
        changes is its own, so nothing done to the copy reaches this deal; the rules,
        the deck and what is never changed in place (finished tricks, events, calls)
        are shared; ``extra`` is copied one level deep (the plugins' values there are
        replaced, not changed). A game of its own with more such state extends it
        (TertzDeal)."""
        new = copy.copy(self)
        new.hands = [list(h) for h in self.hands]
        new.talon = list(self.talon)
        trick = self.trick
        new.trick = Trick(trick.leader, list(trick.cards), trick.winner)
        new.tricks = list(self.tricks)
        new._logged = list(self._logged)
        new.talk = self.talk.copy()
        new.tally = self.tally.copy()
        new.extra = dict(self.extra)
        new.history = list(self.history)
        new._told = []
        new._caches = _Caches()
        return new

    @property
    def log(self) -> list[LoggedCall]:
        """Every call the deal accepted or punished, in order, one ``LoggedCall`` each
        (the deal's own list, never to be changed, brought up to date only when ``log``
        is read: read it again after a call). Read off ``history``, where each call
        tells exactly one ``CallMade``, ``CardPlayed`` or ``Penalized``: a move makes no
        entry of its own (issue #9), each is made once, when first read. Asked while a
        call is carried out (a plugin's hook), the log holds that call too, in a copy."""
        logged, history = self._logged, self.history
        if self._logged_upto < len(history):
            logged += filter(None, map(_as_logged, history[self._logged_upto :]))
            self._logged_upto = len(history)
        if self._told:  # a call under way: its events are told at its end
            return logged + list(filter(None, map(_as_logged, self._told)))
        return logged

    def forget_caches(self) -> None:
        """Work everything out afresh: for a caller that changed the state by hand
        (a search bot's sampled deal; ``copy`` starts its copies afresh itself)."""
        self._caches = _Caches()

    # ------------------------------------------------------------- legal calls
    def legal_calls(self, seat: int) -> list[Call]:
        """Every call ``seat`` may make now (a list of the caller's own; none for a seat
        the table does not have)."""
        if not 0 <= seat < len(self.hands):  # and none listed, for apply to take
            return []
        return list(self._legal(seat))

    def _legal(self, seat: int) -> list[Call]:
        """``legal_calls``, computed once per state and shared: never change the list.
        The state changes through ``apply`` and ``end_deal`` (and a plugin's
        ``continue_after_order``), each of which forgets it (``_changed``)."""
        caches = self._caches
        listed_seat = caches.listed_seat  # None after every call: tested by identity first
        if listed_seat is not None and seat == listed_seat:
            return caches.listed
        talk = self.talk
        # the cheap test of each rule first: this runs for every move of every deal
        if (
            self.phase is PLAY
            and self._cards_only
            and self.tricks
            and seat == self.turn
            and talk.pending is None
            # None mostly: tested by identity first (a comparison of None with an int
            # is the interpreter's slow, generic one)
            and (talk.bella_owner is None or talk.bella_owner != seat or talk.bella_declared)
        ):
            # most moves: a card past the first trick with nothing to say (the talk's
            # window and four sevens are over; no bella to say; no option's call; no
            # pokazhi, which a declaration allows only before the second trick's first
            # card: T.may_demand_show): only the cards, each card's call looked up by
            # map; here, not in _compute_legal: a frame less a move
            if self.trick.cards:
                calls = list(map(_play_call, self._legal_cards(seat)))
            elif talk.best is None or len(self.tricks) > 1:
                calls = list(map(_play_call, self.hands[seat]))  # a lead: any
            else:
                calls = self._compute_legal(seat)
        else:
            calls = self._compute_legal(seat)
        caches.listed_seat, caches.listed = seat, calls
        return calls

    def _changed(self) -> None:
        """The state changed: the legal calls listed are no longer true."""
        self._caches.listed_seat = None

    # ``legal_calls`` without the copy, for a caller in this process that only reads it
    # (self-play) and asks only for a seat the table has (it is not checked: a move's
    # cost): the deal's own list, true until the next call (the same method)
    shared_legal_calls = _legal

    def _compute_legal(self, seat: int) -> list[Call]:
        """Every call ``seat`` may make now, worked out in full (``_legal`` lists most
        moves' cards itself, a short way for a deal without a game's own calls)."""
        phase = self.phase
        talk = self.talk
        if phase == DONE:
            return []
        s = self.rules.settings
        out: list[Call] = []
        if s.four_sevens and not self.tricks and self._may_show_sevens(seat):
            out.append(_SEVENS)
        if phase == BIDDING:
            if seat == self.turn:
                out.extend(self._bidding_calls(seat))
            return self._with_extra(seat, out)
        pending = self.talk.pending
        if pending is not None:
            if seat == pending.answerer:  # the answers first, a plugin's too (an offer,
                # a dave): the clock takes the first, never a redeal by four sevens
                return self._with_extra(seat, T.answers(self, pending)) + out
            return self._with_extra(seat, out)
        if phase == ORDERED:
            return self._with_extra(seat, out)
        if talk.best is not None and T.may_demand_show(self, seat):
            out.append(_POKAZHI)
        if seat != self.turn:
            return self._with_extra(seat, out)
        if not self.tricks and seat not in self.talk.window_hands:  # talk.in_window, in short
            out.extend(T.window_talk_calls(self, seat))  # phase, pending, turn tested
        if talk.bella_owner == seat and T.may_bella(self, seat):
            out.append(_BELLA)
        if s.manual_claim and self._may_claim(seat):
            out.append(_KONETS)
        # each card's call looked up by map (no comprehension's frame: every move)
        cards = self._legal_cards(seat) if self.trick.cards else self.hands[seat]  # a lead: any
        out += map(_play_call, cards)
        extra = self.rules.extra_calls
        if extra is not None:
            out += extra(self, seat)
        return out

    def _legal_cards(self, seat: int) -> list[Card]:
        """play.legal_cards, inline (one pass over the hand, no comprehension's frame:
        every card that follows a lead); the partner's exemption through it."""
        cards, trump, hand = self.trick.cards, self.trump, self.hands[seat]
        if not cards:
            return list(hand)  # a lead: any card
        if (  # in play the trump is known
            self.rules.settings.partner_exemption
            and trump is not None
            and self._side_of[trick_winner(cards, trump)] == self._side_of[seat]
        ):
            return legal_cards(hand, cards, trump, True)
        led = cards[0][1] >> 3
        follow: list[Card] = []
        for card in hand:  # one test a card: mostly the led suit is all that is asked
            if card >> 3 == led:
                follow.append(card)
        if follow:
            if led != trump:
                return follow
            trumps = follow
        else:
            trumps = []
            for card in hand:
                if card >> 3 == trump:
                    trumps.append(card)
            if not trumps:
                return list(hand)
        top = -1  # the highest trump on the table: it must be beaten if it can be
        for _, card in cards:
            if card >> 3 == trump and TRUMP_STRENGTH[card & 7] > top:
                top = TRUMP_STRENGTH[card & 7]
        over = []
        for card in trumps:
            if TRUMP_STRENGTH[card & 7] > top:
                over.append(card)
        return over or trumps

    def _may_claim(self, seat: int) -> bool:
        """Manual claims: after a trick the seat took (not the last), before the next card."""
        s = self.rules.settings
        return (
            s.manual_claim
            and s.target is not None
            and bool(self.tricks)
            and not self.trick.cards
            and self.tricks[-1].winner == seat
        )

    def _with_extra(self, seat: int, out: list[Call]) -> list[Call]:
        if self.rules.extra_calls is not None:
            out.extend(self.rules.extra_calls(self, seat))
        return out

    def _may_show_sevens(self, seat: int) -> bool:
        if not self.rules.settings.four_sevens or self.tricks or self.trick.cards:
            return False
        hand = self.hands[seat]
        spades, hearts, diamonds, clubs = _ALL_SEVENS  # no set of the hand: most lack one
        return spades in hand and hearts in hand and diamonds in hand and clubs in hand

    def _bidding_calls(self, seat: int) -> list[Call]:
        if self.bid_round == 1:
            return [_PAS, _IGRAYU]
        turned_suit = suit_of(self.original_turned)
        names = [_IGRAYU_IN[s] for s in range(4) if s != turned_suit]
        if self.rules.settings.commitment and seat == self.dealer:
            return names
        return [_PAS, *names]

    def took_trick(self, seat: int) -> bool:
        return any(t.winner == seat for t in self.tricks)

    # ------------------------------------------------------------------- apply
    def apply(self, seat: int, call: Call, *, ms: int = 0, auto: bool = False) -> list[DealEvent]:
        """Make ``call`` for ``seat`` and say what happened, or raise ``IllegalCall`` with
        nothing changed."""
        # _legal's cache, read inline: the driver mostly asked for this very list
        caches = self._caches
        if seat == caches.listed_seat:
            legal = caches.listed
        else:
            if not 0 <= seat < len(self.hands):  # a hand per seat
                raise E.NotAllowed(f"there is no seat {seat}")
            legal = self._legal(seat)
        # a player mostly hands back one of the listed calls themselves: found by
        # identity before any (slower, attrs-made) comparison of fields
        for listed in legal:
            if listed is call:
                break
        else:
            if call not in legal:
                return self._refused(seat, call, ms, auto)
        caches.listed_seat = None  # _changed, inline: the call changes the state
        card = call.card
        if card is not None and call.name == _PLAY:  # most calls: a card, carried out here
            played = _card_played((seat, card, auto, ms))
            if self._own_do_play:  # a game of its own plays a card its own way
                self._told.append(played)
                self._do_play(seat, call)
                return self._take_told()
            hand = self.hands[seat]
            talk = self.talk
            first_card = not self.tricks and seat not in talk.window_hands
            if first_card:  # the seat's window for the talk closes with its first card
                talk.window_hands[seat] = tuple(hand)
            hand.remove(card)
            cards = self.trick.cards
            cards.append(_SEAT_CARD[seat][card])  # (seat, card), made once
            if talk.skin_owed or (first_card and talk.best is not None):
                self._told.append(played)  # a declaration may go face up
                self._after_card(seat, first_card)
                return self._take_told()
            n = len(self.hands)  # the players
            if len(cards) < n:  # the trick goes on: one event
                self.turn = (seat + 1) % n
                self.history.append(played)
                return [played]
            told = self._told
            told.append(played)
            self._finish_trick()
            # _take_told, inline: the card and its trick are in telling order
            caches.listed_seat = None  # a scoring hook may have asked on the way
            self._told = []
            self.history += told
            if len(told) == 2 and type(told[1]) is TrickTaken:
                return told
            return in_telling_order(told)
        if card is not None:
            self._told.append(CardPlayed(seat, card, auto, ms))
        else:
            self._told.append(_call_made((seat, call, auto, ms, False)))
        if call.name in TALK:
            self.talk.declared_calls.setdefault(seat, []).append(call.token())
        handler = _HANDLERS.get(call.name)
        if handler is not None:
            handler(self, seat, call)
        elif self.rules.apply_extra_call is None or not self.rules.apply_extra_call(
            self, seat, call
        ):
            raise AssertionError(
                f"no rule carries out the legal call {call.token()}: the plugin listing it "
                "(deberc_extra_calls) must return True from deberc_apply_extra_call once "
                "it has carried it out"
            )
        return self._take_told()

    def _refused(self, seat: int, call: Call, ms: int, auto: bool) -> list[DealEvent]:
        """A call not listed: raise why, or punish it (table-penalties)."""
        if not 0 <= seat < len(self.hands):  # a hand per seat
            raise E.NotAllowed(f"there is no seat {seat}")
        error = self.why_not(seat, call)
        if not self._punishable(seat, call, error):
            raise error
        self._changed()
        self._tell(Penalized(seat, call, error.code, ms, auto))
        self._punish(seat, call, error)
        return self._take_told()

    def _tell(self, event: DealEvent) -> None:
        self._told.append(event)

    def _take_told(self) -> list[DealEvent]:
        self._changed()  # a plugin's hook may have asked for legal calls on the way
        told, self._told = self._told, []
        self.history += told
        if len(told) < 2 or (
            len(told) == 2 and type(told[0]) is CardPlayed and type(told[1]) is TrickTaken
        ):
            return told  # one call, or a card and its trick: already in telling order
        return in_telling_order(told)

    def _visible_fresa(self) -> Card | None:
        return self.fresa if self.rules.settings.fresa_visible else None

    def _do_chetyre_semerki(self, seat: int, call: Call) -> None:
        self._end_void(VoidReason.SEVENS)

    def _do_pas(self, seat: int, call: Call) -> None:
        n = self.players
        self.passes += 1
        if self.passes < n:
            self.turn = (self.turn + 1) % n
        elif self.bid_round == 1:
            self.bid_round, self.passes = 2, 0
            self.turn = (self.dealer + 1) % n
        else:
            self._end_void(VoidReason.ALL_PASSED)

    def _do_igrayu(self, seat: int, call: Call) -> None:
        self.player = seat
        self.first_trump = call.suit is None
        self.trump = suit_of(self.original_turned) if call.suit is None else call.suit
        s = self.rules.settings
        if (
            s.swap_before_extra
            and s.seven_swap
            and self.first_trump
            and (self.original_turned != make(SEVEN, self.trump))
        ):
            # every seat is asked in turn, holder of the seven or not, so that the
            # question itself tells nobody where the seven is
            self.phase = ORDERED
            order = [(self.dealer + i) % self.players for i in range(1, self.players + 1)]
            self.talk.pending = Pending(SWAP_Q, seat, order[0], tuple(order[1:]))
            self._tell(Ordered(seat, self.trump, self.first_trump, None))  # nothing dealt
            return
        if s.pause_after_order:
            self.phase = ORDERED
            self._tell(Ordered(seat, self.trump, self.first_trump, None))  # nothing dealt
            self._event("ordered")
            return
        self._deal_rest()
        self._told.append(_ordered((seat, self.trump, self.first_trump, self._visible_fresa())))

    def continue_after_order(self) -> None:
        """A plugin done with the moment after the order: deal the last cards, play."""
        if self.phase == ORDERED:
            self._deal_rest()
            self._changed()

    def _event(self, name: str) -> None:
        if self.rules.deal_event is not None:
            self.rules.deal_event(self, name)

    def _deal_rest(self) -> None:
        s = self.rules.settings
        assert self.player is not None
        paused = self.phase == ORDERED  # the order came in an earlier call
        seat = self.player
        pos = 32 - len(self.talon)
        short = 0
        if s.turned_to_dealer:
            self.hands[self.dealer].append(self.turned)
            short = 1
        pos = self._deal_rounds(s.deal_after, pos, short)
        self.talon = list(self.deck[pos:])
        if s.fresa and self.talon:
            self.fresa = self.talon[-1]
        self.phase = PLAY
        self.leader = seat if s.player_leads else (self.dealer + 1) % self.players
        self.turn = self.leader
        self.trick = _trick_led_by(self.leader)
        self._find_bella_owner()
        if paused:
            self._tell(Dealt(self._visible_fresa()))
        self._event("play")

    def _find_bella_owner(self) -> None:
        owner = None
        for seat, hand in enumerate(self.hands):  # a loop, not next() of a generator
            if holds_bella(hand, self.trump):
                owner = seat
                break
        self.talk.bella_owner = owner

    def _do_menyayu(self, seat: int, call: Call) -> None:
        assert self.trump is not None
        seven = make(SEVEN, self.trump)
        hand = self.hands[seat]
        hand.remove(seven)
        hand.append(self.turned)
        self.turned = seven
        self.talk.swapped_by = seat
        if holds_bella(hand, self.trump):  # the turned K or Q completes his pair; nobody
            self.talk.bella_owner = seat  # else's pair changes (one may be half played already)
        self._event("swap")
        if self.phase == ORDERED:  # swap-before-extra: the seven is gone, deal on
            self.talk.pending = None
            self._deal_rest()

    def _do_ne_menyayu(self, seat: int, call: Call) -> None:
        pending = self.talk.pending
        assert pending is not None
        if pending.queue:
            self.talk.pending = Pending(SWAP_Q, pending.asker, pending.queue[0], pending.queue[1:])
            return
        self.talk.pending = None
        self._deal_rest()

    def _do_pokazyvayu(self, seat: int, call: Call) -> None:
        self.talk.pending = None
        self._show(seat)

    def _show(self, seat: int) -> None:
        shown = T.show(self, seat)
        if shown is not None:
            self._tell(shown)

    def _do_konets(self, seat: int, call: Call) -> None:
        side = self.side_of(seat)
        target = self.rules.settings.target
        assert target is not None
        if self.running_total(side) >= target:
            self._end_claim(side)
            return
        points = self.deal_points()
        # the best other total wins; of equal ones, the side that plays earlier in the
        # deal (as the odd point of a bide goes, docs/rules.md §10)
        others = [s for s in scoring.lead_order(self) if s != side]
        winner = max(others, key=lambda s: self.totals_before[s] + points[s])
        self.end_deal(
            Outcome.FALSE_CLAIM, points, points, winner=winner, reason=Outcome.FALSE_CLAIM
        )

    # -------------------------------------------------------------- penalties
    def _punishable(self, seat: int, call: Call, error: E.IllegalCall) -> bool:
        if not self.rules.settings.table_penalties or self.phase != PLAY:
            return False
        if error.code in PENALIZED:
            return True
        # a seven swap that was not allowed, by the holder of the trump 7 on his turn
        return (
            call.name == C.MENYAYU
            and self.talk.pending is None
            and seat == self.turn
            and self.trump is not None
            and make(SEVEN, self.trump) in self.hands[seat]
        )

    def _punish(self, seat: int, call: Call, error: E.IllegalCall) -> None:
        """docs/rules.md §10, table-penalties: a longer combination asked about is lost;
        anything else is a bide on cards."""
        best = self.talk.best
        if call.name == C.ROST and best is not None:
            mine = self.best_combo(seat)
            if mine is not None and mine.category > best.category:
                self.talk.talked.add(seat)
                self.talk.lost_combos.add(seat)
                return
        scoring.bide_on_cards(self, seat, error.code)

    def _do_play(self, seat: int, call: Call) -> None:
        """A card (``apply`` carries most cards out itself, the same way; a subclass's
        own plays every card: a hook of docs/plugins.md)."""
        card = call.card
        assert card is not None
        hand = self.hands[seat]
        first_card = not self.tricks and seat not in self.talk.window_hands
        if first_card:
            self.talk.window_hands[seat] = tuple(hand)
        hand.remove(card)
        self.trick.cards.append((seat, card))
        self._after_card(seat, first_card)

    def _after_card(self, seat: int, first_card: bool) -> None:
        """What follows a card on the table: a show owed after 'skin' or with the first
        card (show-combination), then the next seat or the trick's end."""
        talk = self.talk
        declarer = talk.skin_owed.pop(seat, None) if talk.skin_owed else None
        if declarer is not None:
            self._engine_shows(declarer)
        best = talk.best
        if (
            first_card
            and best is not None
            and self.rules.settings.show_combination
            and best.seat == seat
            and seat not in talk.shown
        ):  # show-combination: the best declaration goes face up with its first card
            self._engine_shows(seat)
        n = len(self.hands)  # the players
        if len(self.trick.cards) < n:
            self.turn = (seat + 1) % n
            return
        self._finish_trick()

    def _engine_shows(self, seat: int) -> None:
        """``seat`` shows its declaration, the engine making its ``pokazyvayu`` (logged
        and told at the last call's time), the cards told after it."""
        # engine-made, not a clock's automatic call: "auto" is rendered as "(by the clock)"
        show, ms = _POKAZYVAYU, self.log[-1].ms
        self._tell(CallMade(seat, show, False, ms, engine=True))
        self._show(seat)

    def _take_trick(self) -> tuple[int, int]:
        """The full trick goes to its winner: told, counted, its card points written to
        the winner's side; (winner, side). A game of its own (Tertz) shares this and
        decides what follows."""
        trump = self.trump
        assert trump is not None
        trick = self.trick
        played = trick.cards
        # play.trick_winner, the cards and their points, in one pass: each card's
        # strength in this trick read from a table by trump and led suit (-1: neither)
        points = _POINTS_IN_TRUMP[trump]
        if len(played) == 2:  # two players: the second card wins only by a higher key
            (first, a), (second, b) = played
            keys = _TRICK_KEYS[trump][a >> 3]
            winner = second if keys[b] > keys[a] else first
            taken: tuple[Card, ...] = (a, b)
            total = points[a] + points[b]
        else:
            keys = _TRICK_KEYS[trump][played[0][1] >> 3]
            winner, best, total = -1, -1, 0
            cards = []
            for seat, card in played:
                cards.append(card)
                total += points[card]
                if keys[card] > best:
                    winner, best = seat, keys[card]
            taken = tuple(cards)
        trick.winner = winner
        side = self._side_of[winner]
        self.tricks.append(trick)
        self._told.append(_trick_taken((winner, taken)))
        if self._own_trick_points:
            total = self._trick_points(taken, trump)  # a game of its own (Tertz)
        tally = self.tally
        tally.tricks_taken[side] += 1
        tally.card_points[side] += total
        return winner, side

    def _trick_points(self, cards: tuple[Card, ...], trump: int) -> int:
        """A trick's card points (``_take_trick`` counts the engine's own inline: a
        subclass that counts its own overrides this, see ``__init_subclass__``)."""
        points, total = _POINTS_IN_TRUMP[trump], 0
        for card in cards:  # a loop, not sum() of a list: a trick holds a few cards
            total += points[card]
        return total

    def _finish_trick(self) -> None:
        winner, side = self._take_trick()
        if len(self.tricks) == 1:
            scoring.settle_combinations(self)
        if not self.hands[winner]:
            scoring.score_played(self)
            return
        self.turn = winner
        # _trick_led_by(winner), inline: after every trick
        trick = self.trick = _new_object(Trick)
        trick.leader, trick.cards, trick.winner = winner, [], None
        s = self.rules.settings
        target = s.target
        if not s.auto_claim or target is None:
            return
        # running_total, inline: this runs after every trick. While no sequence scores
        # (most deals) the side's combination and bella points are at most a bella's,
        # so the count of them is needed only when that much would reach the target
        tally = self.tally
        so_far = self.totals_before[side] + tally.card_points[side]
        if not tally.scoring_combos and so_far + BELLA_POINTS < target:
            return
        if so_far + self._extra_points()[side] >= target:
            self._end_claim(side)

    # ----------------------------------------------------------------- points
    def counted_combos(self) -> dict[int, list[Combo]]:
        """The sequences that count now, by seat: the record lists exactly these."""
        return scoring.counted_combos(self)

    def combo_points(self) -> list[int]:
        return scoring.combo_points(self)

    def bella_points(self) -> list[int]:
        return scoring.bella_points(self)

    def deal_points(self) -> list[int]:
        """Each side's points so far: combinations, bella, cards (and the last trick)."""
        return scoring.deal_points(self)

    def running_total(self, side: int) -> int:
        """The side's total with this deal's points so far (the claim check, after
        every trick): its card points plus the combination and bella points, which
        change only with what ``_extra_points`` watches, so they are counted once."""
        return self.totals_before[side] + self._extra_points()[side] + self.tally.card_points[side]

    def points_in_play(self) -> int:
        """The card points not yet taken in a trick, and the last trick's bonus: the
        most the deal's tricks still to come can bring a side (the game's own card
        values; what the tricks seen leave of the deck, hidden cards not looked at)."""
        trump = self.trump
        assert trump is not None
        deck = self._trick_points(tuple(_WHOLE_DECK), trump)
        return deck - sum(self.tally.card_points) + self.rules.settings.last_trick_bonus

    def _extra_points(self) -> list[int]:
        """Each side's combination and bella points so far (scoring.py counts them)."""
        tally = self.tally
        scoring_combos = tally.scoring_combos
        talk = self.talk
        watched = (
            talk.bella_declared,
            talk.bella_owner,
            tally.offender_side,
            # combos-need-trick: a seat's first trick makes its sequences count
            len(self.tricks) if self.rules.settings.combos_need_trick else 0,
        )
        cached = self._caches.points
        if cached is not None and cached[0] is scoring_combos and cached[1] == watched:
            return cached[2]
        combos, bella = scoring.combo_points(self), scoring.bella_points(self)
        extra = [c + b for c, b in zip(combos, bella, strict=True)]
        self._caches.points = (scoring_combos, watched, extra)
        return extra

    # ------------------------------------------------------------------ ending
    def _end_void(self, reason: VoidReason) -> None:
        zero = [0] * len(self._sides)
        self.end_deal(Outcome.VOID, zero, zero)
        assert self.result is not None  # end_deal set it
        self.result = attrs.evolve(self.result, void_reason=reason)
        score = self.result.score
        # nothing said in a void deal scores: not a bella said before the four sevens
        score.combo_points = list(zero)
        score.bella_points = list(zero)

    def _end_claim(self, side: int) -> None:
        """A claim during the deal ends the match: each side writes what it has so far."""
        points = self.deal_points()
        self.end_deal(Outcome.CLAIM, points, points, winner=side, reason=Outcome.CLAIM)

    def end_deal(
        self,
        outcome: str,
        points: list[int],
        written: list[int],
        *,
        winner: int | None = None,
        reason: str = "",
        played: bool = False,
    ) -> None:
        """End the deal now (a claim, a penalty, a plugin's rule); ``winner`` (a side)
        also ends the match. ``played``: a deal that counts as played, not void (an
        accepted poltinniki offer): points hanging into it go to the side that writes
        more (docs/rules.md §5)."""
        self.phase = DONE
        self._changed()
        self.talk.pending = None
        score = scoring.deal_score(self, list(points))
        score.written = list(written)
        score.outcome = outcome
        if played:
            scoring.hanging_to_who_writes_more(score)
        match_end = None if winner is None else (winner, reason or outcome)
        self.result = DealResult(score, match_end=match_end)

    # ----------------------------------------------- what a whole new game adds
    def why_not(self, seat: int, call: Call) -> E.IllegalCall:
        """The most specific reason ``call`` is not legal for ``seat`` now."""
        return why_not(self, seat, call)

    def record_extra(self) -> dict[str, Any]:
        """Keys a game of its own (a ``deberc_deal_class``) adds to its deal records."""
        return {}

    def view_fields(self, seat: int | None) -> tuple[tuple[str, Any], ...]:
        """What such a game adds to ``seat``'s view (None: an observer's), as
        ``(name, value)``, a value a number, a word, None or a tuple of cards; it must
        say only what that seat may see."""
        return ()

    def declares(self, seat: int) -> tuple[str, tuple[str, ...]] | None:
        """When the seat's declaration open now (or its ``rost?``) declares more than
        its name says: that call, and each class it declares as its own call, the
        highest first; else None. A person's prompt says it (a game of its own may)."""
        return None

    def started(self) -> DealStarted:
        """The deal's start, as told: the standing it comes in with. A trump nobody
        orders (``player`` None: Tertz turns its trump) is known from the start."""
        return _deal_started(  # every field, in order (as the card events are built)
            (
                self.deal_no,
                self.dealer,
                self.original_turned,
                self.totals_before,
                self.hanging_in,
                self.bides_before,
                self.hanging_pending,
                self.trump if self.player is None else None,
            )
        )

    def record(self) -> dict[str, Any]:
        """The deal as a ``deberc-deal/1`` record (without table/match/players), folded
        from its events: record.deal_record, next to the replay that reads it back."""
        from .record import deal_record  # record.py builds deals to replay: imports us

        return deal_record(self)


# The engine's calls without arguments: calls are immutable, one of each serves every deal
_SEVENS, _POKAZHI, _POKAZYVAYU, _BELLA, _KONETS, _PAS, _IGRAYU = (
    Call(name) for name in (C.SEVENS, C.POKAZHI, C.POKAZYVAYU, C.BELLA, C.KONETS, C.PAS, C.IGRAYU)
)
_PLAY_CALLS = C.PLAY_CALLS  # by card
# a card's call, looked up by a dict's own ``__getitem__``: called by map for every
# card listed, where a tuple's is a slot wrapper (a generic call from C, several times
# dearer)
_play_call: Callable[[Card], Call] = dict(enumerate(_PLAY_CALLS)).__getitem__


def _as_logged(event: DealEvent) -> LoggedCall | None:
    """The log entry of a call's event (``Deal.log``); None: not a call's. A card's
    call is the play of that card (the only call that carries a card, and what the
    record has always read a ``CardPlayed`` as)."""
    if isinstance(event, CardPlayed):
        return LoggedCall(event.seat, _PLAY_CALLS[event.card], event.ms, event.auto)
    if isinstance(event, CallMade):
        return LoggedCall(event.seat, event.call, event.ms, event.auto, event.engine)
    if isinstance(event, Penalized):
        return LoggedCall(event.seat, event.call, event.ms, event.auto, penalty=event.code)
    return None


# The events made every card, trick and spoken call, the order and the deal's start,
# built straight from their fields' tuple (all of them, in order) without the Python
# ``__new__`` of a NamedTuple's call: a class's call from C into a Python function
_card_played: Callable[[tuple[int, Card, bool, int]], CardPlayed] = partial(
    tuple.__new__, CardPlayed
)
_trick_taken: Callable[[tuple[int, tuple[Card, ...]]], TrickTaken] = partial(
    tuple.__new__, TrickTaken
)
_call_made: Callable[[tuple[int, Call, bool, int, bool]], CallMade] = partial(
    tuple.__new__, CallMade
)
_ordered: Callable[[tuple[int, int, bool, Card | None]], Ordered] = partial(tuple.__new__, Ordered)
_deal_started: Callable[[tuple[Any, ...]], DealStarted] = partial(tuple.__new__, DealStarted)
_PLAY = C.PLAY
_new_object = object.__new__


def _trick_led_by(leader: int) -> Trick:
    """``Trick(leader)`` for each trick of a deal, without the class's call from C into
    its attrs-made ``__init__`` (the slots set as that ``__init__`` sets them)."""
    trick: Trick = _new_object(Trick)
    trick.leader, trick.cards, trick.winner = leader, [], None
    return trick


# every (seat, card) pair a trick holds, made once (tuples: shared, never changed); for
# seats 0-7, more than a deck of 32 cards can deal hands to
_SEAT_CARD = tuple(tuple((seat, card) for card in range(32)) for seat in range(8))

_IGRAYU_IN = tuple(Call(C.IGRAYU, suit=suit) for suit in range(4))  # by suit


_WHOLE_DECK = frozenset(range(32))

# A card's strength in a trick, by trump and led suit (play.trick_winner's order): a
# trump above all, then the led suit, any other card -1 (it never wins)
_TRICK_KEYS = tuple(
    tuple(
        tuple(
            100 + TRUMP_STRENGTH[c & 7]
            if c >> 3 == trump
            else PLAIN_STRENGTH[c & 7]
            if c >> 3 == led
            else -1
            for c in range(32)
        )
        for led in range(4)
    )
    for trump in range(4)
)


@functools.cache
def _sides_of(
    players: int, partnerships: bool
) -> tuple[tuple[tuple[int, ...], ...], dict[int, int]]:
    """The sides (Settings.sides) and each seat's side, worked out once per kind of table:
    every deal reads them; the dict is shared, so never changed."""
    sides = Settings(players=players, partnerships=partnerships).sides()
    return sides, {seat: i for i, side in enumerate(sides) for seat in side}


@functools.cache
def _round_plan(
    players: int, dealer: int, rounds: tuple[int, ...], dealer_short: int
) -> tuple[tuple[int, int], ...]:
    """Who gets how many cards, in order, dealing ``rounds`` (Deal._deal_rounds): the
    same for every deal of a kind of table and dealer, so worked out once."""
    plan = []
    last = len(rounds) - 1
    for r, size in enumerate(rounds):
        for i in range(1, players + 1):
            seat = (dealer + i) % players
            short = dealer_short if seat == dealer and r == last else 0
            plan.append((seat, size - short))
    return tuple(plan)


_ALL_SEVENS = tuple(make(SEVEN, suit) for suit in range(4))

# Each card's points by the trump suit (immutable): a trick is counted by lookups
_POINTS_IN_TRUMP = tuple(
    tuple(TRUMP_POINTS[c & 7] if c >> 3 == trump else PLAIN_POINTS[c & 7] for c in range(32))
    for trump in range(4)
)

# What carries out each of the engine's own calls (a plugin's calls go to its hook).
_HANDLERS: dict[str, Callable[[Deal, int, Call], None]] = {
    C.SEVENS: Deal._do_chetyre_semerki,
    C.PAS: Deal._do_pas,
    C.IGRAYU: Deal._do_igrayu,
    C.MENYAYU: Deal._do_menyayu,
    C.NE_MENYAYU: Deal._do_ne_menyayu,
    C.PROKHODIT_Q: T.do_prokhodit_q,
    C.PROKHODIT: T.do_prokhodit,
    C.NE_PROKHODIT: T.do_prokhodit,
    C.TERTS: T.do_declare,
    C.PYATDESYAT: T.do_declare,
    C.ROST: T.do_rost_q,
    C.OT: T.do_ot,
    C.PISHET: T.do_pishet,
    C.POKAZHI: T.do_pokazhi,
    C.POKAZYVAYU: Deal._do_pokazyvayu,
    C.SKIN: T.do_skin,
    C.BELLA: T.do_bella,
    C.KONETS: Deal._do_konets,
    C.PLAY: Deal._do_play,
}
