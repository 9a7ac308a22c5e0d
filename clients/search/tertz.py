"""The search bot's card play at a Tertz table (docs/rules.md §12, docs/bots.md).

A world is the engine's own ``TertzDeal`` set to the seat's position with the hidden
cards sampled: the opponent's hand and the talon's order from the unseen cards, the
turned trump at the talon's bottom (or in the hand that drew it), what the opponent has
shown or declared (mariage, a terts or fifty) in its hand, and the voids it showed after
the talon (must follow and beat) respected. Each world is searched by applying cards
to copies of that deal, so drawing, the talon's end and must-beat are the engine's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from clients.protocol import View
from deberc_net.game import calls as C
from deberc_net.game.cards import (
    KING,
    PLAIN_STRENGTH,
    QUEEN,
    SEVEN,
    SUITS,
    TRUMP_STRENGTH,
    make,
    parse_card,
)
from deberc_net.game.deal import DONE, PLAY, Deal, Trick
from deberc_net.game.play import trick_winner
from deberc_net.game.rules import RuleSet
from deberc_net.game.talk import Talk
from deberc_net.plugins.variants.tertz.cards import card_points
from deberc_net.plugins.variants.tertz.deal import TertzDeal, broken_by

from . import clock
from .history import DealHistory, is_card
from .world import SUIT_MASK, Knowledge, _note_claim, bit, sample_hands

HAND = 9


def knowledge(view: View, history: DealHistory) -> tuple[Knowledge, int, bool]:
    """The seat's constraints, the card now at the talon's bottom (the turned trump, or
    the trump 7 after a swap) and whether that card has been drawn."""
    seat = view.seat
    assert seat is not None and view.trump
    other = 1 - seat
    trump = SUITS.index(view.trump)
    turned = parse_card(history.turned)
    my_hand = [parse_card(c) for c in view.hand]
    played: list[list[int]] = [[], []]
    forbid = [0, 0]
    must = [0, 0]
    parted = [0, 0]
    claims: dict[int, list[tuple[int, int, int | None, bool | None]]] = {}
    best = 0
    swapped_by = None
    bella_seat = None
    trick: list[tuple[int, int]] = []
    tricks_done = 0
    for who, token in history.calls:
        best = _note_claim(claims, who, token, best)
        if token == C.MENYAYU:
            swapped_by = who
            if who in claims:  # it held the seven when it declared (docs/rules.md §12.3)
                parted[who] |= bit(make(SEVEN, trump))
        elif token == C.BELLA:
            bella_seat = who
        if not is_card(token):
            continue
        card = parse_card(token)
        # after the seventh trick's draw the talon is gone: no draw undoes a void
        if trick and tricks_done >= 7:
            forbid[who] |= _void_after_talon(trick[0][1], card, trump)
        trick.append((who, card))
        played[who].append(card)
        if len(trick) == 2:
            trick = []
            tricks_done += 1
    talon_left = int(view.raw.get("talon", "0") or 0)
    bottom = make(SEVEN, trump) if swapped_by is not None else turned
    seen = sum(bit(c) for c in my_hand) | sum(bit(c) for p in played for c in p)
    seen |= bit(bottom)
    drawn = talon_left == 0
    if drawn and bottom not in my_hand and all(bottom not in p for p in played):
        must[other] |= bit(bottom)  # the opponent drew it
    if swapped_by == other and turned not in played[other]:
        must[other] |= bit(turned)
        seen |= bit(turned)
    if bella_seat == other:
        for c in (make(KING, trump), make(QUEEN, trump)):
            if not seen >> c & 1:
                must[other] |= bit(c)
    for shown in view.raw.get("shown", "").split(","):
        if ":" in shown:
            who_text, _, card_text = shown.partition(":")
            card = parse_card(card_text)
            if int(who_text) == other and card not in played[other] and card not in my_hand:
                must[other] |= bit(card)
    seen |= must[other]
    size = len(my_hand) - (1 if len(trick) == 1 and trick[0][0] == other else 0)
    sizes = [0, 0]
    sizes[seat], sizes[other] = len(my_hand), size
    unknown = ((1 << 32) - 1) & ~seen
    in_talon = talon_left - (0 if drawn else 1)
    k = Knowledge(
        seat=seat,
        players=2,
        dealer=history.dealer,
        turned=bottom,
        trump=trump,
        ordered=True,
        fresa=None,
        my_hand=my_hand,
        played=played,
        must_hold=must,
        forbid=forbid,
        sizes=sizes,
        talon_size=in_talon,
        swapped_by=swapped_by,
        unknown=unknown,
        claims={x: c for x, c in claims.items() if x != seat},
        parted=parted,
    )
    return k, bottom, drawn


def _void_after_talon(led: int, card: int, trump: int) -> int:
    """Cards a seat cannot hold, having played ``card`` on ``led`` with the talon gone
    (follow and beat, else trump, else anything)."""
    suit, led_suit = card >> 3, led >> 3
    if suit != led_suit:
        return SUIT_MASK[led_suit] | (SUIT_MASK[trump] if suit != trump else 0)
    table = TRUMP_STRENGTH if suit == trump else PLAIN_STRENGTH
    if table[card & 7] > table[led & 7]:
        return 0
    return sum(bit(make(r, suit)) for r in range(8) if table[r] > table[led & 7])


def build_world(
    k: Knowledge,
    bottom: int,
    drawn: bool,
    hands: list[list[int]],
    history: DealHistory,
    rules: RuleSet,
    view: View,
    rng: random.Random,
) -> TertzDeal:
    """The engine's deal in the seat's position, with these hands and the rest of the
    unseen cards as the talon in a random order above ``bottom``."""
    held = {c for h in hands for c in h} | {c for p in k.played for c in p} | {bottom}
    talon = [c for c in range(32) if c not in held]
    rng.shuffle(talon)
    # any full deck with the right turned card builds the deal; its state is then set
    others = [c for c in range(32) if c != bottom]
    deck = (*others[:18], bottom, *others[18:])
    assert rules.deal_class is not None and issubclass(rules.deal_class, TertzDeal)
    deal = rules.deal_class(
        rules=rules,
        deal_no=history.deal,
        dealer=history.dealer,
        deck=deck,
        seed="sample",
        totals_before=tuple(view.score),
    )
    assert isinstance(deal, TertzDeal) and deal.turned == bottom
    deal.hands = [list(h) for h in hands]
    deal.talon = talon
    deal.turned = bottom
    deal.turned_drawn = drawn
    deal.talk = Talk(swapped_by=k.swapped_by)
    trump = k.trump
    assert trump is not None
    tricks: list[Trick] = []
    trick = Trick(1 - history.dealer)
    for who, token in history.calls:
        n = broken_by(C.Call(token)) if token.startswith("lomayu-") else None
        if n is not None:
            deal.broken = n
        if token == C.BELLA:
            deal.talk.bella_declared = True
        if not is_card(token):
            continue
        trick.cards.append((who, parse_card(token)))
        if len(trick.cards) == 2:
            trick.winner = trick_winner(trick.cards, trump)
            tricks.append(trick)
            side = deal.side_of(trick.winner)
            deal.tally.tricks_taken[side] += 1
            deal.tally.card_points[side] += sum(card_points(c, trump) for _, c in trick.cards)
            trick = Trick(trick.winner)
    deal.tricks = tricks
    deal.trick = trick
    deal.turn = trick.leader if not trick.cards else 1 - trick.cards[0][0]
    deal.leader = trick.leader
    if not deal.talk.bella_declared:
        deal._find_bella_owner()
    deal.forget_caches()  # they were filled for the placeholder deck's state
    return deal


def worlds(
    view: View,
    history: DealHistory,
    rules: RuleSet,
    rng: random.Random,
    count: int,
    deadline: float | None = None,
) -> Iterator[TertzDeal]:
    """Up to ``count`` sampled Tertz deals in the seat's position."""
    k, bottom, drawn = knowledge(view, history)
    for made in range(count):
        if made and deadline is not None and clock.now() > deadline:
            return
        hands = sample_hands(k, rng)
        if hands is None:
            return
        yield build_world(k, bottom, drawn, hands, history, rules, view, rng)


# ------------------------------------------------------------------ the search
class TertzSearch:
    """Depth-limited alpha-beta over copies of one world's ``TertzDeal``, for ``seat``:
    card points (and the last trick's ten) won less the opponent's."""

    def __init__(self, seat: int, depth: int, deadline: float | None, node_limit: int) -> None:
        self.seat = seat
        self.depth = depth  # complete tricks searched after the current one
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0

    def move_values(self, deal: Deal) -> dict[str, float]:
        start = len(deal.tricks)
        out: dict[str, float] = {}
        for call in _cards(deal, self.seat):
            child = deal.copy()
            child.apply(self.seat, call)
            out[call.token()] = self._search(child, start, -1e9, 1e9)
        return out

    def _search(self, deal: Deal, start: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        _answer_pending(deal)
        if deal.phase == DONE:
            return self._final(deal)
        out_of_time = self.nodes > self.node_limit or (
            self.deadline is not None and clock.now() > self.deadline
        )
        if not deal.trick.cards and (len(deal.tricks) - start > self.depth or out_of_time):
            return self._estimate(deal)
        turn = deal.to_act
        assert turn is not None
        maximize = turn == self.seat
        best = -1e9 if maximize else 1e9
        for call in _ordered(deal, turn):
            child = deal.copy()
            child.apply(turn, call)
            v = self._search(child, start, alpha, beta)
            if maximize:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _points(self, deal: Deal) -> float:
        mine = deal.side_of(self.seat)
        return float(deal.tally.card_points[mine] - deal.tally.card_points[1 - mine])

    def _final(self, deal: Deal) -> float:
        last = deal.tricks[-1].winner
        bonus = deal.rules.settings.last_trick_bonus
        return self._points(deal) + (bonus if last == self.seat else -bonus)

    def _estimate(self, deal: Deal) -> float:
        """Points taken, and a rough share of those still in hand: trumps and aces are
        likelier to come home (the talon's cards are anyone's)."""
        trump = deal.trump
        assert trump is not None
        total = self._points(deal)
        for seat, hand in enumerate(deal.hands):
            sign = 1 if seat == self.seat else -1
            for c in hand:
                sure = 0.6 if c >> 3 == trump or (c & 7) == 7 else 0.3
                total += sign * (card_points(c, trump) * sure + (4 if c >> 3 == trump else 0))
        return total


def _cards(deal: Deal, seat: int) -> list[C.Call]:
    return [c for c in deal.legal_calls(seat) if c.name == C.PLAY]


def _ordered(deal: Deal, seat: int) -> list[C.Call]:
    """Cards likelier to be best first: on a lead, strong ones; in reply, a winner."""
    trump = deal.trump
    assert trump is not None

    def strength(card: int) -> int:
        return (100 if card >> 3 == trump else 0) + (
            TRUMP_STRENGTH if card >> 3 == trump else PLAIN_STRENGTH
        )[card & 7]

    calls = _cards(deal, seat)
    if deal.trick.cards:
        return sorted(calls, key=lambda c: card_points(c.card or 0, trump))
    return sorted(calls, key=lambda c: -strength(c.card or 0))


def _answer_pending(deal: Deal) -> None:
    """The break after the first trick (the talon is in random order in a world, so any
    N is as good) and any other question: its first answer."""
    while deal.phase == PLAY and deal.talk.pending is not None:
        seat = deal.talk.pending.answerer
        legal = deal.legal_calls(seat)
        if not legal:
            return
        deal.apply(seat, legal[0])


def values_in(
    deal: TertzDeal, seat: int, depth: int, deadline: float, node_limit: int
) -> dict[str, float]:
    """The value of each legal card of ``seat`` in one world."""
    return TertzSearch(seat, depth, deadline, node_limit).move_values(deal)
