"""Honest statistics for bot against bot: scores, Elo with a margin, likelihood of
superiority (as cutechess-cli reports them), points per deal with a confidence
interval over duplicate sets, and an SPRT over duplicate pairs."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

import attrs

Z95 = 1.959964


def elo_from_score(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@attrs.define
class PairStats:
    """Bot ``a`` against bot ``b``: results per deal from a's side, and the duplicate
    sets (the same board with the seats rotated) as the unit of the intervals."""

    a: str
    b: str
    # a complete set's deals: the seatings of a board (schedule.set_size), times the
    # pairs of seats of these two bots in each (two at (a, a, b): results.count_pairs)
    set_size: int
    wins: int = 0
    draws: int = 0
    # of the draws, the deals nobody wrote a point in (void: passed out, four sevens):
    # with weak bidders they are most draws, and say nothing of the play
    void_draws: int = 0
    losses: int = 0
    diffs: list[float] = attrs.Factory(list)  # a's written minus b's, per deal
    sets: dict[tuple[int, tuple[str, ...]], list[float]] = attrs.Factory(dict)
    forfeits: dict[str, int] = attrs.Factory(dict)

    def add(
        self,
        key: tuple[int, tuple[str, ...]],
        a_points: float,
        b_points: float,
        void: bool = False,
    ) -> None:
        """One game from a's side; ``void``: nobody at the table wrote a point."""
        diff = a_points - b_points
        if diff > 0:
            self.wins += 1
        elif diff < 0:
            self.losses += 1
        else:
            self.draws += 1
            self.void_draws += void
        self.diffs.append(diff)
        self.sets.setdefault(key, []).append(diff)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def elo(self) -> tuple[float, float]:
        """Elo difference a minus b, and its 95% margin (cutechess-cli's method)."""
        n = self.games
        if n == 0:
            return 0.0, math.inf
        mu = self.score
        var = (self.wins * (1 - mu) ** 2 + self.losses * mu**2 + self.draws * (0.5 - mu) ** 2) / n
        stdev = math.sqrt(var) / math.sqrt(n)
        low, high = mu - Z95 * stdev, mu + Z95 * stdev
        if low <= 0 or high >= 1:
            return elo_from_score(mu), math.inf
        return elo_from_score(mu), (elo_from_score(high) - elo_from_score(low)) / 2

    def los(self) -> float:
        """Likelihood that a is stronger than b, from wins and losses."""
        decisive = self.wins + self.losses
        if decisive == 0:
            return 0.5
        return 0.5 * (1 + math.erf((self.wins - self.losses) / math.sqrt(2 * decisive)))

    def set_means(self) -> list[float]:
        """a's written minus b's per deal in each duplicate set with every seating played:
        the cards' luck cancels only there (a ladder stopped early, by its SPRT, leaves
        some with one seating; a forfeit leaves one short; a bot forfeiting a seating of
        every board, none)."""
        return [sum(v) / len(v) for v in self.sets.values() if len(v) == self.set_size]

    def points_per_deal(self) -> tuple[float, float]:
        """Mean of a's written minus b's per deal, and the 95% half-width, with each
        complete duplicate set as one observation (the cards' luck cancels inside it)."""
        return mean_interval(self.set_means())

    def points_los(self) -> float | None:
        """Likelihood that a writes more points a deal than b (normal approximation
        over the complete duplicate sets, as points/deal's interval); None below two."""
        per_set = self.set_means()
        if len(per_set) < 2:
            return None
        mean, half_width = mean_interval(per_set)
        if half_width == 0:
            return 0.5 if mean == 0 else float(mean > 0)
        return 0.5 * (1 + math.erf(mean / (half_width / Z95) / math.sqrt(2)))

    def as_dict(self) -> dict[str, object]:
        elo, margin = self.elo()
        ppd, ppd_margin = self.points_per_deal()
        points_los = self.points_los()
        sets = len(self.set_means())
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "void_draws": self.void_draws,
            "losses": self.losses,
            "score": round(self.score, 4),
            "elo": _finite(elo),
            "elo_margin": _finite(margin),
            "los": round(self.los(), 4),
            "points_per_deal": _finite(ppd) if sets else None,  # no set: no figure
            "points_per_deal_margin": _finite(ppd_margin),
            "duplicate_sets": sets,
            "points_los": None if points_los is None else round(points_los, 4),
            "forfeits": dict(self.forfeits),
        }


def _finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 2)


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


@attrs.define
class Sprt:
    """Sequential probability ratio test on duplicate-pair scores (each pair scored 0,
    0.25, 0.5, 0.75 or 1 for bot a), with the normal approximation fishtest uses."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    scores: list[float] = attrs.Factory(list)

    @classmethod
    def parse(cls, text: str) -> Sprt:
        try:
            elo0, elo1, alpha, beta = (float(x) for x in text.split(","))
        except ValueError as exc:
            raise ValueError("--sprt takes elo0,elo1,alpha,beta, e.g. 0,20,0.05,0.05") from exc
        if not (0 < alpha < 1 and 0 < beta < 1) or elo1 <= elo0:
            raise ValueError("--sprt needs elo0 < elo1 and 0 < alpha, beta < 1")
        return cls(elo0, elo1, alpha, beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self) -> float:
        n = len(self.scores)
        if n < 2:
            return 0.0
        # sums in C, one pass each: verdict() runs after every pair, over all of them
        total = math.fsum(self.scores)
        squares = math.fsum(map(operator.mul, self.scores, self.scores))
        mean = total / n
        # a few pairs underestimate the variance (two alike: none), which let the test
        # decide after two pairs, far more often wrongly than alpha and beta allow; a
        # lost, a drawn and a won pair (0, 0.5, 1) pad it, and fade as the pairs accumulate
        padded = n + 3
        centre = (total + 1.5) / padded
        var = (squares + 1.25) / padded - centre * centre
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def verdict(self) -> str | None:
        low, high = self.bounds
        llr = self.llr()
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None
