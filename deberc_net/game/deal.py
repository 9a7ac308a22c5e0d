"""One deal: dealing, bidding, the table talk of declarations, play and scoring.

``legal_calls(seat)`` is the single source of truth for what a seat may say now; ``apply``
accepts exactly those calls and explains any other with a specific ``IllegalCall``,
before touching the state. Seats are numbered in the order of play; seat ``dealer + 1``
gets cards first and leads unless a rule says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from . import calls as C
from . import errors as E
from .calls import Call
from .cards import SEVEN, Card, card_points, card_str, make, suit_of
from .combos import (
    BELLA_POINTS,
    CATEGORY_NAMES,
    Combo,
    bella_cards,
    find_sequences,
    holds_bella,
)
from .events import (
    CallMade,
    CardPlayed,
    DealEvent,
    Dealt,
    Ordered,
    Penalized,
    Shown,
    TrickTaken,
    in_telling_order,
)
from .phases import BIDDING, DONE, ORDERED, PLAY, Phase
from .play import legal_cards, trick_winner
from .refusals import why_not
from .rules import DealScore, RuleSet

# the phases are re-exported: the deal is where callers look for them
__all__ = ["BIDDING", "DONE", "ORDERED", "PENALIZED", "PLAY", "TALK", "Deal", "Declaration",
           "LoggedCall", "Pending", "Phase", "Trick"]

# What option table-penalties punishes instead of refusing (docs/rules.md §10, table-penalties).
PENALIZED = frozenset({"must-follow-suit", "must-trump", "must-overtrump",
                       "false-declaration", "forbidden-rost"})
TALK = frozenset({C.TERTS, C.PYATDESYAT, C.ROST, C.OT, C.PISHET})
SWAP_Q = "swap?"  # swap-before-extra: the seats are asked in turn after the order


@attrs.define
class Trick:
    leader: int
    cards: list[tuple[int, Card]] = attrs.Factory(list)
    winner: int | None = None


@attrs.define
class Declaration:
    """The best declaration on the table so far: who, which category, its best combo."""

    seat: int
    category: int
    combo: Combo
    top_told: bool = False  # the top card was spoken (rost? answered)


@attrs.define
class Pending:
    """A question that a given seat must answer before play goes on."""

    kind: str  # "rost", "rost-reply", "show", "prokhodit", or a plugin's own
    asker: int
    answerer: int
    queue: tuple[int, ...] = ()  # who answers after this one (prokhodit? with 3 players)


@attrs.define
class LoggedCall:
    seat: int
    call: Call
    ms: int
    auto: bool
    engine: bool = False  # made by the engine itself, not replayed
    penalty: str | None = None  # an illegal call punished under table-penalties


@attrs.define(eq=False)
class Deal:
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
    log: list[LoggedCall] = attrs.field(init=False, factory=list)
    # table talk
    swapped_by: int | None = attrs.field(init=False, default=None)
    talked: set[int] = attrs.field(init=False, factory=set)
    asked_pass: set[int] = attrs.field(init=False, factory=set)
    asked_show: set[int] = attrs.field(init=False, factory=set)
    best: Declaration | None = attrs.field(init=False, default=None)
    declared_combos: dict[int, list[Combo]] = attrs.field(init=False, factory=dict)
    declared_calls: dict[int, list[str]] = attrs.field(init=False, factory=dict)
    pending: Pending | None = attrs.field(init=False, default=None)
    skin_owed: dict[int, int] = attrs.field(init=False, factory=dict)  # demander -> declarer
    shown: dict[int, list[Card]] = attrs.field(init=False, factory=dict)
    window_hands: dict[int, tuple[Card, ...]] = attrs.field(init=False, factory=dict)
    scoring_combos: dict[int, list[Combo]] | None = attrs.field(init=False, default=None)
    lost_combos: set[int] = attrs.field(init=False, factory=set)  # table-penalties
    offender_side: int | None = attrs.field(init=False, default=None)  # a bide on cards
    bella_owner: int | None = attrs.field(init=False, default=None)
    bella_declared: bool = attrs.field(init=False, default=False)
    # results
    card_points: list[int] = attrs.field(init=False)
    tricks_taken: list[int] = attrs.field(init=False)
    outcome: str = attrs.field(init=False, default="")
    void_reason: str | None = attrs.field(init=False, default=None)
    match_end: tuple[int, str] | None = attrs.field(init=False, default=None)  # side, why
    score: DealScore | None = attrs.field(init=False, default=None)
    extra: dict[str, Any] = attrs.field(init=False, factory=dict)  # room for plugins
    _legal_cache: dict[int, tuple[tuple[int, str], list[Call]]] = attrs.field(
        init=False, factory=dict)
    _told: list[DealEvent] = attrs.field(init=False, factory=list)  # not yet returned
    _sides: tuple[tuple[int, ...], ...] = attrs.field(init=False)
    _side_of: dict[int, int] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        s = self.rules.settings
        n = s.players
        if sorted(self.deck) != list(range(32)):
            raise ValueError("a deck must hold each of the 32 cards once")
        self._sides = s.sides()
        self._side_of = {seat: i for i, side in enumerate(self._sides) for seat in side}
        self.hands = [[] for _ in range(n)]
        pos = self._deal_rounds(s.deal_before, 0)
        self.turned = self.original_turned = self.deck[pos]
        self.talon = list(self.deck[pos + 1 :])
        self.turn = (self.dealer + 1) % n
        self.leader = self.turn
        self.trick = Trick(self.leader)
        self.card_points = [0] * len(self._sides)
        self.tricks_taken = [0] * len(self._sides)
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
        if self.phase == DONE:
            return None
        if self.pending is not None:
            return self.pending.answerer
        return self.turn

    def _deal_rounds(self, rounds: tuple[int, ...], pos: int, dealer_short: int = 0) -> int:
        """Deal rounds from ``pos``, dealer last; the dealer's final round may be short
        (4 players: the turned card already counts as one of his cards)."""
        n = self.players
        for r, size in enumerate(rounds):
            for i in range(1, n + 1):
                seat = (self.dealer + i) % n
                if seat == self.dealer and r == len(rounds) - 1:
                    size -= dealer_short
                self.hands[seat].extend(self.deck[pos : pos + size])
                pos += size
        return pos

    def order_index(self, seat: int) -> int:
        """Declaration order: 0 for the seat that plays first in the deal."""
        return (seat - self.leader) % self.players

    def combos_of(self, seat: int) -> list[Combo]:
        if seat in self.declared_combos:
            return self.declared_combos[seat]
        hand = self.window_hands.get(seat) or tuple(self.hands[seat])
        return find_sequences(hand, self.trump, self.rules.settings.sequence_by_strength)

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

    def _in_window(self, seat: int) -> bool:
        """Before the seat's first card, on its turn, nothing pending: time to talk."""
        return (
            self.phase == PLAY
            and self.pending is None
            and not self.tricks
            and self.turn == seat
            and seat not in self.window_hands
        )  # a seat told 'skin' may still talk: only its card comes before the show

    def _may_swap(self, seat: int) -> bool:
        return (
            self.rules.settings.seven_swap
            and not self.rules.settings.swap_before_extra  # that swap is over by now
            and self.first_trump
            and self.swapped_by is None
            and seat not in self.talked
            and self._in_window(seat)
            and self.trump is not None
            and make(SEVEN, self.trump) in self.hands[seat]
        )

    # ------------------------------------------------------------- legal calls
    def legal_calls(self, seat: int) -> list[Call]:
        """Every call ``seat`` may make now. Computed once per state: the state changes
        only through ``apply``, and every accepted call lengthens the log."""
        key = (len(self.log), self.phase)
        cached = self._legal_cache.get(seat)
        if cached is not None and cached[0] == key:
            return list(cached[1])
        calls = self._compute_legal(seat)
        self._legal_cache[seat] = (key, calls)
        return list(calls)

    def _compute_legal(self, seat: int) -> list[Call]:
        if self.phase == DONE:
            return []
        out: list[Call] = []
        if self._may_show_sevens(seat):
            out.append(Call(C.SEVENS))
        if self.phase == BIDDING:
            if seat == self.turn:
                out.extend(self._bidding_calls(seat))
            return self._with_extra(seat, out)
        pending = self.pending
        if pending is not None:
            if seat == pending.answerer:  # the answers first, a plugin's too (an offer,
                # a dave): the clock takes the first, never a redeal by four sevens
                return self._with_extra(seat, self._answers(pending)) + out
            return self._with_extra(seat, out)
        if self.phase == ORDERED:
            return self._with_extra(seat, out)
        if self._may_demand_show(seat):
            out.append(Call(C.POKAZHI))
        if seat != self.turn:
            return self._with_extra(seat, out)
        out.extend(self._talk_calls(seat))
        if self._may_bella(seat):
            out.append(Call(C.BELLA))
        if self._may_claim(seat):
            out.append(Call(C.KONETS))
        out.extend(C.play(c) for c in self._legal_cards(seat))
        return self._with_extra(seat, out)

    def _legal_cards(self, seat: int) -> list[Card]:
        cards = self.trick.cards
        exempt = bool(cards) and self.rules.settings.partner_exemption and self.side_of(
            trick_winner(cards, self.trump)) == self.side_of(seat)  # type: ignore[arg-type]
        return legal_cards(self.hands[seat], cards, self.trump, exempt)

    def _may_claim(self, seat: int) -> bool:
        """Manual claims: after a trick the seat took (not the last), before the next card."""
        s = self.rules.settings
        return (
            s.manual_claim and s.target is not None and bool(self.tricks)
            and not self.trick.cards and self.tricks[-1].winner == seat
        )

    def _with_extra(self, seat: int, out: list[Call]) -> list[Call]:
        if self.rules.extra_calls is not None:
            out.extend(self.rules.extra_calls(self, seat))
        return out

    def _may_show_sevens(self, seat: int) -> bool:
        if not self.rules.settings.four_sevens or self.tricks or self.trick.cards:
            return False
        return all(make(SEVEN, s) in self.hands[seat] for s in range(4))

    def _bidding_calls(self, seat: int) -> list[Call]:
        if self.bid_round == 1:
            return [Call(C.PAS), Call(C.IGRAYU)]
        turned_suit = suit_of(self.original_turned)
        names = [Call(C.IGRAYU, suit=s) for s in range(4) if s != turned_suit]
        if self.rules.settings.commitment and seat == self.dealer:
            return names
        return [Call(C.PAS), *names]

    def _answers(self, pending: Pending) -> list[Call]:
        best = self.best
        if pending.kind == "rost":
            assert best is not None
            return [self._ot(best.combo)]
        if pending.kind == "rost-reply":
            assert best is not None
            mine = self.best_combo(pending.answerer, best.category)
            out = [Call(C.PISHET)]
            if mine is not None and self.beats(pending.answerer, mine, best.seat, best.combo):
                out.insert(0, self._ot(mine))
            return out
        if pending.kind == "show":
            out = [Call(C.POKAZYVAYU)]
            asker = pending.asker
            if asker == self.turn and asker not in self.window_hands and not self.tricks:
                out.append(Call(C.SKIN))
            return out
        if pending.kind == SWAP_Q:  # no swap first: what the clock says for a silent seat
            out = [Call(C.NE_MENYAYU)]
            if self.trump is not None and make(SEVEN, self.trump) in self.hands[pending.answerer]:
                out.append(Call(C.MENYAYU))
            return out
        if pending.kind == "prokhodit":  # does the asker's best trump sequence pass?
            passes = self._trump_passes(pending)
            return [Call(C.PROKHODIT) if passes else Call(C.NE_PROKHODIT)]
        return []  # a plugin's question: its answers come from deberc_extra_calls

    def _trump_passes(self, pending: Pending) -> bool:
        theirs = self._best_trump_sequence(pending.asker)
        mine = self.best_combo(pending.answerer)
        if theirs is None or mine is None:
            return True
        return not self.beats(pending.answerer, mine, pending.asker, theirs)

    def _best_trump_sequence(self, seat: int) -> Combo | None:
        key = self.rules.combo_key
        trumps = [c for c in self.combos_of(seat) if c.suit == self.trump]
        return max(trumps, key=lambda c: key(c, self.trump), default=None)

    def _ot(self, combo: Combo) -> Call:
        return Call(C.OT, rank=combo.top & 7, trump=combo.suit == self.trump)

    def _talk_calls(self, seat: int) -> list[Call]:
        if not self._in_window(seat):
            return []
        out: list[Call] = []
        if self._may_swap(seat):
            out.append(Call(C.MENYAYU))
            if seat not in self.asked_pass and self._best_trump_sequence(seat) is not None:
                out.append(Call(C.PROKHODIT_Q))
        if seat in self.talked:
            return out
        mine = self.best_combo(seat)
        if mine is None:
            return out
        best = self.best
        if best is None or mine.category > best.category:
            out.append(self._declaration(seat, mine.category))
        elif mine.category == best.category and self.side_of(best.seat) != self.side_of(seat):
            out.append(Call(C.ROST))
        return out

    def _declaration(self, seat: int, category: int) -> Call:
        count = sum(1 for c in self.combos_of(seat) if c.category == category)
        return Call(CATEGORY_NAMES[category], count=count)

    def _may_demand_show(self, seat: int) -> bool:
        best = self.best
        return (
            best is not None
            and self.phase == PLAY
            and self.side_of(best.seat) != self.side_of(seat)
            and best.seat not in self.shown
            and seat not in self.asked_show
            and len(self.tricks) <= 1
            and not (self.tricks and self.trick.cards)
        )

    def _may_bella(self, seat: int) -> bool:
        if self.bella_owner != seat or self.bella_declared:
            return False
        assert self.trump is not None
        if not any(c in self.hands[seat] for c in bella_cards(self.trump)):
            return False
        if self.rules.settings.bella_after_trick:
            return self.took_trick(seat)  # the owner himself, not his partner
        return True

    def took_trick(self, seat: int) -> bool:
        return any(t.winner == seat for t in self.tricks)

    # ------------------------------------------------------------------- apply
    def apply(self, seat: int, call: Call, *, ms: int = 0, auto: bool = False) -> list[DealEvent]:
        """Make ``call`` for ``seat`` and say what happened, or raise ``IllegalCall`` with
        nothing changed."""
        if not 0 <= seat < self.players:
            raise E.NotAllowed(f"there is no seat {seat}")
        if call not in self.legal_calls(seat):
            error = why_not(self, seat, call)
            if not self._punishable(seat, call, error):
                raise error
            self.log.append(LoggedCall(seat, call, ms, auto, penalty=error.code))
            self._tell(Penalized(seat, call, error.code))
            self._punish(seat, call, error)
            return self._take_told()
        self.log.append(LoggedCall(seat, call, ms, auto))
        card = call.card
        self._tell(CallMade(seat, call, auto) if card is None else CardPlayed(seat, card, auto))
        if call.name in TALK:
            self.declared_calls.setdefault(seat, []).append(call.token())
        handler = _HANDLERS.get(call.name)
        if handler is not None:
            handler(self, seat, call)
        elif self.rules.apply_extra_call is None or not self.rules.apply_extra_call(
            self, seat, call
        ):
            raise AssertionError(f"no rule carries out the legal call {call.token()}")
        return self._take_told()

    def _tell(self, event: DealEvent) -> None:
        self._told.append(event)

    def _take_told(self) -> list[DealEvent]:
        told, self._told = self._told, []
        return in_telling_order(told)

    def _visible_fresa(self) -> Card | None:
        return self.fresa if self.rules.settings.fresa_visible else None

    def _do_chetyre_semerki(self, seat: int, call: Call) -> None:
        self._end_void("sevens")

    def _do_pas(self, seat: int, call: Call) -> None:
        n = self.players
        self.passes += 1
        if self.passes < n:
            self.turn = (self.turn + 1) % n
        elif self.bid_round == 1:
            self.bid_round, self.passes = 2, 0
            self.turn = (self.dealer + 1) % n
        else:
            self._end_void("all passed")

    def _do_igrayu(self, seat: int, call: Call) -> None:
        self.player = seat
        self.first_trump = call.suit is None
        self.trump = suit_of(self.original_turned) if call.suit is None else call.suit
        s = self.rules.settings
        if s.swap_before_extra and s.seven_swap and self.first_trump and (
            self.original_turned != make(SEVEN, self.trump)
        ):
            # every seat is asked in turn, holder of the seven or not, so that the
            # question itself tells nobody where the seven is
            self.phase = ORDERED
            order = [(self.dealer + i) % self.players for i in range(1, self.players + 1)]
            self.pending = Pending(SWAP_Q, seat, order[0], tuple(order[1:]))
            self._tell(Ordered(seat, self.trump, self.first_trump, None))  # nothing dealt
            return
        if s.pause_after_order:
            self.phase = ORDERED
            self._tell(Ordered(seat, self.trump, self.first_trump, None))  # nothing dealt
            self._event("ordered")
            return
        self._deal_rest()
        self._tell(Ordered(seat, self.trump, self.first_trump, self._visible_fresa()))

    def continue_after_order(self) -> None:
        """A plugin done with the moment after the order: deal the last cards, play."""
        if self.phase == ORDERED:
            self._deal_rest()

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
        self.trick = Trick(self.leader)
        self._find_bella_owner()
        if paused:
            self._tell(Dealt(self._visible_fresa()))
        self._event("play")

    def _find_bella_owner(self) -> None:
        self.bella_owner = next(
            (seat for seat, h in enumerate(self.hands) if holds_bella(h, self.trump)), None
        )

    def _do_menyayu(self, seat: int, call: Call) -> None:
        assert self.trump is not None
        seven = make(SEVEN, self.trump)
        hand = self.hands[seat]
        hand.remove(seven)
        hand.append(self.turned)
        self.turned = seven
        self.swapped_by = seat
        if holds_bella(hand, self.trump):  # the turned K or Q completes his pair; nobody
            self.bella_owner = seat  # else's pair changes (one may be half played already)
        self._event("swap")
        if self.phase == ORDERED:  # swap-before-extra: the seven is gone, deal on
            self.pending = None
            self._deal_rest()

    def _do_ne_menyayu(self, seat: int, call: Call) -> None:
        pending = self.pending
        assert pending is not None
        if pending.queue:
            self.pending = Pending(SWAP_Q, pending.asker, pending.queue[0], pending.queue[1:])
            return
        self.pending = None
        self._deal_rest()

    def _do_prokhodit_q(self, seat: int, call: Call) -> None:
        self.asked_pass.add(seat)
        n = self.players
        later = ((seat + i) % n for i in range(1, n))
        opponents = [s for s in later if self.side_of(s) != self.side_of(seat)]
        self.pending = Pending("prokhodit", seat, opponents[0], tuple(opponents[1:]))

    def _do_prokhodit(self, seat: int, call: Call) -> None:
        pending = self.pending
        assert pending is not None
        if pending.queue:  # every opponent answers for his own combinations
            self.pending = Pending("prokhodit", pending.asker, pending.queue[0],
                                   pending.queue[1:])
        else:
            self.pending = None

    def _do_terts(self, seat: int, call: Call) -> None:
        self.talked.add(seat)
        self.declared_combos[seat] = self.combos_of(seat)
        combo = self.best_combo(seat)
        assert combo is not None
        self.best = Declaration(seat, combo.category, combo)

    def _do_rost_q(self, seat: int, call: Call) -> None:
        best = self.best
        assert best is not None
        self.talked.add(seat)
        self.declared_combos[seat] = self.combos_of(seat)
        # pairs: the declarer answers for his pair; his partner takes the declaration over
        # only when the asker's beats the declarer's and not his (taking it over when the
        # declarer's own wins would cost the declarer his other sequences, docs/rules.md 8)
        mine = self.best_combo(seat, best.category)
        if mine is not None and self.beats(seat, mine, best.seat, best.combo):
            for partner in self.sides[self.side_of(best.seat)]:
                theirs = self.best_combo(partner, best.category)
                if partner != best.seat and theirs is not None and not self.beats(
                    seat, mine, partner, theirs
                ):
                    best = Declaration(partner, best.category, theirs)
        self.best = best
        self.pending = Pending("rost", seat, best.seat)

    def _do_ot(self, seat: int, call: Call) -> None:
        pending = self.pending
        assert pending is not None and self.best is not None
        if pending.kind == "rost":
            self.best.top_told = True
            self.pending = Pending("rost-reply", pending.asker, pending.asker)
            return
        combo = self.best_combo(seat, self.best.category)
        assert combo is not None
        self.best = Declaration(seat, combo.category, combo, top_told=True)
        self.pending = None

    def _do_pishet(self, seat: int, call: Call) -> None:
        self.pending = None

    def _do_pokazhi(self, seat: int, call: Call) -> None:
        assert self.best is not None
        self.asked_show.add(seat)
        self.pending = Pending("show", seat, self.best.seat)

    def _do_pokazyvayu(self, seat: int, call: Call) -> None:
        self.pending = None
        self._show(seat)

    def _show(self, seat: int) -> None:
        # Only the declared category goes face up (docs/rules.md §3, the table talk, 5):
        # his other sequences are added after the first trick, and showing them now
        # would leak hidden cards.
        combos = self.combos_of(seat)
        best = self.best
        if best is not None and best.seat == seat:
            category = best.category  # a partner answering rost? shows that length only
        else:
            category = max(c.category for c in combos)  # he declared his longest
        new = seat not in self.shown  # shown twice (skin, then asked again): told once
        self.shown[seat] = [
            c for combo in combos if combo.category == category for c in combo.cards
        ]
        if new:
            self._tell(Shown(seat, tuple(self.shown[seat])))

    def _do_skin(self, seat: int, call: Call) -> None:
        assert self.pending is not None
        self.skin_owed[self.pending.asker] = seat
        self.pending = None

    def _do_bella(self, seat: int, call: Call) -> None:
        self.bella_declared = True

    def _do_konets(self, seat: int, call: Call) -> None:
        side = self.side_of(seat)
        points = self.deal_points()
        target = self.rules.settings.target
        assert target is not None
        if self.running_total(side) >= target:
            self.end_deal("claim", points, points, winner=side, reason="claim")
            return
        # the best other total wins; of equal ones, the side that plays earlier in the
        # deal (as the odd point of a bide goes, docs/rules.md 10)
        others = [s for s in self._lead_order() if s != side]
        winner = max(others, key=lambda s: self.running_total(s))
        self.end_deal("false-claim", points, points, winner=winner, reason="false-claim")

    # -------------------------------------------------------------- penalties
    def _punishable(self, seat: int, call: Call, error: E.IllegalCall) -> bool:
        if not self.rules.settings.table_penalties or self.phase != PLAY:
            return False
        if error.code in PENALIZED:
            return True
        # a seven swap that was not allowed, by the holder of the trump 7 on his turn
        return (
            call.name == C.MENYAYU and self.pending is None and seat == self.turn
            and self.trump is not None and make(SEVEN, self.trump) in self.hands[seat]
        )

    def _punish(self, seat: int, call: Call, error: E.IllegalCall) -> None:
        """docs/rules.md §10, table-penalties: a longer combination asked about is lost;
        anything else is a bide on cards."""
        best = self.best
        if call.name == C.ROST and best is not None:
            mine = self.best_combo(seat)
            if mine is not None and mine.category > best.category:
                self.talked.add(seat)
                self.lost_combos.add(seat)
                return
        self._bide_on_cards(seat, error.code)

    def _bide_on_cards(self, seat: int, reason: str) -> None:
        """The offender hands all his cards to the opponents, who write every point."""
        assert self.trump is not None
        if self.scoring_combos is None:  # mid first trick: what was declared still counts
            self._settle_combinations()
        everything = [c for t in self.tricks for _, c in t.cards]
        everything += [c for _, c in self.trick.cards]
        everything += [c for hand in self.hands for c in hand]
        total = sum(card_points(c, self.trump) for c in everything)
        total += self.rules.settings.last_trick_bonus
        offender = self.side_of(seat)
        self.offender_side = offender  # nothing is written for his combinations or bella
        points = self.deal_points()
        extras = [points[i] - self.card_points[i] for i in range(len(points))]
        others = [s for s in range(len(self._sides)) if s != offender]
        share, odd = divmod(total, len(others))
        written = [0] * len(self._sides)
        order = [s for s in self._lead_order() if s in others]
        for i, side in enumerate(order):
            written[side] = share + (odd if i == 0 else 0) + extras[side]
        self.end_deal("penalty", points, written)
        assert self.score is not None
        self.score.notes.append(f"bide on cards: seat {seat}, {reason}")
        self._hanging_after_penalty(offender)

    def _hanging_after_penalty(self, offender: int) -> None:
        """A bide on cards is a played deal: the hanging points go to whoever writes
        more (docs/rules.md 5); the whistlers of a player who offended share them as they
        share a bide (equal parts, the odd point to the earlier)."""
        score = self.score
        assert score is not None
        hanging = score.hanging_in
        if not hanging:
            return
        written = score.written
        others = [s for s in score.lead_order if s != offender]
        if offender == score.player_side and len(others) > 1:
            share, odd = divmod(hanging, len(others))
            for i, side in enumerate(others):
                written[side] += share + (odd if i == 0 else 0)
            score.notes.append(f"hanging {hanging} to the whistlers")
        else:
            top = max(written)
            leaders = [s for s, w in enumerate(written) if w == top]
            if len(leaders) > 1:
                return  # nobody wrote more: they keep hanging
            written[leaders[0]] += hanging
            score.notes.append(f"hanging {hanging} to side {leaders[0]}")
        score.hanging_out = score.hanging_pending.pop(0) if score.hanging_pending else 0

    def _do_play(self, seat: int, call: Call) -> None:
        card = call.card
        assert card is not None
        hand = self.hands[seat]
        first_card = not self.tricks and seat not in self.window_hands
        if first_card:
            self.window_hands[seat] = tuple(hand)
        hand.remove(card)
        self.trick.cards.append((seat, card))
        declarer = self.skin_owed.pop(seat, None)
        if declarer is not None:
            self._show(declarer)
            # engine-made, not a clock's automatic call: "auto" is rendered as "(clock)"
            self.log.append(
                LoggedCall(declarer, Call(C.POKAZYVAYU), self.log[-1].ms, False, engine=True)
            )
            self._tell(CallMade(declarer, Call(C.POKAZYVAYU)))
        best = self.best
        if (
            first_card and self.rules.settings.show_combination and best is not None
            and best.seat == seat and seat not in self.shown
        ):  # show-combination: the best declaration goes face up with its first card
            self._show(seat)
            self.log.append(
                LoggedCall(seat, Call(C.POKAZYVAYU), self.log[-1].ms, False, engine=True)
            )
            self._tell(CallMade(seat, Call(C.POKAZYVAYU)))
        n = self.players
        if len(self.trick.cards) < n:
            self.turn = (seat + 1) % n
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        assert self.trump is not None
        trick = self.trick
        winner = trick_winner(trick.cards, self.trump)
        trick.winner = winner
        side = self.side_of(winner)
        self.tricks.append(trick)
        self._tell(TrickTaken(winner, tuple(c for _, c in trick.cards)))
        self.tricks_taken[side] += 1
        self.card_points[side] += sum(card_points(c, self.trump) for _, c in trick.cards)
        if len(self.tricks) == 1:
            self._settle_combinations()
        if not self.hands[winner]:
            self._score()
            return
        self.turn = winner
        self.trick = Trick(winner)
        s = self.rules.settings
        if s.auto_claim and s.target is not None and self.running_total(side) >= s.target:
            self._end_claim(side)

    def _settle_combinations(self) -> None:
        winners = self.rules.combo_winners(self)
        self.scoring_combos = {
            seat: self.combos_of(seat)
            for seat in winners
            if seat not in self.lost_combos and self.combos_of(seat)
        }

    def counted_combos(self) -> dict[int, list[Combo]]:
        """The sequences that count now, by seat: the record lists exactly these."""
        return {
            seat: combos
            for seat, combos in (self.scoring_combos or {}).items()
            if self.side_of(seat) != self.offender_side and not self._lacks_trick(seat)
        }

    def _lacks_trick(self, seat: int) -> bool:
        """combos-need-trick: the seat took no trick himself. After a bide on cards the
        others are handed every card in play (and write the last trick's 10): they have
        their tricks, whatever the play had reached (docs/rules.md 10)."""
        return (
            self.rules.settings.combos_need_trick
            and self.offender_side is None
            and not self.took_trick(seat)
        )

    def _bella_counts(self) -> bool:
        return (
            self.bella_declared and self.bella_owner is not None
            and self.side_of(self.bella_owner) != self.offender_side
        )

    def combo_points(self) -> list[int]:
        out = [0] * len(self._sides)
        for seat, combos in self.counted_combos().items():
            out[self.side_of(seat)] += sum(c.points for c in combos)
        return out

    def bella_points(self) -> list[int]:
        out = [0] * len(self._sides)
        if self._bella_counts():
            assert self.bella_owner is not None
            out[self.side_of(self.bella_owner)] += BELLA_POINTS
        return out

    def deal_points(self) -> list[int]:
        """Each side's points so far: combinations, bella, cards (and the last trick)."""
        combos, bella = self.combo_points(), self.bella_points()
        return [combos[i] + bella[i] + self.card_points[i] for i in range(len(self._sides))]

    def running_total(self, side: int) -> int:
        return self.totals_before[side] + self.deal_points()[side]

    # ------------------------------------------------------------------ ending
    def _end_void(self, reason: str) -> None:
        self.phase = DONE
        self.outcome = "void"
        self.void_reason = reason
        self.pending = None
        zero = [0] * len(self._sides)
        self.score = self._deal_score(list(zero))
        self.score.written = list(zero)
        self.score.outcome = "void"

    def _end_claim(self, side: int) -> None:
        """A claim during the deal ends the match: each side writes what it has so far."""
        points = self.deal_points()
        self.end_deal("claim", points, points, winner=side, reason="claim")

    def end_deal(
        self, outcome: str, points: list[int], written: list[int], *,
        winner: int | None = None, reason: str = "",
    ) -> None:
        """End the deal now (a claim, a penalty, a plugin's rule); ``winner`` (a side)
        also ends the match."""
        self.phase = DONE
        self.pending = None
        self.outcome = outcome
        self.score = self._deal_score(list(points))
        self.score.written = list(written)
        self.score.outcome = outcome
        if winner is not None:
            self.match_end = (winner, reason or outcome)

    def _lead_order(self) -> list[int]:
        """The sides in the order they play in this deal, the leader's first."""
        n = self.players
        order: list[int] = []
        for i in range(n):
            side = self.side_of((self.leader + i) % n)
            if side not in order:
                order.append(side)
        return order

    def _deal_score(self, points: list[int]) -> DealScore:
        last = self.tricks[-1].winner if self.tricks else None
        notes = [
            f"seat {seat} took no trick: his combinations do not count"
            for seat in sorted(self.scoring_combos or {})
            if self._lacks_trick(seat) and self.side_of(seat) != self.offender_side
        ]
        return DealScore(
            sides=self._sides,
            player_side=-1 if self.player is None else self.side_of(self.player),
            points=points,
            card_points=list(self.card_points),
            combo_points=self.combo_points(),
            bella_points=self.bella_points(),
            tricks_taken=list(self.tricks_taken),
            last_trick_side=-1 if last is None else self.side_of(last),
            hanging_in=self.hanging_in,
            hanging_pending=list(self.hanging_pending),
            bides_before=list(self.bides_before),
            lead_order=self._lead_order(),
            hanging_out=self.hanging_in,
            stake=int(self.extra.get("stake", 1)),
            notes=notes,
        )

    def _score(self) -> None:
        self.phase = DONE
        last = self.tricks[-1].winner
        assert last is not None
        points = self.deal_points()
        points[self.side_of(last)] += self.rules.settings.last_trick_bonus
        self.score = self._deal_score(points)
        self.rules.score_deal(self.score)
        self.outcome = self.score.outcome

    # ----------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """The deal as a ``deberc-deal/1`` record (without table/match/players)."""
        score = self.score
        declared = []
        counted = self.counted_combos()
        # every seat that spoke, and every seat whose sequences count though it said
        # nothing itself (a partner under pair-combinations)
        for seat in sorted({*self.declared_combos, *self.declared_calls, *counted}):
            combos = counted.get(seat, [])
            declared.append({
                "seat": seat,
                "calls": self.declared_calls.get(seat, []),
                "scored": [
                    {"combo": c.describe(), "cards": [card_str(x) for x in c.cards],
                     "points": c.points}
                    for c in combos
                ],
            })
        if self._bella_counts():
            declared.append({"seat": self.bella_owner, "calls": ["bella"],
                             "scored": [{"combo": "bella", "points": BELLA_POINTS}]})
        return {
            "dealer": self.dealer,
            "deck": [card_str(c) for c in self.deck],
            "calls": [
                {"seat": e.seat, **e.call.record(), "ms": e.ms,
                 **({"auto": True} if e.auto else {}), **({"engine": True} if e.engine else {}),
                 **({"penalty": e.penalty} if e.penalty else {})}
                for e in self.log
            ],
            "trump": None if self.trump is None else "shdc"[self.trump],
            "player": self.player,
            "first_trump": self.first_trump,
            "turned": card_str(self.original_turned),
            "fresa": None if self.fresa is None else card_str(self.fresa),
            "tricks": [
                {"leader": t.leader, "cards": [card_str(c) for _, c in t.cards],
                 "winner": t.winner}
                for t in self.tricks
            ],
            "declared": declared,
            "points": list(score.points) if score else None,
            "written": list(score.written) if score else None,
            "hanging": score.hanging_out if score else self.hanging_in,
            "outcome": self.outcome,
            "bides_before": list(self.bides_before),
            "void_reason": self.void_reason,
            "notes": list(score.notes) if score else [],
        }


# What carries out each of the engine's own calls (a plugin's calls go to its hook).
_HANDLERS: dict[str, Callable[[Deal, int, Call], None]] = {
    C.SEVENS: Deal._do_chetyre_semerki,
    C.PAS: Deal._do_pas,
    C.IGRAYU: Deal._do_igrayu,
    C.MENYAYU: Deal._do_menyayu,
    C.NE_MENYAYU: Deal._do_ne_menyayu,
    C.PROKHODIT_Q: Deal._do_prokhodit_q,
    C.PROKHODIT: Deal._do_prokhodit,
    C.NE_PROKHODIT: Deal._do_prokhodit,
    C.TERTS: Deal._do_terts,
    C.PYATDESYAT: Deal._do_terts,
    C.ROST: Deal._do_rost_q,
    C.OT: Deal._do_ot,
    C.PISHET: Deal._do_pishet,
    C.POKAZHI: Deal._do_pokazhi,
    C.POKAZYVAYU: Deal._do_pokazyvayu,
    C.SKIN: Deal._do_skin,
    C.BELLA: Deal._do_bella,
    C.KONETS: Deal._do_konets,
    C.PLAY: Deal._do_play,
}
