"""The ladder's text summary says a margin it cannot give in words (not '± inf'), and a
zero without a sign (not 'Elo -0.0'); the JSON keeps its nulls."""

from __future__ import annotations

from typing import Any

from deberc_net.ladder import report
from deberc_net.ladder.stats import PairStats


def _summary(pair: PairStats) -> dict[str, Any]:
    return {
        "bots": [pair.a, pair.b], "players": 2, "variant": "moscow", "options": [],
        "boards": 1, "seed": "s1", "schedule": "round-robin", "games": pair.games,
        "deals": pair.games, "seconds": 0.1, "deals_per_second": 10, "ratings": [],
        "pairs": [pair.as_dict()], "sprt": None, "crashes": {}, "forfeits": {},
    }  # fmt: skip


def _pair_line(pair: PairStats) -> str:
    return next(x for x in report.text(_summary(pair)).splitlines() if " v " in x)


def test_a_margin_there_is_no_telling_yet_is_said_so_not_infinity() -> None:
    pair = PairStats("heur", "rand")
    pair.add((1, ("heur", "rand")), 40, 10)
    pair.add((1, ("heur", "rand")), 30, 12)  # two wins of two, one duplicate set
    assert pair.as_dict()["elo_margin"] is None  # JSON: null, as before
    line = _pair_line(pair)
    assert "inf" not in line, line
    assert "Elo +" in line and "(margin: too few deals)" in line, line
    assert "points/deal +24.0 (margin: too few duplicate sets) over 1 duplicate set" in line
    head = report.text(_summary(pair)).splitlines()[:2]
    assert "; 1 board, seed s1" in head[0] and head[1].startswith("2 games (2 deals) in "), head


def test_an_even_pair_says_zero_without_a_sign() -> None:
    pair = PairStats("a", "b")
    for n, (x, y) in enumerate([(10, 0), (0, 10), (5, 5), (5, 5)]):
        pair.add((n // 2, ("a", "b")), x, y)
    line = _pair_line(pair)
    assert "Elo 0.0 ±" in line and "points/deal 0.0 ±" in line, line
    assert "-0.0" not in line and "+0.0" not in line, line
