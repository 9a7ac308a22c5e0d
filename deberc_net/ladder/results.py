"""A ladder's results: each finished game goes into the pair statistics, the ratings
and the SPRT, in schedule order whatever order the games end in, so a seeded ladder
gives the same summary with one copy of each bot or many."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from deberc_net.protocol.wire import MatchEnd

from .ratings import Ratings
from .schedule import Game, board_deals, board_games, set_size
from .stats import PairStats
from .store import StoredGame

if TYPE_CHECKING:
    from clients.client import Stats

    from .runner import LadderOptions


@attrs.frozen
class GameResult:
    game: Game
    written: list[int]  # by side
    reason: str
    match_id: str | None
    forfeit: str | None  # the bot that lost by forfeit

    @classmethod
    def of(cls, game: Game, end: MatchEnd, match_id: str | None) -> GameResult:
        loser = game.seating[end.forfeit] if end.forfeit is not None else None
        return cls(game, end.totals, end.reason, match_id, loser)

    def stored(self) -> StoredGame:
        """As the ladder's store keeps it."""
        game = self.game
        return StoredGame(
            game.board, list(game.seating), self.match_id, self.written, self.reason, self.forfeit
        )


@attrs.define
class Summary:
    options: LadderOptions
    seed: str  # the ladder's seed: the one given, or the random one drawn for this run
    games: int = 0
    deals: int = 0  # the deals played out: the games less those lost by forfeit
    seconds: float = 0.0
    pairs: dict[tuple[str, str], PairStats] = attrs.Factory(dict)
    ratings: Ratings | None = None
    crashes: Counter[str] = attrs.Factory(Counter)
    forfeits: Counter[str] = attrs.Factory(Counter)
    # of those, the games whose match never started: the bot never sat down (a bot
    # that does not 'seek reserved' again after its match, docs/bots.md "Ladders")
    unseated: Counter[str] = attrs.Factory(Counter)
    # the in-process bots' own faults (docs/bots.md "A bot's faults"): asks answered
    # with the first legal call, exceptions of choose or pick, each bot's first fault
    fallbacks: Counter[str] = attrs.Factory(Counter)
    bot_errors: Counter[str] = attrs.Factory(Counter)
    first_faults: dict[str, str] = attrs.Factory(dict)
    # the in-process bots' connections the server cut (or that broke), each connected
    # again after: their seats were away meanwhile (docs/bots.md "A bot's drops")
    reconnects: Counter[str] = attrs.Factory(Counter)
    sprt_verdict: str | None = None
    sprt_pairs_after: int = 0  # duplicate pairs finished after the verdict, not in its LLR
    games_by_bot: Counter[str] = attrs.Factory(Counter)
    results: list[GameResult] = attrs.Factory(list)
    # the calls the clock made for each bot, and where its first was (clock_calls.py)
    clock_calls: Counter[str] = attrs.Factory(Counter)
    first_clock_calls: dict[str, str] = attrs.Factory(dict)
    # why they could not be counted (the count is best-effort: the run is stored anyway)
    clock_calls_missing: str | None = None
    # the games whose table closed with no match-end while the server played on (a
    # failed table whose end could not be told): each its board, seating, table and
    # the server's words; counted cut, never played again (docs/bots.md, "Cut games")
    cut: list[dict[str, Any]] = attrs.Factory(list)

    def as_dict(self) -> dict[str, Any]:
        o = self.options
        return {
            "bots": [b.name for b in o.bots],
            "players": o.players,
            "variant": o.variant,
            "options": sorted(o.options),
            "seed": self.seed,
            "random_seed": o.seed is None,
            "boards": o.deals,
            # fewer than ``boards`` when the SPRT stopped the ladder early
            "boards_played": len({r.game.board for r in self.results}),
            "schedule": o.mode,
            "games": self.games,
            "deals": self.deals,
            "seconds": round(self.seconds, 2),
            "deals_per_second": round(self.deals / self.seconds, 2) if self.seconds else 0.0,
            "lag_ms": o.lag_ms,
            "ratings": self.ratings.table() if self.ratings else [],
            "pairs": [p.as_dict() for p in self.ordered_pairs()],
            "crashes": dict(self.crashes),
            "forfeits": dict(self.forfeits),
            "unseated": dict(self.unseated),
            **self.faults(),
            **self.clock_calls_told(),
            "sprt": None
            if o.sprt is None
            else {
                "first": o.bots[0].name,  # the bot the hypotheses are about
                "second": o.bots[1].name,
                "elo0": o.sprt.elo0,
                "elo1": o.sprt.elo1,
                "alpha": o.sprt.alpha,
                "beta": o.sprt.beta,
                "pairs": len(o.sprt.scores),
                "llr": round(o.sprt.llr(), 3),
                "bounds": [round(b, 3) for b in o.sprt.bounds],
                "verdict": self.sprt_verdict,
                "pairs_after_verdict": self.sprt_pairs_after,
            },
            "cut": list(self.cut),
        }

    def clock_calls_told(self) -> dict[str, Any]:
        """The clock's calls as ``as_dict`` tells them; not counted: why, and no counts
        (none is not 0, as a run's stored before they were counted)."""
        if self.clock_calls_missing is not None:
            return {"clock_calls_missing": self.clock_calls_missing}
        return {
            "clock_calls": dict(self.clock_calls),
            "first_clock_calls": dict(self.first_clock_calls),
        }

    def count_faults(self, copies: list[tuple[str, Stats]]) -> None:
        """The in-process copies' stats, by bot, once they have stopped."""
        from clients.client import own_exceptions  # only a ladder with in-process bots

        for bot, stats in copies:
            raised = own_exceptions(stats)
            first = {} if stats.first_fault is None else {bot: stats.first_fault}
            self.add_faults({bot: stats.fallbacks}, {bot: raised}, first, {bot: stats.reconnects})

    def faults(self) -> dict[str, Any]:
        """The bots' own faults, as ``as_dict`` (and a ``--processes`` part) tells them."""
        return {
            "fallbacks": dict(self.fallbacks),
            "bot_errors": dict(self.bot_errors),
            "first_faults": dict(self.first_faults),
            "reconnects": dict(self.reconnects),
        }

    def add_faults(
        self,
        fallbacks: dict[str, int],
        bot_errors: dict[str, int],
        first_faults: dict[str, str],
        reconnects: dict[str, int] | None = None,
    ) -> None:
        """Faults counted elsewhere (a copy, a part) added in; a bot's first fault kept."""
        self.fallbacks.update({b: n for b, n in fallbacks.items() if n})
        self.bot_errors.update({b: n for b, n in bot_errors.items() if n})
        self.reconnects.update({b: n for b, n in (reconnects or {}).items() if n})
        for bot, fault in first_faults.items():
            self.first_faults.setdefault(bot, fault)

    def ordered_pairs(self) -> list[PairStats]:
        """Every pair in the order of the ``--bot`` options (docs/bots.md)."""
        rank = {b.name: i for i, b in enumerate(self.options.bots)}
        return sorted(self.pairs.values(), key=lambda p: (rank[p.a], rank[p.b]))


def rating_teams(
    bots_by_side: list[str], points_by_side: list[int], loser: str | None = None
) -> tuple[list[str], list[float]]:
    """One team per bot: a bot filling two seats of a three-player game (its two copies)
    is one team, scored by its seats' mean points, so its rating moves like anyone's.
    A forfeit is a loss (docs/bots.md): the ``loser``'s team ranks last, the others
    share the first rank, whatever the points written before it."""
    points: dict[str, list[int]] = {}
    for bot, value in zip(bots_by_side, points_by_side, strict=True):
        points.setdefault(bot, []).append(value)
    if loser is not None:
        return list(points), [0.0 if bot == loser else 1.0 for bot in points]
    return list(points), [sum(v) / len(v) for v in points.values()]


class Results:
    """Takes games as they end (by schedule index), counts them in schedule order."""

    def __init__(
        self,
        options: LadderOptions,
        summary: Summary,
        on_counted: Callable[[int], None] | None = None,
        on_verdict: Callable[[], None] | None = None,
    ) -> None:
        self.o = options
        self.summary = summary
        self.on_counted = on_counted
        self.on_verdict = on_verdict
        self._waiting: dict[int, GameResult | None] = {}  # (None: a game cut, no result)
        self._next = 0
        # the SPRT's games by board: a board, all its seatings (both duplicate sets at
        # three players), is one of its observations, since they share its deck
        self._board_results: dict[int, list[float]] = {}
        self._order = [b.name for b in options.bots]  # each pair's first, as --bot gave them
        self._board_deals = board_deals(self._order, options.players, options.mode)
        self._board_games = board_games(self._order, options.players, options.mode)

    def add(self, index: int, game: Game, end: MatchEnd, match_id: str | None) -> None:
        self.add_result(index, GameResult.of(game, end, match_id))

    def add_result(self, index: int, result: GameResult | None) -> None:
        """A game's result, by its index in the schedule (a distributed ladder's come
        from the store); None for a game cut (``Summary.cut``): those after it are not
        kept waiting for it."""
        self._waiting[index] = result
        while self._next in self._waiting:
            counted = self._waiting.pop(self._next)
            if counted is not None:
                self._count(counted)
            self._next += 1
            if self.on_counted is not None:
                self.on_counted(self.summary.games)

    @property
    def pending(self) -> int:
        return len(self._waiting)

    def count_the_rest(self) -> None:
        """Every part has ended after an SPRT stop: the games still waiting for an earlier
        one are counted, in schedule order. That one never comes: its board, dealt to
        another part, was cleared from its queue unplayed (``--processes``); theirs were
        played and stored, so the summary has them too."""
        while self._waiting:
            self._next = min(self._waiting)  # past the gap: the rest in order from it
            self.add_result(self._next, self._waiting.pop(self._next))

    def _sides(self) -> list[tuple[int, ...]]:
        players = self.o.players
        return [(s, s + 2) for s in range(2)] if players == 4 else [(s,) for s in range(players)]

    def _count(self, result: GameResult) -> None:
        game, totals, loser = result.game, result.written, result.forfeit
        s = self.summary
        bots = [game.seating[side[0]] for side in self._sides()]
        s.games += 1
        # a game is a one-deal board: lost by forfeit, its deal was never played out
        s.deals += 0 if loser is not None else 1
        s.results.append(result)
        for bot in set(bots):
            s.games_by_bot[bot] += 1
        if loser is not None:
            s.forfeits[loser] += 1
            if result.match_id is None:  # no match started: his seat stayed empty
                s.unseated[loser] += 1
        count_pairs(
            s.pairs,
            game.key,
            set_size(game.seating),
            bots,
            totals,
            loser,
            self._order,
            self._board_deals,
        )
        if s.ratings is not None:
            teams, points = rating_teams(bots, totals, loser)
            s.ratings.update(teams, points)
        self._sprt_step(game, bots, totals, loser)

    def _sprt_step(self, game: Game, bots: list[str], totals: list[int], loser: str | None) -> None:
        sprt = self.o.sprt
        if sprt is None or len(self.o.bots) != 2:
            return
        first = self.o.bots[0].name
        if loser is not None:
            result = 0.0 if loser == first else 1.0
        else:
            # each pair of the two bots' seats is a deal, as the pairs' Elo counts it
            # (three players, (a, a, b): two deals a seating); the sum of a bot's two
            # seats against the other's one would win for whichever sits twice
            deals = [
                _deal_score(ti - tj if bi == first else tj - ti)
                for (bi, ti), (bj, tj) in itertools.combinations(zip(bots, totals, strict=True), 2)
                if bi != bj
            ]
            result = sum(deals) / len(deals)
        results = self._board_results.setdefault(game.board, [])
        results.append(result)
        if len(results) == self._board_games:
            if self.summary.sprt_verdict is not None:
                # a pair the games running at the verdict finished: in the totals, not in
                # the test, whose LLR stays the one that decided (docs/bots.md "SPRT")
                self.summary.sprt_pairs_after += 1
                return
            sprt.scores.append(sum(results) / len(results))
            verdict = sprt.verdict()
            if verdict is not None:
                self.summary.sprt_verdict = verdict
                if self.on_verdict is not None:
                    self.on_verdict()  # stop: the games already running still finish


def _deal_score(diff: int) -> float:
    return 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5


def count_pairs(
    pairs: dict[tuple[str, str], PairStats],
    key: tuple[int, tuple[str, ...]],
    seatings_per_board: int,
    bots: list[str],
    totals: list[int],
    loser: str | None,
    order: Sequence[str] = (),
    deals_per_board: Mapping[frozenset[str], int] | None = None,
) -> list[tuple[str, str]]:
    """Counts one game (``bots`` and ``totals`` by side; a board of the game's bots has
    ``seatings_per_board``) into every pair of different bots that met in it, each pair
    first against second in ``order`` (the ``--bot`` options'; without it, by name);
    returns the pairs it counted for (the web page's
    Elo plot replays stored games through this, so it matches the table).
    ``deals_per_board`` (schedule.board_deals) is each pair's deals on a complete
    board; without it, the game's group's alone (all a board has with two or four
    players, not with three and two bots, or more than three)."""
    counted: list[tuple[str, str]] = []
    met = [(i, j) for i, j in _pairs(len(bots)) if bots[i] != bots[j]]
    for i, j in met:
        a, b = bots[i], bots[j]
        first = (order.index(a) < order.index(b)) if order else a < b
        pair_key = (a, b) if first else (b, a)
        # a bot twice at a table (three players, two bots: (a, a, b)) meets the other in
        # two pairs of seats a game, so a complete set holds that many deals a seating
        seats = sum({bots[x], bots[y]} == {a, b} for x, y in met)
        size = seatings_per_board * seats
        if deals_per_board is not None:
            size = deals_per_board[frozenset(pair_key)]
        pair = pairs.setdefault(pair_key, PairStats(*pair_key, size))
        if loser is not None:
            # three-handed, the other two bots' pair is untouched; a bot in two seats
            # loses (or wins) both its pairs of seats' deals, but forfeited once
            if loser in pair_key and pair_key not in counted:
                pair.forfeits[loser] = pair.forfeits.get(loser, 0) + 1
            if loser not in pair_key:
                continue
            pair.add_forfeit(key[0], a_lost=loser == pair_key[0])
            counted.append(pair_key)
            continue
        pa, pb = (totals[i], totals[j]) if a == pair_key[0] else (totals[j], totals[i])
        pair.add(key, pa, pb, void=not any(totals))
        counted.append(pair_key)
    return counted


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]
