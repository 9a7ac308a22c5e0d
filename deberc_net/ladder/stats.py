"""Honest statistics for bot against bot: scores, Elo with a margin, likelihood of
superiority (as cutechess-cli reports them, over boards), points per deal with a
confidence interval over boards, and an SPRT over boards: a board's deals share a deck,
so a board, not a deal, is one observation."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import TypedDict

import attrs


# one pair's figures as the JSON summary writes them (docs/bots.md): the tests and
# the report read its fields by name
class PairDict(TypedDict):
    a: str
    b: str
    deals: int
    wins: int
    draws: int
    void_draws: int
    losses: int
    score: float
    elo: float | None
    elo_margin: float | None
    los: float
    points_per_deal: float | None
    points_per_deal_margin: float | None
    duplicate_sets: int
    points_los: float | None
    forfeits: dict[str, int]


Z95 = 1.959964


def elo_from_score(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@attrs.define
class PairStats:
    """Bot ``a`` against bot ``b``: results per deal from a's side, grouped by board.
    A board's deals share its deck (every seating of it, and at three players with two
    bots both its duplicate sets, (a, a, b) and (a, b, b)), so they are not independent:
    each board is one observation of the margins, the LOS and points/deal."""

    a: str
    b: str
    # a complete board's deals of the pair: its seatings of every group of the schedule
    # the two bots meet in, times their pairs of seats in each (two at (a, a, b)):
    # schedule.board_deals
    set_size: int
    wins: int = 0
    draws: int = 0
    # of the draws, the deals nobody wrote a point in (void: passed out, four sevens):
    # with weak bidders they are most draws, and say nothing of the play
    void_draws: int = 0
    losses: int = 0
    diffs: list[float] = attrs.Factory(list)  # a's written minus b's, per deal
    # a's written minus b's by board, the deals played (points/deal's observations)
    sets: dict[int, list[float]] = attrs.Factory(dict)
    # a's score by board, 1, 0.5 or 0 a deal, forfeits too (Elo's margin and LOS)
    board_scores: dict[int, list[float]] = attrs.Factory(dict)
    forfeits: dict[str, int] = attrs.Factory(dict)

    def add(
        self,
        key: tuple[int, tuple[str, ...]],
        a_points: float,
        b_points: float,
        void: bool = False,
    ) -> None:
        """One game from a's side (``key``: schedule.Game.key, whose board it counts
        in); ``void``: nobody at the table wrote a point."""
        diff = a_points - b_points
        if diff > 0:
            self.wins += 1
        elif diff < 0:
            self.losses += 1
        else:
            self.draws += 1
            self.void_draws += void
        self.diffs.append(diff)
        self.sets.setdefault(key[0], []).append(diff)
        self.board_scores.setdefault(key[0], []).append(0.5 + 0.5 * (diff > 0) - 0.5 * (diff < 0))

    def add_forfeit(self, board: int, a_lost: bool) -> None:
        """A deal lost by forfeit (never in points/deal: the board is incomplete)."""
        if a_lost:
            self.losses += 1
        else:
            self.wins += 1
        self.board_scores.setdefault(board, []).append(0.0 if a_lost else 1.0)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def elo_point(self) -> float:
        """The Elo difference alone, without the margin's pass over the boards (the web
        page's plot asks it after every game)."""
        return elo_from_score(self.score) if self.games else 0.0

    def elo(self) -> tuple[float, float]:
        """Elo difference a minus b, and its 95% margin: cutechess-cli's, with the
        score's variance taken over boards, not deals (the ratio estimator's: each
        board's points less the mean's share of them, squared). With one deal a board
        it is exactly cutechess-cli's; a board's seatings, whose luck cancels, narrow
        it, and deals that go together (a bot in two seats of one game, a board's two
        sets at three players) widen it, as resampling whole boards does."""
        n = self.games
        if n == 0:
            return 0.0, math.inf
        mu = self.score
        var = math.fsum((sum(v) - mu * len(v)) ** 2 for v in self.board_scores.values()) / n**2
        stdev = math.sqrt(var)
        low, high = mu - Z95 * stdev, mu + Z95 * stdev
        # no spread at all (every board scored the mean: each one deal won and one lost,
        # as the cards decide, or all drawn) is no certainty: a few such boards said ± 0.0
        if low <= 0 or high >= 1 or stdev == 0:
            return elo_from_score(mu), math.inf
        return elo_from_score(mu), (elo_from_score(high) - elo_from_score(low)) / 2

    def los(self) -> float:
        """Likelihood that a is stronger than b: cutechess-cli's, the wins less the
        losses over their standard deviation, with each board one observation (its
        wins less its losses); with one deal a board, 1/2 (1 + erf((W - L) / sqrt(2 (W
        + L))))."""
        per_board = [sum(2 * s - 1 for s in v) for v in self.board_scores.values()]
        squares = math.fsum(d * d for d in per_board)
        if squares == 0:
            return 0.5
        return 0.5 * (1 + math.erf(math.fsum(per_board) / math.sqrt(2 * squares)))

    def set_means(self) -> list[float]:
        """a's written minus b's per deal on each board with every deal of the pair
        played: the cards' luck cancels only there (a ladder stopped early, by its SPRT,
        leaves some with one seating; a forfeit leaves one short; a bot forfeiting a
        seating of every board, none)."""
        return [sum(v) / len(v) for v in self.sets.values() if len(v) == self.set_size]

    def points_per_deal(self) -> tuple[float, float]:
        """Mean of a's written minus b's per deal, and the 95% half-width, with each
        complete board as one observation (the cards' luck cancels inside it)."""
        return mean_interval(self.set_means())

    def points_los(self) -> float | None:
        """Likelihood that a writes more points a deal than b (Student's t over the
        complete boards, as points/deal's interval); None below two."""
        per_set = self.set_means()
        n = len(per_set)
        if n < 2:
            return None
        mean, half_width = mean_interval(per_set)
        if half_width == 0:
            return 0.5 if mean == 0 else float(mean > 0)
        return t_cdf(mean / (half_width / t_quantile(0.975, n - 1)), n - 1)

    def as_dict(self) -> PairDict:
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
            # full precision: rounded once, where shown (report.py, the web's pages)
            "score": self.score,
            "elo": _finite(elo),
            "elo_margin": _finite(margin),
            "los": self.los(),
            "points_per_deal": _finite(ppd) if sets else None,  # no set: no figure
            "points_per_deal_margin": _finite(ppd_margin),
            "duplicate_sets": sets,
            "points_los": points_los,
            "forfeits": dict(self.forfeits),
        }


def _finite(x: float) -> float | None:
    # + 0.0: an even score's Elo is -400 log10(1), -0.0, which JSON would say as such;
    # not rounded: the text and the web round it once, to one decimal (rounded to two
    # here first, 27.953 became 27.95 and then "27.9")
    return None if math.isinf(x) or math.isnan(x) else x + 0.0


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its 95% half-width, Student's t with n - 1 degrees of freedom: the
    variance is estimated from the same few sets, and the normal's 1.96 would make
    the interval of 3 sets half as wide as it is (t 4.30), of 2 sets a sixth (t 12.7)."""
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, t_quantile(0.975, n - 1) * math.sqrt(var / n)


def t_cdf(t: float, df: int) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * _beta_regularized(x, df / 2, 0.5)
    return 1 - tail if t > 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The t with ``t_cdf(t, df) == p``, for 0.5 <= p < 1 (bisection: monotone)."""
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, 2 * high
    for _ in range(100):
        mid = (low + high) / 2
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _beta_regularized(x: float, a: float, b: float) -> float:
    """I_x(a, b) by its continued fraction (Lentz), on the side where it converges."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _beta_regularized(1 - x, b, a)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 10_000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * f / a


@attrs.define
class Sprt:
    """Sequential probability ratio test on board scores from 0 to 1 for bot a (two or
    four players: a pair of seatings, 0, 0.25, 0.5, 0.75 or 1; three: the mean of the
    board's deals of the pair, both its duplicate sets, results.Results), with the
    normal approximation fishtest uses."""

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
