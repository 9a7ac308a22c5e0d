"""A ladder's pairs are first against second in the order of its ``--bot`` options, as
its SPRT is (docs/bots.md "Statistics"): a bot named to sort last is not turned round.
Failed before: the pairs were ordered by name, so ``zed v ann`` came out as ``ann v
zed`` with the Elo's sign flipped, beside an SPRT verdict about zed."""

from __future__ import annotations

from pathlib import Path

from deberc_net.ladder import report

from .helpers import ladder, summary

ZED = "zed=py:clients.random_bot --seed 1"
ANN = "ann=py:clients.random_bot --seed 2"
COMMON = ("--deals", "4", "--seed", "o1", "--sprt", "0,20,0.05,0.05")


def test_pairs_and_the_sprt_keep_the_bots_order(tmp_path: Path) -> None:
    data = summary(ladder(tmp_path, "--bot", ZED, "--bot", ANN, *COMMON, "--json"))
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [("zed", "ann")]
    assert (data["sprt"]["first"], data["sprt"]["second"]) == ("zed", "ann")
    told = report.text(data)
    assert "  zed v ann: " in told and "SPRT zed v ann elo0=0.0 " in told, told


def test_three_bots_pair_in_the_order_given(tmp_path: Path) -> None:
    mid = "mid=py:clients.random_bot --seed 3"
    args = ("--bot", ZED, "--bot", ANN, "--bot", mid, "--deals", "2", "--seed", "o2", "--json")
    data = summary(ladder(tmp_path, *args))
    pairs = [(p["a"], p["b"]) for p in data["pairs"]]
    assert pairs == [("zed", "ann"), ("zed", "mid"), ("ann", "mid")]


def _sprt_line(verdict: str | None) -> str:
    """The text report's SPRT line of a run of zed v ann that came to ``verdict``."""
    sprt = {
        "first": "zed", "second": "ann", "elo0": 0.0, "elo1": 20.0, "alpha": 0.05,
        "beta": 0.05, "llr": 1.5, "bounds": [-2.94, 2.94], "pairs": 12, "verdict": verdict,
    }  # fmt: skip
    data = {
        "bots": ["zed", "ann"], "players": 2, "variant": "moscow", "options": [],
        "boards": 12, "seed": "s1", "schedule": "round-robin", "games": 24, "deals": 24,
        "seconds": 0.1, "deals_per_second": 10, "ratings": [], "pairs": [], "sprt": sprt,
        "crashes": {}, "forfeits": {},
    }  # fmt: skip
    return next(line for line in report.text(data).splitlines() if line.startswith("SPRT "))


def test_the_sprt_verdict_names_its_bots_and_says_only_what_the_test_shows() -> None:
    """H1 shows the first more than elo0 over the second (an error at most alpha), H0
    less than elo1 (beta). Failed before: H1 said 'at least elo1', H0 'at most elo0',
    which bots between the two (equal bots under -10,10) contradict in either verdict."""
    assert _sprt_line("H1").endswith(": H1 (zed more than +0 Elo over ann)")
    assert _sprt_line("H0").endswith(": H0 (zed less than +20 Elo over ann)")
    assert _sprt_line(None).endswith(" after 12 pairs: no decision")
