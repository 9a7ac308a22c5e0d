"""A perfect-information card-play solver: alpha-beta over bitmask hands.

Given every hand (one sampled world), it finds what each side's best play is worth in
card points from now on (the current trick's cards and the last-trick bonus included),
for the side that ``team[seat] == 0`` marks, against the other. The rules of play are
those of ``deberc_net.game.play`` (follow suit, trump, overtrump, the partner
exemption), re-expressed on bitmasks for speed; ``tests/clients/test_search_bot.py``
checks them against the engine's ``legal_calls``.

Speed comes from: hands as 32-bit masks, per-trump tables of points and strength, a
transposition table at trick boundaries, move ordering (the table's best move first,
then cheap winners), and merging cards that are equivalent (adjacent in strength among
the cards still out, same points, same hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from deberc_net.game.cards import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH

from . import clock

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
EXACT, LOWER, UPPER = 0, 1, 2
INF = 10_000
V = TypeVar("V", int, float)
# a transposition table's entry: (depth searched, EXACT/LOWER/UPPER, value, best card)
Entry = tuple[int, int, V, int]


def settled(entry: Entry[V] | None, depth: int, alpha: V, beta: V) -> V | None:
    """The stored value if ``entry``, searched at least ``depth`` deep, settles a node
    with this window; otherwise None (search it)."""
    if entry is None:
        return None
    e_depth, flag, val, _ = entry
    if e_depth >= depth and (
        flag == EXACT or (flag == LOWER and val >= beta) or (flag == UPPER and val <= alpha)
    ):
        return val
    return None


def bound(best: V, alpha0: V, beta0: V) -> int:
    """What ``best``, found in the window (``alpha0``, ``beta0``), is: the exact value or
    only an upper or lower bound on it."""
    if best <= alpha0:
        return UPPER
    if best >= beta0:
        return LOWER
    return EXACT


def _tables(trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Points and trick-taking strength of every card (trumps above every plain card)."""
    points = tuple(
        TRUMP_POINTS[c & 7] if c >> 3 == trump else PLAIN_POINTS[c & 7] for c in range(32)
    )
    strength = tuple(
        100 + TRUMP_STRENGTH[c & 7] if c >> 3 == trump else PLAIN_STRENGTH[c & 7] for c in range(32)
    )
    return points, strength


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class Solver:
    """Solves one world. ``team[seat]`` is 0 for the side we maximise, 1 for the other;
    ``partners`` (the partner-exemption option) is whether partners share a side."""

    def __init__(
        self,
        trump: int,
        team: Sequence[int],
        *,
        last_bonus: int = 10,
        partner_exemption: bool = False,
        side: Sequence[int] | None = None,
        node_limit: int = 200_000,
        deadline: float | None = None,
    ) -> None:
        self.trump = trump
        self.team = tuple(team)
        self.side = tuple(side) if side is not None else self.team
        self.n = len(team)
        self.last_bonus = last_bonus
        self.exemption = partner_exemption
        self.points, self.strength = _tables(trump)
        self.trump_mask = SUIT_MASK[trump]
        self.tt: dict[tuple[tuple[int, ...], int], Entry[int]] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline  # clock.now() after which searches stop deepening
        # cards sorted weakest first within each suit, for the equivalence test
        self.order = [
            sorted(range(s * 8, s * 8 + 8), key=lambda c: self.strength[c]) for s in range(4)
        ]
        # per card: the weaker cards of its suit, strongest first; the stronger ones, a mask
        self.weaker: list[list[int]] = [[] for _ in range(32)]
        self.above = [0] * 32
        for order in self.order:
            for i, card in enumerate(order):
                self.weaker[card] = order[:i][::-1]
                self.above[card] = sum(1 << c for c in order[i + 1 :])

    # ------------------------------------------------------------------ rules
    def legal(self, hand: int, trick: Sequence[tuple[int, int]], seat: int) -> int:
        """The mask of cards ``seat`` may play from ``hand`` onto ``trick``."""
        if not trick:
            return hand
        led = trick[0][1] >> 3
        follow = hand & SUIT_MASK[led]
        exempt = False
        if self.exemption:
            winner = self.winner(trick)
            exempt = self.side[winner] == self.side[seat]
        trump = self.trump
        if follow and (led != trump or exempt):
            return follow
        if exempt:
            return hand
        trumps = follow if follow else hand & self.trump_mask
        if not trumps:
            return hand
        strength = self.strength
        top = max((strength[c] for _, c in trick if c >> 3 == trump), default=-1)
        over = 0
        m = trumps
        while m:
            low = m & -m
            if strength[low.bit_length() - 1] > top:
                over |= low
            m ^= low
        return over or trumps

    def winner(self, trick: Sequence[tuple[int, int]]) -> int:
        led = trick[0][1] >> 3
        trump = self.trump
        strength = self.strength
        best_seat, best = trick[0][0], -1
        for seat, c in trick:
            s = c >> 3
            if s != trump and s != led:
                continue
            if strength[c] > best:
                best_seat, best = seat, strength[c]
        return best_seat

    # ------------------------------------------------------------------ search
    def value(
        self, hands: list[int], trick: list[tuple[int, int]], turn: int, depth: int = 99
    ) -> int:
        """What the rest of the deal is worth to team 0 (card points, minus team 1's),
        searching ``depth`` more complete tricks before estimating."""
        return self._search(hands, trick, turn, -INF, INF, depth)

    def move_values(
        self, hands: list[int], trick: list[tuple[int, int]], turn: int, depth: int = 99
    ) -> dict[int, int]:
        """The value to team 0 of each legal card of ``turn`` (each searched exactly)."""
        out = {}
        hand = hands[turn]
        for card in self._moves(hands, trick, turn, self.legal(hand, trick, turn), None):
            hands[turn] = hand & ~(1 << card)
            trick.append((turn, card))
            out[card] = self._after(hands, trick, turn, -INF, INF, depth)
            trick.pop()
            hands[turn] = hand
        # equivalent cards share a value
        for card in cards_of(self.legal(hand, trick, turn)):
            if card not in out:
                out[card] = out[self._representative(hands, trick, card)]
        return out

    def _representative(self, hands: list[int], trick: list[tuple[int, int]], card: int) -> int:
        out = self._out_mask(hands, trick)
        return next((c for c in self.weaker[card] if out >> c & 1), card)

    @staticmethod
    def _out_mask(hands: list[int], trick: Sequence[tuple[int, int]]) -> int:
        m = 0
        for h in hands:
            m |= h
        for _, c in trick:
            m |= 1 << c
        return m

    def _moves(
        self,
        hands: list[int],
        trick: Sequence[tuple[int, int]],
        turn: int,
        legal: int,
        first: int | None,
    ) -> list[int]:
        """Legal cards, equivalent ones merged, best-looking first."""
        points, strength = self.points, self.strength
        hand = hands[turn]
        out_cards = self._out_mask(hands, trick)
        moves = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            card = low.bit_length() - 1
            # skip a card if the next weaker card still out is ours, legal, same points
            lower = next((c for c in self.weaker[card] if out_cards >> c & 1), -1)
            if (
                lower >= 0
                and legal >> lower & 1
                and hand >> lower & 1
                and points[lower] == points[card]
            ):
                continue
            moves.append(card)
        if len(moves) < 2:
            return moves
        if trick:
            led = trick[0][1] >> 3
            top_seat = self.winner(trick)
            top_card = next(c for s, c in trick if s == top_seat)
            top = strength[top_card]
            ours = self.team[top_seat] == self.team[turn]

            def key(c: int) -> float:
                beats = (c >> 3 == led or c >> 3 == self.trump) and strength[c] > top
                if ours:  # partner winning: smear points
                    return -points[c]
                if beats:  # win as cheaply as possible
                    return -100 + strength[c] * 0.1
                return points[c]  # losing: throw the cheapest

            moves.sort(key=key)
        else:
            moves.sort(key=lambda c: -(strength[c] + points[c]))
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def _search(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        alpha: int,
        beta: int,
        depth: int,
    ) -> int:
        self.nodes += 1
        if (
            self.nodes & 15 == 0  # few nodes, but each may end in a rollout
            and self.deadline is not None
            and (clock.now() > self.deadline)
        ):
            self.node_limit = -1  # out of time: finish every line at once
        key = None
        best_move = None
        if not trick:
            key = (tuple(hands), turn)
            entry = self.tt.get(key)
            if entry is not None:
                val = settled(entry, depth, alpha, beta)
                if val is not None:
                    return val
                best_move = entry[3]
        hand = hands[turn]
        legal = self.legal(hand, trick, turn)
        maximize = self.team[turn] == 0
        alpha0, beta0 = alpha, beta
        best = -INF if maximize else INF
        chosen = -1
        for card in self._moves(hands, trick, turn, legal, best_move):
            hands[turn] = hand & ~(1 << card)
            trick.append((turn, card))
            v = self._after(hands, trick, turn, alpha, beta, depth)
            trick.pop()
            hands[turn] = hand
            if maximize:
                if v > best:
                    best, chosen = v, card
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best, chosen = v, card
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if key is not None:
            self.tt[key] = (depth, bound(best, alpha0, beta0), best, chosen)
        return best

    def _after(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        alpha: int,
        beta: int,
        depth: int,
    ) -> int:
        """Continue after ``turn`` put a card on ``trick``."""
        if len(trick) < self.n:
            return self._search(hands, trick, (turn + 1) % self.n, alpha, beta, depth)
        winner = self.winner(trick)
        points = self.points
        got = sum(points[c] for _, c in trick)
        rest = any(hands)
        if not rest:
            got += self.last_bonus
        sign = 1 if self.team[winner] == 0 else -1
        if not rest:
            return sign * got
        saved = trick[:]
        trick.clear()
        if self.node_limit < 0:
            v = sign * got + self.estimate(hands)  # out of time: the cheapest guess
        elif depth <= 1 or self.nodes > self.node_limit:
            v = sign * got + self.rollout(hands, winner)
        else:
            v = sign * got + self._search(
                hands, trick, winner, alpha - sign * got, beta - sign * got, depth - 1
            )
        trick.extend(saved)
        return v

    def rollout(self, hands: list[int], leader: int) -> int:
        """Play the rest out quickly with club-player habits (cash masters, win cheaply
        when it pays, otherwise throw the cheapest card, give points to a partner's
        trick); its result stands in for a search too deep to finish."""
        hands = list(hands)
        points, strength, team, n = self.points, self.strength, self.team, self.n
        total = 0
        while hands[leader]:
            trick: list[tuple[int, int]] = []
            seat = leader
            for i in range(n):
                hand = hands[seat]
                legal = self.legal(hand, trick, seat)
                cards = cards_of(legal)
                if not trick:
                    masters = [c for c in cards if self._sure(c, hands, seat)]
                    if masters:
                        card = max(masters, key=lambda c: points[c])
                    else:
                        card = min(cards, key=lambda c: (points[c], strength[c]))
                else:
                    top_seat = self.winner(trick)
                    top = max(strength[c] for s, c in trick if s == top_seat)
                    led = trick[0][1] >> 3
                    winners = [
                        c
                        for c in cards
                        if strength[c] > top and (c >> 3 == led or c >> 3 == self.trump)
                    ]
                    if team[top_seat] == team[seat]:
                        card = (
                            max(cards, key=lambda c: points[c])
                            if i == n - 1
                            else min(cards, key=lambda c: (points[c], strength[c]))
                        )
                    elif winners:
                        card = min(winners, key=lambda c: (points[c], strength[c]))
                    else:
                        card = min(cards, key=lambda c: (points[c], strength[c]))
                hands[seat] = hand & ~(1 << card)
                trick.append((seat, card))
                seat = (seat + 1) % n
            leader = self.winner(trick)
            got = sum(points[c] for _, c in trick)
            if not hands[leader]:
                got += self.last_bonus
            total += got if team[leader] == 0 else -got
        return total

    def _sure(self, card: int, hands: list[int], seat: int) -> bool:
        """Does ``card``, led, take the trick whatever the opponents hold (they can see
        nothing better in its suit, and none of them can trump it)?"""
        suit = card >> 3
        above = self.above[card]
        for other, hand in enumerate(hands):
            if self.team[other] == self.team[seat]:
                continue
            if hand & above:
                return False
            if suit != self.trump and not hand & SUIT_MASK[suit] and hand & self.trump_mask:
                return False
        return True

    def estimate(self, hands: Sequence[int]) -> int:
        """A rough value of the cards still in hand: each side tends to take the points
        it holds, trumps and aces most surely."""
        points, strength = self.points, self.strength
        total = 0.0
        for seat, hand in enumerate(hands):
            sign = 1 if self.team[seat] == 0 else -1
            m = hand
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                sure = 0.8 if strength[c] >= 105 or (c & 7) == 7 else 0.4
                total += sign * (points[c] * sure + (6 if strength[c] >= 100 else 0))
        return int(total)
