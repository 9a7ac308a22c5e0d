"""A small Tertz ladder: the random and heuristic bots play it over a real server."""

from __future__ import annotations

from pathlib import Path

from deberc_net.game.record import replay_matches
from deberc_net.testing import build_ruleset
from tests.ladder.helpers import HEUR, RAND, ladder, pair_of, records_in, summary


def test_random_and_heuristic_bots_play_a_tertz_ladder(tmp_path: Path) -> None:
    db = tmp_path / "tertz.sqlite3"
    args = ("--bot", HEUR, "--bot", RAND, "--variant", "tertz", "--deals", "10")
    data = summary(ladder(tmp_path, *args, "--seed", "t1", "--concurrency", "1", "--json", db=db))
    assert data["variant"] == "tertz" and data["games"] == 20
    assert data["crashes"] == {} and data["forfeits"] == {}
    pair = pair_of(data, "heur", "rand")
    assert pair["deals"] == 20 and pair["score"] > 0.5  # the heuristic bot is the better
    records = records_in(db)
    assert len(records) == 20 and {r["variant"] for r in records} == {"tertz"}
    rules = build_ruleset(2, "tertz")
    for record in records:
        assert len(record["draws"]) == 14
        assert sum(record["written"]) >= 150
        assert replay_matches(record, rules)
