"""A three-player whistler's own search: each seat's points kept apart.

With three players each whistler writes his own points (docs/rules.md §8): a made game
leaves each seat its own, a bide gives each whistler his own and half the player's. So
a whistler gains from beating the player *together* with the other whistler, but every
point the other whistler takes rather than he counts against him in the ladder's pairs
of seats. ``Solver`` plays the whistlers as one side and cannot tell whose trick is
whose; ``WhistlerSolver`` keeps the three seats' points apart and values the end of
each line by what the deal writes for our seat (``score``, the table's own scoring):

- our seat chooses the card that is best for it, the player the one that is worst for
  it (he wants his game made, which is what costs a whistler most);
- the other whistler plays as the heuristic bot would from his hand (``policy``): most
  whistlers at our tables play for their own tricks, not as our perfect partner;
- beyond the depth searched the deal is played out by each seat for itself (the other
  whistler still by ``policy``), and out of time by each seat keeping its likely points.

``Playout`` is that quick playout alone; a three-player bid's playout uses it with both
other seats played by ``policy`` (they bid as the heuristic bot in the simulation too).
``policy`` is the heuristic bot's card rule on bitmasks, for speed;
tests/clients/test_search_whistler.py checks it against the bot itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deberc_net.game.cards import PLAIN_STRENGTH, TRUMP_STRENGTH

from . import clock
from .solver import INF, SUIT_MASK, Entry, Solver, bound, cards_of, settled

Points = tuple[int, ...]  # by seat


class Playout(Solver):
    """Three seats each playing for himself; ``modelled`` seats play the heuristic bot's
    cards."""

    def __init__(
        self,
        trump: int,
        team: Sequence[int],
        modelled: Sequence[int],
        *,
        last_bonus: int = 10,
        node_limit: int = 60_000,
        deadline: float | None = None,
    ) -> None:
        super().__init__(
            trump, team, last_bonus=last_bonus, node_limit=node_limit, deadline=deadline
        )
        self.modelled = frozenset(modelled)
        self.keep = tuple(_keep_value(c, trump, self.points[c]) for c in range(32))

    # --------------------------------------------------------------- the model
    def policy(self, hand: int, trick: Sequence[tuple[int, int]], seat: int) -> int:
        """The heuristic bot's card (clients/heuristic_bot.py ``_card``) from ``hand``."""
        cards = cards_of(self.legal(hand, trick, seat))
        trump = self.trump
        keep = self.keep
        if not trick:
            for c in cards:
                if c & 7 == 7 and c >> 3 != trump:
                    return c
            trumps = [c for c in cards if c >> 3 == trump]
            jack = trump * 8 + 4
            if jack in trumps and len(trumps) >= 3:
                return jack
            return min(cards, key=lambda c: keep[c])
        led = trick[0][1] >> 3
        strength = self.strength

        def beats(c: int) -> int:
            return strength[c] if c >> 3 == led or c >> 3 == trump else -1

        top = max(beats(c) for _, c in trick)
        winners = [c for c in cards if beats(c) > top]
        at_stake = sum(self.points[c] for _, c in trick)
        last = len(trick) == self.n - 1 or len(cards_of(hand)) == 1
        if winners and (last or at_stake >= 10):
            return min(winners, key=lambda c: keep[c])
        return min(cards, key=lambda c: keep[c])

    def playout(self, hands: list[int], leader: int) -> Points:
        """The rest of the deal played quickly, the seats of ``modelled`` by ``policy``,
        the others each for himself: cash sure winners, win cheaply, else throw the
        cheapest. Each seat's points."""
        hands = list(hands)
        points, n = self.points, self.n
        got = [0] * n
        while hands[leader]:
            trick: list[tuple[int, int]] = []
            seat = leader
            for _ in range(n):
                hand = hands[seat]
                if seat in self.modelled:
                    card = self.policy(hand, trick, seat)
                else:
                    cards = cards_of(self.legal(hand, trick, seat))
                    card = self._habit(cards, hands, trick, seat)
                hands[seat] = hand & ~(1 << card)
                trick.append((seat, card))
                seat = (seat + 1) % n
            leader = self.winner(trick)
            gained = sum(points[c] for _, c in trick)
            if not hands[leader]:
                gained += self.last_bonus
            got[leader] += gained
        return tuple(got)

    def _habit(
        self, cards: list[int], hands: list[int], trick: list[tuple[int, int]], seat: int
    ) -> int:
        points, strength = self.points, self.strength
        if not trick:
            masters = [c for c in cards if self._alone_sure(c, hands, seat)]
            if masters:
                return max(masters, key=lambda c: points[c])
            return min(cards, key=lambda c: (points[c], strength[c]))
        top_seat = self.winner(trick)
        top = max(strength[c] for s, c in trick if s == top_seat)
        led = trick[0][1] >> 3
        winners = [
            c for c in cards if strength[c] > top and (c >> 3 == led or c >> 3 == self.trump)
        ]
        if winners:
            return min(winners, key=lambda c: (points[c], strength[c]))
        return min(cards, key=lambda c: (points[c], strength[c]))

    def _alone_sure(self, card: int, hands: list[int], seat: int) -> bool:
        """Does ``card``, led, take the trick whatever the other two hold?"""
        suit = card >> 3
        above = self.above[card]
        for other, hand in enumerate(hands):
            if other == seat:
                continue
            if hand & above:
                return False
            if suit != self.trump and not hand & SUIT_MASK[suit] and hand & self.trump_mask:
                return False
        return True


class WhistlerSolver(Playout):
    """Solves one world for whistler ``me`` against ``player``, the other whistler
    ``other`` played by the heuristic bot's card rules (with ``model_player`` the player
    too: a switch to try, docs/bots.md). ``score`` turns each seat's final deal points
    into our value; ``base`` is what each seat has before the search's cards (taken
    cards, sequences, bella)."""

    def __init__(
        self,
        trump: int,
        me: int,
        other: int,
        player: int,
        score: Callable[[Points], float],
        base: Sequence[int],
        *,
        last_bonus: int = 10,
        node_limit: int = 60_000,
        deadline: float | None = None,
        model_player: bool = False,
    ) -> None:
        team = [0 if x != player else 1 for x in range(3)]
        super().__init__(
            trump,
            team,
            [other, player] if model_player else [other],
            last_bonus=last_bonus,
            node_limit=node_limit,
            deadline=deadline,
        )
        self.me, self.other, self.player = me, other, player
        self.score = score
        self.base = tuple(base)
        self.ftt: dict[tuple[tuple[int, ...], int, Points], Entry[float]] = {}

    def final(self, got: Points) -> float:
        return self.score(tuple(b + g for b, g in zip(self.base, got, strict=True)))

    # ------------------------------------------------------------------ search
    def card_values(
        self, hands: list[int], trick: list[tuple[int, int]], turn: int, depth: int = 99
    ) -> dict[int, float]:
        """Our value of each legal card of ``turn`` (our seat)."""
        out: dict[int, float] = {}
        hand = hands[turn]
        zero = (0,) * self.n
        for card in self._moves(hands, trick, turn, self.legal(hand, trick, turn), None):
            hands[turn] = hand & ~(1 << card)
            trick.append((turn, card))
            out[card] = self._next(hands, trick, turn, -INF, INF, depth, zero)
            trick.pop()
            hands[turn] = hand
        for card in cards_of(self.legal(hand, trick, turn)):
            if card not in out:
                out[card] = out[self._representative(hands, trick, card)]
        return out

    def value_from(
        self, hands: list[int], trick: list[tuple[int, int]], turn: int, depth: int = 99
    ) -> float:
        """Our value of the rest of the deal, ``turn`` to play onto ``trick``."""
        return self._choose(hands, list(trick), turn, -INF, INF, depth, (0,) * self.n)

    def _choose(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        alpha: float,
        beta: float,
        depth: int,
        got: Points,
    ) -> float:
        self.nodes += 1
        if self.nodes & 15 == 0 and self.deadline is not None and clock.now() > self.deadline:
            self.node_limit = -1
        hand = hands[turn]
        if turn in self.modelled:
            card = self.policy(hand, trick, turn)
            hands[turn] = hand & ~(1 << card)
            trick.append((turn, card))
            v = self._next(hands, trick, turn, alpha, beta, depth, got)
            trick.pop()
            hands[turn] = hand
            return v
        key = None
        best_move = None
        if not trick:
            key = (tuple(hands), turn, got)
            entry = self.ftt.get(key)
            if entry is not None:
                val = settled(entry, depth, alpha, beta)
                if val is not None:
                    return val
                best_move = entry[3]
        maximize = turn == self.me
        alpha0, beta0 = alpha, beta
        best: float = -INF if maximize else INF
        chosen = -1
        legal = self.legal(hand, trick, turn)
        for card in self._moves(hands, trick, turn, legal, best_move):
            hands[turn] = hand & ~(1 << card)
            trick.append((turn, card))
            v = self._next(hands, trick, turn, alpha, beta, depth, got)
            trick.pop()
            hands[turn] = hand
            if maximize:
                if v > best:
                    best, chosen = v, card
                    alpha = max(alpha, v)
            elif v < best:
                best, chosen = v, card
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            self.ftt[key] = (depth, bound(best, alpha0, beta0), best, chosen)
        return best

    def _next(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        alpha: float,
        beta: float,
        depth: int,
        got: Points,
    ) -> float:
        """Continue after ``turn`` put a card on ``trick``."""
        if len(trick) < self.n:
            return self._choose(hands, trick, (turn + 1) % self.n, alpha, beta, depth, got)
        winner = self.winner(trick)
        gained = sum(self.points[c] for _, c in trick)
        rest = any(hands)
        if not rest:
            gained += self.last_bonus
        after = tuple(g + (gained if x == winner else 0) for x, g in enumerate(got))
        if not rest:
            return self.final(after)
        saved = trick[:]
        trick.clear()
        if self.node_limit < 0:
            v = self.final(_plus(after, self.likely(hands)))
        elif depth <= 1 or self.nodes > self.node_limit:
            v = self.final(_plus(after, self.playout(hands, winner)))
        else:
            v = self._choose(hands, trick, winner, alpha, beta, depth - 1, after)
        trick.extend(saved)
        return v

    def likely(self, hands: Sequence[int]) -> Points:
        """Out of time: each seat takes a share of the points it holds (trumps and aces
        most surely), as ``Solver.estimate`` reckons them."""
        points, strength = self.points, self.strength
        out = []
        for hand in hands:
            total = 0.0
            for c in cards_of(hand):
                sure = 0.8 if strength[c] >= 105 or (c & 7) == 7 else 0.4
                total += points[c] * sure + (6 if strength[c] >= 100 else 0)
            out.append(int(total))
        return tuple(out)


def _plus(a: Points, b: Points) -> Points:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _keep_value(card: int, trump: int, points: int) -> float:
    """The heuristic bot's ``_keep_value``: how much it would rather keep a card."""
    if card >> 3 == trump:
        return points + 30 + TRUMP_STRENGTH[card & 7] * 0.1
    return points + PLAIN_STRENGTH[card & 7] * 0.1
