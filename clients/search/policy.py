"""The search bot's decisions: every choice is tried in sampled worlds and the one with
the best average outcome (what the deal writes for us less the others) is taken.

- Cards: each world is solved by ``Solver`` (exactly near the end of the deal, a few
  tricks deep plus an estimate early on) for every legal card.
- Bidding (``igrayu``/``pas``, the round-two suits, four sevens): each choice is played
  on in the world through the engine; the other seats bid as the heuristic bot would;
  once a game is ordered the world is solved from the first card.
- The seven swap and the declarations (declare, ``rost?``, ``ot-…``/``pishet``): each
  world is valued with and without; bella and ``pokazhi`` cost nothing and are always
  taken, ``prokhodit?`` is never asked (it only tells the opponents about our trumps).
- Tertz: the cards are searched in worlds of the engine's ``TertzDeal`` (``tertz.py``);
  its other calls are the heuristic bot's.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Sequence

import attrs

from clients import heuristic_bot
from clients.protocol import View
from deberc_net.game import calls as C
from deberc_net.game.cards import SUITS, card_str
from deberc_net.game.deal import BIDDING, PLAY, Deal
from deberc_net.game.rules import RuleSet
from deberc_net.plugins import RuleBook

from . import clock, tertz
from .evaluate import (
    expected_bella,
    expected_combos,
    lead,
    score_points,
    teams,
    written_points,
    written_value,
)
from .history import DealHistory, Tracker, is_card
from .solver import Solver
from .whistler import Playout, WhistlerSolver
from .world import BID_SCALE, worlds


@attrs.frozen
class Level:
    samples: int  # worlds per decision (fewer if the clock runs out)
    depth: int  # tricks searched before estimating, early in the deal
    exact: int  # cards left in hand at which the search goes to the end
    bid_samples: int
    # thinking time per decision unless told (--ms): about what the level's worlds and
    # depth need; at one time for all, the higher levels were cut short (docs/bots.md)
    ms: int


LEVELS = {
    1: Level(samples=3, depth=1, exact=2, bid_samples=8, ms=50),
    2: Level(samples=6, depth=1, exact=4, bid_samples=24, ms=100),
    3: Level(samples=20, depth=2, exact=5, bid_samples=96, ms=200),
    4: Level(samples=40, depth=2, exact=6, bid_samples=160, ms=500),
    5: Level(samples=80, depth=3, exact=7, bid_samples=256, ms=1000),
}
DEFAULT_LEVEL = 3
TERTZ = "tertz"  # its cards are searched in worlds of its own (search/tertz.py)
# of --ms, the time the sampling and search may take: a world or solver passes its
# deadline by a little, and answering takes a little more
TIME_SHARE = 0.85
MIN_WORLDS = 12  # card play on fewer worlds is a guess: search shallower to get them
MAX_SHALLOWER = 3
WIN_BONUS = 150  # on a one-deal board: what winning the match is worth, in deal points
ORDER_MARGIN = 10  # points per deal an order must promise above a pass
OWN_SHARE = 0.75  # three players: what a whistler's own point is worth above a shared one
DEBUG = bool(os.environ.get("SEARCH_DEBUG"))  # print each decision's values to stderr


def level_error(level: int) -> str | None:
    """Why ``level`` is no level (to follow the setting's name), or None."""
    if level in LEVELS:
        return None
    return f"must be one of {', '.join(map(str, sorted(LEVELS)))}, not {level}"


def ms_error(ms: int) -> str | None:
    """Why ``ms`` is no time per decision (to follow the setting's name), or None."""
    return None if ms >= 1 else f"must be at least 1 (milliseconds a decision), not {ms}"


def _valid_level(player: SearchPlayer, attribute: attrs.Attribute[int], level: int) -> None:
    if (error := level_error(level)) is not None:
        raise ValueError(f"level {error}")


def _valid_ms(player: SearchPlayer, attribute: attrs.Attribute[int], ms: int) -> None:
    if (error := ms_error(ms)) is not None:
        raise ValueError(f"ms {error}")


def _level_ms(player: SearchPlayer) -> int:
    """The default of ``ms``: the level's time (the level is checked first: defaults come
    before validators)."""
    _valid_level(player, attrs.fields(SearchPlayer).level, player.level)
    return LEVELS[player.level].ms


@attrs.define
class SearchPlayer:
    level: int = attrs.field(default=DEFAULT_LEVEL, validator=_valid_level)
    # per decision, in milliseconds: the level's own (Level.ms) unless given
    ms: int = attrs.field(
        default=attrs.Factory(_level_ms, takes_self=True),
        validator=_valid_ms,
    )
    seed: str | None = None
    tracker: Tracker = attrs.Factory(Tracker)
    rng: random.Random = attrs.Factory(random.Random)
    fallbacks: int = 0  # decisions the search could not make (no history, no world)
    strict: bool = False  # raise what goes wrong instead of playing on (tests)
    _deadline: float | None = None  # of the world being solved
    _shallower: int = 0  # steps below the level's depth, for this decision's worlds
    _timed_out: bool = False  # a solver of this world ran out of its time
    # the rules installed here, as the server loads them (its plugins must be installed)
    book: RuleBook = attrs.Factory(RuleBook.load)
    # tuning switches (bench/search_duel.py sets them): 0 keeps the level's number
    bid_worlds: int = 0
    order_margin: float = ORDER_MARGIN
    bid_scale: float = BID_SCALE  # 0: the bids keep or reject a world by the threshold
    own_share: float = OWN_SHARE
    win_bonus: float = WIN_BONUS
    # the same with three players: tried at 150 on paired boards, it lost points (docs/bots.md)
    win_bonus_three: float = 0.0
    # three players: a whistler's cards searched with each seat's points apart (whistler.py)
    whistler_search: bool = True
    # ... the player in it played by the heuristic bot's card rule, not as a perfect
    # minimiser who sees every card (a switch to try: docs/bots.md)
    whistler_model_player: bool = False
    # three players: a bid's playout has the other seats play the heuristic bot's cards
    bid_model_playout: bool = True
    # ... and our own seat's too, not the playout's quick habits, which undervalue an
    # order by some 25 points; yet at 200 ms the ladder showed no gain (docs/bots.md)
    bid_own_policy: bool = False

    def __attrs_post_init__(self) -> None:
        if self.seed is not None:
            self.rng.seed(self.seed)

    @property
    def settings(self) -> Level:
        return LEVELS[self.level]

    def ruleset(self, players: int) -> RuleSet:
        r = self.tracker.rules
        return self.book.ruleset(players, r.variant, r.options)  # cached by the book

    # -------------------------------------------------------------- entry point
    def choose(self, view: View) -> str:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        history = self.tracker.history(view)
        if history is None or view.seat is None:
            self.fallbacks += 1
            return heuristic_bot.choose(view)
        players = view.players
        try:
            rules = self.ruleset(players)
            if self.tracker.rules.variant == TERTZ:
                choice = self._tertz(view, history, rules)
            else:
                choice = self._choose(view, history, rules)
        except Exception:  # a world the model cannot read: play on sensibly
            if self.strict:
                raise
            choice = None
        if choice is None or choice not in legal:
            self.fallbacks += 1
            return heuristic_bot.choose(view)
        return choice

    def _choose(self, view: View, history: DealHistory, rules: RuleSet) -> str | None:
        legal = view.legal
        deadline = clock.now() + self.ms * TIME_SHARE / 1000
        self._deadline = deadline
        self._shallower = 0
        if view.phase == BIDDING:
            return self._bid(view, history, rules, deadline)
        if view.phase != PLAY:
            return heuristic_bot.choose(view)  # a rule plugin's phase: no model of it
        if "konets" in legal:
            return self._claim(view, history, rules)
        for free in ("bella", "pokazhi", "skin"):
            if free in legal:
                return free
        answers = [t for t in legal if t.startswith("ot-")]
        if answers and "pishet" in legal:
            return answers[0]  # ours is better: saying so only adds points
        if view.pending is not None:
            return heuristic_bot.choose(view)  # the other answers are forced or a plugin's
        talk = [
            t
            for t in legal
            if t.endswith(heuristic_bot.DECLARATIONS) or t in (C.ROST, C.MENYAYU, C.SEVENS)
        ]
        cards = [t for t in legal if is_card(t)]
        if not cards:
            return heuristic_bot.choose(view)
        return self._play(view, history, rules, talk, cards, deadline)

    # ------------------------------------------------------------------ Tertz
    def _tertz(self, view: View, history: DealHistory, rules: RuleSet) -> str | None:
        """Tertz: the cards by search; everything else (declarations, mariage, the seven
        exchange, lomayu-N) as the heuristic bot says."""
        said = heuristic_bot.choose(view)
        if view.phase != PLAY or view.pending is not None or not is_card(said):
            return said
        seat = view.seat
        assert seat is not None
        level = self.settings
        deadline = clock.now() + self.ms * TIME_SHARE / 1000
        left = len(view.hand)
        talon = int(view.raw.get("talon", "0") or 0)
        exact = 4 if level.depth >= 3 else 3  # cards each, the talon gone: to the end
        depth = 99 if talon == 0 and left <= exact else (0 if level.depth < 2 else level.depth - 1)
        totals: dict[str, float] = {}
        for deal in tertz.worlds(view, history, rules, self.rng, level.samples, deadline):
            values = tertz.values_in(deal, seat, depth, deadline, node_limit=4_000)
            for token, value in values.items():
                totals[token] = totals.get(token, 0.0) + value
            if clock.now() > deadline:
                break
        if not totals:
            return None
        if DEBUG:
            print("tertz", view.hand, view.trick, totals, file=sys.stderr)
        return max(totals, key=lambda t: totals[t])

    # ------------------------------------------------------------------- play
    def _play(
        self,
        view: View,
        history: DealHistory,
        rules: RuleSet,
        talk: list[str],
        cards: list[str],
        deadline: float,
    ) -> str | None:
        seat = view.seat
        assert seat is not None
        level = self.settings
        totals: dict[str, float] = {}
        counts: dict[str, int] = {}
        samples = 0
        self._shallower = 0
        wanted = min(MIN_WORLDS, level.samples)
        since, since_samples = clock.now(), 0  # the pace at the current depth
        for deal in worlds(
            view,
            history,
            rules,
            self.rng,
            level.samples,
            deadline=deadline,
            bid_scale=self.bid_scale,
        ):
            # a world may take twice its share of the time left; one that takes longer
            # is dropped, and the next ones are searched less deep
            now = clock.now()
            share = (deadline - now) / max(1, wanted - samples)
            self._deadline = min(deadline, now + 2 * share)
            self._timed_out = False
            values = self.values_in(deal, seat, talk, deadline)
            now = clock.now()
            if self._timed_out and now < deadline and self._shallower < MAX_SHALLOWER:
                self._shallower += 1
                since, since_samples = now, samples
                continue
            for token, value in values.items():
                totals[token] = totals.get(token, 0.0) + value
                counts[token] = counts.get(token, 0) + 1
            samples += 1
            if now > deadline:
                break
            # at this pace fewer than ``wanted`` worlds: search the next ones less deep
            per_world = (now - since) / (samples - since_samples)
            if samples + (deadline - now) / per_world < wanted and self._shallower < MAX_SHALLOWER:
                self._shallower += 1
                since, since_samples = now, samples
        if not totals:
            return None
        if DEBUG:
            print(
                "play",
                view.hand,
                view.trick,
                samples,
                self._shallower,
                {t: round(v / counts[t]) for t, v in totals.items()},
                file=sys.stderr,
            )
        return max(totals, key=lambda t: totals[t] / counts[t])

    def values_in(
        self, deal: Deal, seat: int, talk: list[str], deadline: float
    ) -> dict[str, float]:
        """The value of each choice open to ``seat`` in one world (``deal``, in play,
        every hand known, ``seat`` to play a card: no question pending), as ``worth``
        counts what the deal writes: each legal card's (the world solved from here;
        three players, a whistler's with each seat's points apart, ``whistler_search``),
        and each call of ``talk`` the seat may say before its card (a declaration,
        ``menyayu``, four sevens). A decision's card play takes the best average of these
        over its worlds. ``deadline`` is not read: the solvers stop at the bot's own for
        the world (none before its first decision)."""
        del deadline
        out: dict[str, float] = {}
        best_card, card_values = self._card_values(deal, seat)
        for token, v in card_values.items():
            out[token] = v
        if not talk:
            return out
        base = card_values[best_card]
        declaring = [t for t in talk if t not in (C.MENYAYU, C.SEVENS)]
        if declaring:
            future = self._future(deal, seat)
            silent = expected_combos(deal, {seat: False})
            spoken = expected_combos(deal, {seat: True})
            gain = written_value(deal, seat, future, spoken) - written_value(
                deal, seat, future, silent
            )
            for t in declaring:
                out[t] = base + gain + 0.01  # equal: say it (it only adds)
        if C.SEVENS in talk:
            out[C.SEVENS] = 0.0  # the same dealer deals again: nobody writes
        if C.MENYAYU in talk:
            swapped = _copy_with(deal, seat, C.Call(C.MENYAYU))
            if swapped is not None:
                _, after = self._card_values(swapped, seat)
                out["menyayu"] = max(after.values()) + 0.01
        return out

    def _future(self, deal: Deal, seat: int) -> float:
        solver, hands, trick, turn, depth = self._solver(deal, seat)
        value = solver.value(hands, trick, turn, depth)
        self._timed_out |= solver.node_limit < 0
        return value

    def _solver(
        self, deal: Deal, seat: int
    ) -> tuple[Solver, list[int], list[tuple[int, int]], int, int]:
        assert deal.trump is not None
        s = deal.rules.settings
        solver = Solver(
            deal.trump,
            teams(deal, seat),
            last_bonus=s.last_trick_bonus,
            partner_exemption=s.partner_exemption,
            side=[deal.side_of(x) for x in range(deal.players)],
            node_limit=60_000,
            deadline=self._deadline,
        )
        hands = [sum(1 << c for c in h) for h in deal.hands]
        left = max(len(h) for h in deal.hands)
        level = self.settings
        exact = level.exact + (2 if deal.players == 2 else 0)
        deep = level.depth + (1 if deal.players == 2 else 0)
        steps = ([99] if left <= exact else []) + list(range(deep, 0, -1))
        depth = steps[min(self._shallower, len(steps) - 1)]
        turn = deal.to_act
        assert turn is not None
        return solver, hands, list(deal.trick.cards), turn, depth

    def _card_values(self, deal: Deal, seat: int) -> tuple[str, dict[str, float]]:
        if self.whistler_search and _whistling_three(deal, seat):
            return self._whistler_values(deal, seat)
        solver, hands, trick, turn, depth = self._solver(deal, seat)
        raw = solver.move_values(hands, trick, turn, depth)
        self._timed_out |= solver.node_limit < 0
        written: dict[int, float] = {}  # cards of equal card value write alike
        for v in raw.values():
            if v not in written:
                written[v] = self.worth(deal, seat, written_points(deal, seat, v))
        values = {card_str(c): written[v] for c, v in raw.items()}
        own = self._own_share(deal, seat, solver, trick)
        if own is not None:
            for c in raw:
                values[card_str(c)] += own(c)
        best = max(values, key=lambda t: values[t])
        return best, values

    def _whistler_values(self, deal: Deal, seat: int) -> tuple[str, dict[str, float]]:
        """Three players, our seat a whistler: each seat's points kept apart
        (``WhistlerSolver``), each line valued by what the deal writes for us."""
        solver, hands, trick, turn, depth = self._solver(deal, seat)
        assert deal.trump is not None and deal.player is not None
        combos = expected_combos(deal)
        bella = expected_bella(deal)
        side_of = [deal.side_of(x) for x in range(3)]
        base = [deal.tally.card_points[s] + combos[s] + bella[s] for s in side_of]
        scored: dict[tuple[int, ...], float] = {}

        def score(final: tuple[int, ...]) -> float:
            value = scored.get(final)
            if value is None:
                by_side = [0.0] * 3
                for x, p in enumerate(final):
                    by_side[side_of[x]] = p
                written = score_points(deal, by_side, combos, bella)
                value = scored[final] = self.worth(deal, seat, written)
            return value

        other = next(x for x in range(3) if x not in (seat, deal.player))
        whistling = WhistlerSolver(
            deal.trump,
            seat,
            other,
            deal.player,
            score,
            base,
            last_bonus=deal.rules.settings.last_trick_bonus,
            node_limit=solver.node_limit,
            deadline=self._deadline,
            model_player=self.whistler_model_player,
        )
        raw = whistling.card_values(hands, trick, turn, depth)
        self._timed_out |= whistling.node_limit < 0
        values = {card_str(c): v for c, v in raw.items()}
        return max(values, key=lambda t: values[t]), values

    def _own_share(
        self, deal: Deal, seat: int, solver: Solver, trick: list[tuple[int, int]]
    ) -> Callable[[int], float] | None:
        """Three players: each whistler writes his own card points, but the solver plays
        the whistlers as one side and the value splits their future points equally. A
        trick this whistler completes goes to him or to the other whistler for sure: a
        point of it written for him rather than shared is worth 3/4 more to him (he has
        half a point more, the others on average a quarter less), one the other takes 3/4
        less. None where it does not apply."""
        n = deal.players
        if n != 3 or deal.player is None or seat == deal.player or len(trick) != n - 1:
            return None
        if not self.own_share:
            return None
        points = solver.points

        def own(card: int) -> float:
            done = [*trick, (seat, card)]
            winner = solver.winner(done)
            if winner == deal.player:
                return 0.0
            got = sum(points[c] for _, c in done)
            return self.own_share * (got if winner == seat else -got)

        return own

    def _claim(self, view: View, history: DealHistory, rules: RuleSet) -> str:
        seat = view.seat
        assert seat is not None
        found = list(worlds(view, history, rules, self.rng, 1))
        if found and found[0].running_total(found[0].side_of(seat)) >= (view.target or 0):
            return "konets"
        return next(t for t in view.legal if t != "konets")

    # ---------------------------------------------------------------- bidding
    def _bid(self, view: View, history: DealHistory, rules: RuleSet, deadline: float) -> str | None:
        seat = view.seat
        assert seat is not None
        options = list(view.legal)
        totals = dict.fromkeys(options, 0.0)
        samples = 0
        wanted = self.bid_worlds or self.settings.bid_samples
        for deal in worlds(
            view, history, rules, self.rng, wanted, deadline=deadline, bid_scale=self.bid_scale
        ):
            for token in options:
                totals[token] += self._bid_value(deal, seat, token)
            samples += 1
            if clock.now() > deadline:
                break
        if not samples:
            return None
        if DEBUG:
            print(
                "bid",
                samples,
                view.hand,
                view.turned,
                view.talk,
                {t: round(v / samples) for t, v in totals.items()},
                file=sys.stderr,
            )
        # a perfect-information playout flatters whoever orders (he "knows" the talon):
        # ordering must promise a little more than passing
        return max(
            options,
            key=lambda t: (
                totals[t] / samples - (self.order_margin if t.startswith(C.IGRAYU) else 0)
            ),
        )

    def _bid_value(self, deal: Deal, seat: int, token: str) -> float:
        """Play ``token`` in this world, the others bidding as the heuristic bot, our later
        bids the best of ours; then solve the ordered game from its first card."""
        world = deal.copy()
        world.apply(seat, C.parse_token(token))
        return self._bidding_on(world, seat)

    def _bidding_on(self, world: Deal, seat: int) -> float:
        # Later bids, ours included, follow the model: choosing ours here with the
        # world's hidden cards in view would value passing as if we could see them.
        while world.phase == BIDDING:
            turn = world.turn
            legal = [c.token() for c in world.legal_calls(turn) if c.name != C.SEVENS]
            world.apply(turn, C.parse_token(_model_bid(world, turn, legal)))
        if world.phase != PLAY:
            return 0.0  # a void deal: nobody writes
        # a quick playout, not a search: bidding needs many worlds more than deep ones
        if world.players == 3 and self.bid_model_playout:
            return self.three_playout_value(world, seat)
        solver, hands, _, turn, _ = self._solver(world, seat)
        written = written_points(world, seat, solver.rollout(hands, turn))
        return self.worth(world, seat, written)

    def three_playout_value(self, world: Deal, seat: int) -> float:
        """Three players: what a bid is worth to ``seat`` in one world (``world``, the
        game ordered, every hand known), as ``worth`` counts it: the game played out
        from here with the other two seats playing the heuristic bot's cards (as they
        bid, in ``_model_bid``), ours by the playout's quick habits (or by the heuristic
        bot's too, ``bid_own_policy``), each seat's points apart, scored as the deal
        writes them. A bid's value with ``bid_model_playout``."""
        assert world.trump is not None and world.to_act is not None
        modelled = [x for x in range(3) if x != seat or self.bid_own_policy]
        playout = Playout(
            world.trump,
            teams(world, seat),
            modelled,
            last_bonus=world.rules.settings.last_trick_bonus,
        )
        hands = [sum(1 << c for c in h) for h in world.hands]
        got = playout.playout(hands, world.to_act)
        combos = expected_combos(world)
        bella = expected_bella(world)
        points = [0.0] * 3
        for x in range(3):
            side = world.side_of(x)
            points[side] = world.tally.card_points[side] + combos[side] + bella[side] + got[x]
        return self.worth(world, seat, score_points(world, points, combos, bella))

    def worth(self, deal: Deal, seat: int, written: Sequence[float]) -> float:
        """What a deal that writes ``written`` (by side) is worth to ``seat``: what its
        side writes less the others' mean and, on a ladder board (a match of one deal),
        the match's result too, so a sure small win beats a gamble on a big one. With
        three sides the result is counted against each other side, as the ladder
        scores a three-player deal: one game for every pair of seats."""
        mine = deal.side_of(seat)
        diff = lead(written, mine)
        if not self.tracker.one_deal:
            return diff
        others = [w for i, w in enumerate(written) if i != mine]
        beaten = sum((written[mine] > w) - (written[mine] < w) for w in others)
        bonus = self.win_bonus if len(others) == 1 else self.win_bonus_three
        return diff + bonus * beaten / len(others)


def _whistling_three(deal: Deal, seat: int) -> bool:
    return deal.players == 3 and deal.player is not None and seat != deal.player


def _model_bid(deal: Deal, seat: int, legal: list[str]) -> str:
    """How another seat bids in our simulation: as the heuristic bot does."""
    hand = list(deal.hands[seat])
    if C.IGRAYU in legal:
        trump = deal.original_turned >> 3
        worth = heuristic_bot.hand_strength([*hand, deal.original_turned], trump) - 5
        return C.IGRAYU if worth >= heuristic_bot.ORDER_THRESHOLD else C.PAS
    named = [t for t in legal if t.startswith("igrayu-")]
    if not named:
        return C.PAS if C.PAS in legal else legal[0]
    best = max(named, key=lambda t: heuristic_bot.hand_strength(hand, SUITS.index(t[-1])))
    strong = heuristic_bot.hand_strength(hand, SUITS.index(best[-1]))
    if C.PAS not in legal or strong >= heuristic_bot.ORDER_THRESHOLD:
        return best
    return C.PAS


def _copy_with(deal: Deal, seat: int, call: C.Call) -> Deal | None:
    copy = deal.copy()
    if call not in copy.legal_calls(seat):
        return None
    copy.apply(seat, call)
    return copy
