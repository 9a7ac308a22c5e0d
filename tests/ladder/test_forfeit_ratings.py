"""A forfeit moves the ladder's ratings as a loss (docs/bots.md), with three players too."""

from __future__ import annotations

from deberc_net.ladder.ratings import Ratings
from deberc_net.ladder.results import rating_teams


def test_a_forfeit_ranks_its_bot_last_whatever_it_had_written() -> None:
    # three players, 'a' in two seats: 'b' forfeits though it wrote the most
    teams, points = rating_teams(["a", "b", "a"], [10, 90, 30], loser="b")
    assert teams == ["a", "b"] and points[0] > points[1]
    teams, points = rating_teams(["a", "b", "c"], [10, 90, 30], loser="b")
    assert points[0] == points[2] > points[1]  # the others share the first rank
    assert rating_teams(["a", "b", "a"], [10, 90, 30]) == (["a", "b"], [20.0, 90.0])

    ratings = Ratings(["a", "b", "c"])
    ratings.update(teams, points)
    mu = {row["bot"]: row["mu"] for row in ratings.table()}
    assert mu["a"] == mu["c"] > 25 > mu["b"]
