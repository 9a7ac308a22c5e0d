"""A forfeit moves the ladder's ratings as a loss (docs/bots.md), with three players too."""

from __future__ import annotations

from deberc_net.ladder.ratings import Ratings
from deberc_net.ladder.report import text
from deberc_net.ladder.results import GameResult, Results, Summary, count_pairs, rating_teams
from deberc_net.ladder.runner import LadderOptions
from deberc_net.ladder.schedule import schedule
from deberc_net.ladder.stats import PairStats
from deberc_net.ladder.supervisor import BotSpec


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


def test_a_forfeit_at_three_is_one_forfeit_and_its_seatings_deals_lost() -> None:
    """Three players, two bots, (a, b, a): the pair meets in two pairs of seats, two
    deals a seating (docs/bots.md). A forfeit loses both, as a seating played counts
    both, but it is one forfeit: the pair said two (failed before), where the run's
    forfeits said one. The forfeited seating writes no points and no duplicate set."""
    pairs: dict[tuple[str, str], PairStats] = {}
    key = (1, ("a", "b"))
    count_pairs(pairs, key, 3, ["a", "a", "b"], [10, 20, 30], None, ["a", "b"])
    played = pairs["a", "b"].as_dict()
    count_pairs(pairs, key, 3, ["a", "b", "a"], [0, 0, 0], "b", ["a", "b"])
    told = pairs["a", "b"].as_dict()
    assert told["forfeits"] == {"b": 1}
    assert told["deals"] - played["deals"] == played["deals"] == 2  # as many as one played
    assert (told["wins"] - played["wins"], told["losses"]) == (2, played["losses"])
    assert pairs["a", "b"].diffs == [-20, -10]  # the points: the played seating's only
    assert told["duplicate_sets"] == 0


def test_a_forfeited_game_is_no_deal_played_in_the_summary() -> None:
    """A ladder game is a one-deal board; one lost by forfeit (a bot that left, ran out
    of time, stayed away) never played its deal out. The summary's deals, and the
    report's 'N games (M deals)' and deals/s, counted it as one (failed before)."""
    options = LadderOptions(bots=[BotSpec("a", "x"), BotSpec("b", "y")], deals=2)
    summary = Summary(options, "s")
    results = Results(options, summary)
    games = list(schedule(["a", "b"], 2, 2, "s", "round-robin"))
    results.add_result(0, GameResult(games[0], [60, 102], "deals", "m1", None))
    results.add_result(1, GameResult(games[1], [0, 0], "timeouts", "m2", games[1].seating[0]))
    summary.seconds = 2.0
    assert (summary.games, summary.deals) == (2, 1)
    data = summary.as_dict()
    assert data["deals_per_second"] == 0.5
    assert "2 games (1 deal) in 2.0 s" in text(data)


def test_a_bot_that_never_sat_down_is_told_how_a_ladder_seats_it() -> None:
    """A tryout's shell bot sought once and forfeited 38 games of 40 at the away limit:
    the report said 'forfeits: sh 38' and nothing more. A game whose match never
    started (no match id: the seat stayed empty) is counted apart, and the report says
    what seats a bot at a ladder's next game. A forfeit at a match that started (out
    of time) is not counted so."""
    options = LadderOptions(bots=[BotSpec("a", "x"), BotSpec("b", "y")], deals=3)
    summary = Summary(options, "s")
    results = Results(options, summary)
    games = list(schedule(["a", "b"], 2, 3, "s", "round-robin"))
    results.add_result(0, GameResult(games[0], [60, 102], "deals", "m1", None))
    results.add_result(1, GameResult(games[1], [0, 0], "away", None, "b"))
    results.add_result(2, GameResult(games[2], [0, 0], "away", None, "b"))
    results.add_result(3, GameResult(games[3], [0, 0], "timeouts", "m4", "a"))
    data = summary.as_dict()
    assert data["forfeits"] == {"b": 2, "a": 1} and data["unseated"] == {"b": 2}
    lines = text(data).splitlines()
    told = [x for x in lines if "never sat down" in x]
    assert told == [
        "  b never sat down in 2 games: a bot is seated at a ladder's next game only by"
        " another 'seek reserved', sent after each match-end (docs/bots.md, \"Ladders\")"
    ], lines
