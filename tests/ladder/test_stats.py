"""Pair statistics, Elo with its margin, LOS, points per deal and the SPRT, checked on
examples worked by hand."""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest

from deberc_net.ladder import report
from deberc_net.ladder.results import GameResult, Results, Summary
from deberc_net.ladder.runner import LadderOptions
from deberc_net.ladder.schedule import schedule
from deberc_net.ladder.stats import (
    PairStats,
    Sprt,
    elo_from_score,
    mean_interval,
    score_from_elo,
)
from deberc_net.ladder.supervisor import BotSpec


def pair(wins: int, draws: int, losses: int) -> PairStats:
    p = PairStats("a", "b", 2)
    for i in range(wins):
        p.add((i, ("a", "b")), 10, 0)
    for i in range(draws):
        p.add((1000 + i, ("a", "b")), 5, 5)
    for i in range(losses):
        p.add((2000 + i, ("a", "b")), 0, 10)
    return p


def test_sixty_twenty_twenty_is_a_score_of_point_seven_and_elo_147() -> None:
    p = pair(60, 20, 20)
    assert (p.wins, p.draws, p.losses, p.games) == (60, 20, 20, 100)
    assert p.score == pytest.approx(0.7)
    elo, margin = p.elo()
    assert elo == pytest.approx(147.19, abs=0.01)  # 400 * log10(0.7 / 0.3)
    # by hand: variance (60*.3^2 + 20*.7^2 + 20*.2^2) / 100 = 0.16, stdev/sqrt(n) = 0.04;
    # score interval 0.7 -+ 1.959964 * 0.04 = [0.62160, 0.77840] -> Elo [86.22, 218.25]
    assert margin == pytest.approx((218.25 - 86.22) / 2, abs=0.05)
    # LOS = 1/2 (1 + erf((w - l) / sqrt(2 (w + l)))) = 1/2 (1 + erf(40 / sqrt(160)))
    assert p.los() == pytest.approx(0.5 * (1 + math.erf(40 / math.sqrt(160))))
    assert p.los() > 0.9999


def test_los_on_small_examples() -> None:
    assert pair(10, 5, 10).los() == pytest.approx(0.5)
    assert pair(12, 0, 8).los() == pytest.approx(0.8145, abs=1e-4)
    assert pair(8, 0, 12).los() == pytest.approx(1 - 0.8145, abs=1e-4)
    assert pair(0, 7, 0).los() == 0.5  # no decisive game: no information


def test_elo_signs_and_the_infinite_margin_of_a_clean_sweep() -> None:
    assert pair(20, 60, 20).elo()[0] == pytest.approx(0.0)
    assert pair(20, 20, 60).elo()[0] == pytest.approx(-147.19, abs=0.01)
    elo, margin = pair(5, 0, 0).elo()
    assert elo > 1000 and math.isinf(margin)
    assert pair(5, 0, 0).as_dict()["elo_margin"] is None  # JSON has no infinity
    assert PairStats("a", "b", 2).elo() == (0.0, math.inf)
    assert PairStats("a", "b", 2).score == 0.5


def test_a_margin_waits_until_the_scores_interval_leaves_0_and_1() -> None:
    """docs/bots.md: not only a clean sweep: 6 wins and 2 draws still reach a score of 1
    within the 95% interval (no margin), 2 wins and 2 draws do not."""
    assert math.isinf(pair(6, 2, 0).elo()[1])
    assert math.isfinite(pair(2, 2, 0).elo()[1])


def test_boards_that_all_scored_the_mean_give_no_margin_not_a_zero_one() -> None:
    """Four boards each won once and lost once (the cards deciding each, a common
    duplicate result) have no spread over boards: the report said `Elo 0.0 ± 0.0`,
    a certainty 8 deals never give (ladder tryout s50)."""
    p = PairStats("a", "b", 2)
    for board in range(4):
        p.add((board, ("a", "b")), 100, 62)
        p.add((board, ("a", "b")), 62, 100)
    elo, margin = p.elo()
    assert elo == pytest.approx(0.0) and math.isinf(margin)
    assert p.as_dict()["elo_margin"] is None
    assert report.elo_told(dict(p.as_dict())) == "0.0 (margin: too few deals)"
    assert math.isinf(pair(0, 7, 0).elo()[1])  # all drawn, each a board of its own
    # one board off the mean is a spread: a margin again
    p.add((4, ("a", "b")), 100, 62)
    p.add((4, ("a", "b")), 100, 62)
    assert math.isfinite(p.elo()[1])


def test_elo_and_score_are_inverse() -> None:
    for elo in (-300.0, -50.0, 0.0, 35.5, 147.19, 400.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-6)
    assert score_from_elo(0) == 0.5
    assert score_from_elo(400) == pytest.approx(10 / 11)


def test_points_per_deal_uses_each_duplicate_set_as_one_observation() -> None:
    p = PairStats("a", "b", 2)
    g = ("a", "b")
    p.add((1, g), 80, 50)
    p.add((1, g), 40, 50)  # board 1: +30 and -10 -> +10
    p.add((2, g), 90, 40)
    p.add((2, g), 60, 50)  # board 2: +50 and +10 -> +30
    p.add((3, g), 50, 50)
    p.add((3, g), 30, 50)  # board 3: 0 and -20 -> -10
    assert (p.wins, p.draws, p.losses) == (3, 1, 2)
    assert p.diffs == [30, -10, 50, 10, 0, -20]
    mean, half = p.points_per_deal()
    assert mean == pytest.approx(10.0)
    # sample variance of (10, 30, -10) is 400: half-width t(0.975, 2) * sqrt(400 / 3)
    assert half == pytest.approx(4.302653 * math.sqrt(400 / 3))
    d = p.as_dict()
    assert d["points_per_deal"] == 10.0 and d["duplicate_sets"] == 3 and d["deals"] == 6
    assert d["points_per_deal_margin"] == pytest.approx(49.68, abs=0.01)


def test_mean_interval_needs_two_values() -> None:
    assert mean_interval([]) == (0.0, math.inf)
    assert mean_interval([7.0]) == (7.0, math.inf)
    mean, half_width = mean_interval([1.0, 3.0])
    assert mean == 2.0 and half_width == pytest.approx(12.7062 * 1.0)


def test_a_few_duplicate_sets_get_students_t_not_the_normal() -> None:
    """Points/deal's interval and LOS estimate the variance from the sets themselves:
    with three sets (+40, +60, +80: mean 60, standard error 11.55) the 95% interval is
    t(0.975, 2) = 4.30 standard errors wide each way, not 1.96, and the LOS is t's
    98.2%, not the normal's 99.99999%. Failed before: the normal's, which made a
    three-board ladder look certain."""
    p = PairStats("a", "b", 2)
    for board, diff in ((1, 40), (2, 60), (3, 80)):
        p.add((board, ("a", "b")), 100 + diff, 100)
        p.add((board, ("a", "b")), 100 + diff, 100)
    se = 20 / math.sqrt(3)
    mean, half = p.points_per_deal()
    assert mean == 60 and half == pytest.approx(4.302653 * se, rel=1e-6)
    los = p.points_los()
    assert los is not None and los == pytest.approx(0.98240, abs=1e-4)
    # many sets: t is the normal, as before
    values = [float(i % 7) for i in range(5000)]
    many = mean_interval(values)
    assert many[1] == pytest.approx(1.959964 * statistics.stdev(values) / math.sqrt(5000), rel=1e-3)


def test_sprt_bounds_and_llr_by_hand() -> None:
    s = Sprt(0.0, 100.0, 0.05, 0.05)
    low, high = s.bounds
    assert low == pytest.approx(math.log(0.05 / 0.95)) and high == pytest.approx(-low)
    assert s.llr() == 0.0 and s.verdict() is None
    s.scores = [1.0, 0.5, 0.5, 0.0]  # mean 0.5; padded with 0, 0.5, 1: variance 1/7
    s0, s1 = 0.5, score_from_elo(100.0)
    assert s.llr() == pytest.approx(4 * (s1 - s0) * (1.0 - s0 - s1) / (2 / 7))
    assert s.llr() < 0 and s.verdict() is None
    s.scores = [1.0, 1.0, 1.0, 1.0]  # mean 1; padded mean 5.5/7
    var = (5 * (1 - 5.5 / 7) ** 2 + (5.5 / 7) ** 2 + (0.5 - 5.5 / 7) ** 2) / 7
    assert s.llr() == pytest.approx(4 * (s1 - s0) * (2.0 - s0 - s1) / (2 * var))


def _run(sprt: Sprt, draw: random.Random, mean_pairs: list[float], limit: int) -> str | None:
    for _ in range(limit):
        sprt.scores.append(draw.choice(mean_pairs))
        verdict = sprt.verdict()
        if verdict is not None:
            return verdict
    return None


def test_sprt_accepts_h1_for_a_strong_bot() -> None:
    sprt = Sprt(0.0, 50.0, 0.05, 0.05)
    # duplicate pairs scored 1 (won both seatings) far more often than 0
    verdict = _run(sprt, random.Random(1), [1.0, 1.0, 0.5, 0.75, 1.0, 0.0, 0.5], 2000)
    assert verdict == "H1" and len(sprt.scores) < 200


def test_sprt_accepts_h0_for_equal_bots_eventually() -> None:
    sprt = Sprt(0.0, 50.0, 0.05, 0.05)
    verdict = _run(sprt, random.Random(2), [1.0, 0.0, 0.5, 0.25, 0.75], 20000)
    assert verdict == "H0"
    assert sprt.llr() <= sprt.bounds[0]


def test_sprt_two_pairs_alike_decide_nothing_but_a_run_of_them_does() -> None:
    for alike in (1.0, 0.0, 0.5):
        assert Sprt(0.0, 50.0, 0.05, 0.05, scores=[alike] * 2).verdict() is None
    assert Sprt(0.0, 50.0, 0.05, 0.05, scores=[1.0] * 30).verdict() == "H1"
    assert Sprt(0.0, 50.0, 0.05, 0.05, scores=[0.0] * 30).verdict() == "H0"


def test_sprt_error_rates_stay_near_alpha_and_beta() -> None:
    """Equal bots rarely pass, bots at elo1 rarely fail (nominal 5% each; the normal
    approximation on small samples once made it 15-20%)."""
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    equal = [0.2, 0.15, 0.3, 0.15, 0.2]  # mean 0.5
    strong = [0.15, 0.12, 0.3, 0.18, 0.25]  # mean 0.5725: Elo +51
    outcomes: dict[str, list[str | None]] = {"equal": [], "strong": []}
    for name, weights in (("equal", equal), ("strong", strong)):
        for seed in range(200):
            draw = random.Random(seed)
            sprt = Sprt(0.0, 50.0, 0.05, 0.05)
            verdict = None
            while verdict is None and len(sprt.scores) < 5000:
                sprt.scores.append(draw.choices(values, weights)[0])
                verdict = sprt.verdict()
            outcomes[name].append(verdict)
    assert outcomes["equal"].count("H1") <= 20  # at most 10% of 200
    assert outcomes["strong"].count("H0") <= 20


def test_sprt_parse() -> None:
    s = Sprt.parse("0,20,0.05,0.1")
    assert (s.elo0, s.elo1, s.alpha, s.beta, s.scores) == (0.0, 20.0, 0.05, 0.1, [])


@pytest.mark.parametrize("text", ["0,20,0.05", "a,b,c,d", "", "0,20,0.05,0.05,1"])
def test_sprt_parse_needs_four_numbers(text: str) -> None:
    with pytest.raises(ValueError, match="elo0,elo1,alpha,beta"):
        Sprt.parse(text)


@pytest.mark.parametrize(
    "text", ["20,0,0.05,0.05", "10,10,0.05,0.05", "0,20,0,0.05", "0,20,0.05,1", "0,20,1.5,0.05"]
)
def test_sprt_parse_refuses_impossible_settings(text: str) -> None:
    with pytest.raises(ValueError, match="elo0 < elo1"):
        Sprt.parse(text)


def test_pairs_finished_after_the_verdict_leave_the_llr_as_it_decided() -> None:
    """The SPRT stops scheduling at its verdict; the games already running still finish
    and are counted in the totals, not in the test: the LLR and pairs reported are those
    of the verdict, and the pairs after it are said apart. Failed before: the reported
    LLR (and pairs) moved on with them, away from the one that decided."""
    options = LadderOptions(
        bots=[BotSpec("a", "cmd a"), BotSpec("b", "cmd b")],
        deals=40,
        seed="v",
        sprt=Sprt(0, 20, 0.05, 0.05),
        progress=False,
    )
    summary = Summary(options, "v")
    results = Results(options, summary)
    games = list(schedule(["a", "b"], 2, 40, "v", options.mode))
    decided: tuple[float, int] | None = None
    for index, game in enumerate(games):
        written = [20, 0] if game.seating[0] == "a" else [0, 20]  # a wins every deal
        if index % 2 == 1 and index % 6 == 1:
            written = written[::-1]  # … nearly
        results.add_result(index, GameResult(game, written, "deals", None, None))
        if summary.sprt_verdict is not None and decided is None:
            assert options.sprt is not None
            decided = options.sprt.llr(), len(options.sprt.scores)
        if decided is not None and index >= 2 * decided[1] + 5:
            break  # three more pairs, played by the games still running
    assert decided is not None and summary.sprt_verdict == "H1"
    told = summary.as_dict()
    assert (told["sprt"]["llr"], told["sprt"]["pairs"]) == (round(decided[0], 3), decided[1])
    assert told["sprt"]["pairs_after_verdict"] == 3
    assert told["games"] == 2 * decided[1] + 6  # every game played is in the totals
    assert "3 pairs finished after it, in the totals above only" in report.text(told)


def test_three_player_sprt_scores_the_pairs_of_seats_as_the_elo_does() -> None:
    """With three players and two bots a seating (a, a, b) is two deals of the pair, one
    for each of a's seats (docs/bots.md, "Statistics"); the SPRT scores the same deals.
    Here b writes more than a at every seat: every deal is b's, its Elo -inf, and the
    test finds H0. Failed before: a seating was scored by the sum of a bot's seats, so
    whichever sat twice won it ((a, a, b) sets scored 1, (a, b, b) sets 0), and the
    test never saw b better."""
    options = LadderOptions(
        bots=[BotSpec("a", "cmd a"), BotSpec("b", "cmd b")],
        players=3,
        deals=40,
        seed="t",
        sprt=Sprt(0, 20, 0.05, 0.05),
        progress=False,
    )
    summary = Summary(options, "t")
    results = Results(options, summary)
    for index, game in enumerate(schedule(["a", "b"], 3, 40, "t", options.mode)):
        written = [50 if bot == "a" else 60 for bot in game.seating]
        results.add_result(index, GameResult(game, written, "deals", None, None))
        if summary.sprt_verdict is not None:
            break
    told = summary.as_dict()
    assert told["pairs"][0]["wins"] == 0 and told["pairs"][0]["losses"] == told["games"] * 2
    assert options.sprt is not None and set(options.sprt.scores) == {0.0}
    assert told["sprt"]["verdict"] == "H0"


def test_an_even_pairs_figures_are_zero_in_json_never_minus_zero() -> None:
    """docs/bots.md: a figure that rounds to zero is 0.0, never -0.0 — in --json and
    the web's API too. Failed before: an even score's Elo, -400 log10(1), was -0.0."""
    d = pair(3, 2, 3).as_dict()
    elo = d["elo"]
    assert elo is not None
    assert elo == 0.0 and math.copysign(1.0, elo) == 1.0
    assert '"elo": 0.0' in json.dumps(d)


def test_deals_of_one_board_are_one_observation_of_the_los() -> None:
    """A board's deals share its deck: the LOS takes a board as one observation (its
    wins less its losses). Each board's two deals going the same way tell no more than
    one deal a board. Failed before: 8 wins and 4 losses counted as 12 independent
    deals, LOS 88% where one deal a board (4 and 2) gives 79%."""
    doubled = PairStats("a", "b", 2)
    for board in range(6):
        for _ in range(2):
            doubled.add((board, ("a", "b")), 10 if board < 4 else 0, 5)
    assert (doubled.wins, doubled.losses) == (8, 4)
    assert doubled.los() == pytest.approx(pair(4, 0, 2).los())
    assert doubled.los() == pytest.approx(0.5 * (1 + math.erf(2 / math.sqrt(12))))


def test_a_three_player_sprt_scores_a_board_both_its_duplicate_sets_together() -> None:
    """With three players and two bots a board has two duplicate sets, (a, a, b) and
    (a, b, b), on one deck: the SPRT scores the board once, by the mean of its games.
    Failed before: each set was a pair of its own, two a board."""
    options = LadderOptions(
        bots=[BotSpec("a", "cmd a"), BotSpec("b", "cmd b")],
        players=3,
        deals=3,
        seed="t",
        sprt=Sprt(0, 20, 0.05, 0.05),
        progress=False,
    )
    summary = Summary(options, "t")
    results = Results(options, summary)
    for index, game in enumerate(schedule(["a", "b"], 3, 3, "t", options.mode)):
        # a wins every deal of (a, a, b), loses every deal of (a, b, b)
        high = "a" if game.group.count("a") == 2 else "b"
        written = [60 if bot == high else 50 for bot in game.seating]
        results.add_result(index, GameResult(game, written, "deals", None, None))
    assert options.sprt is not None and options.sprt.scores == [0.5, 0.5, 0.5]
    told = summary.as_dict()
    assert told["sprt"]["pairs"] == 3 and told["pairs"][0]["duplicate_sets"] == 3
