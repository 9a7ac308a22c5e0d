"""The ladder's text summary says a margin it cannot give in words (not '± inf'), and a
zero without a sign (not 'Elo -0.0'); the JSON keeps its nulls."""

from __future__ import annotations

from typing import Any

from deberc_net.ladder import report
from deberc_net.ladder.results import count_pairs
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
    pair = PairStats("heur", "rand", 2)
    pair.add((1, ("heur", "rand")), 40, 10)
    pair.add((1, ("heur", "rand")), 30, 12)  # two wins of two, one duplicate set
    assert pair.as_dict()["elo_margin"] is None  # JSON: null, as before
    line = _pair_line(pair)
    assert "inf" not in line, line
    assert "Elo +∞ (every deal won)," in line, line  # not the clamp's +2400.0
    assert "points/deal +24.0 (margin: too few duplicate sets) over 1 duplicate set" in line
    head = report.text(_summary(pair)).splitlines()[:2]
    assert "; 1 board, seed s1" in head[0] and head[1].startswith("2 games (2 deals) in "), head


def test_an_even_pair_says_zero_without_a_sign() -> None:
    pair = PairStats("a", "b", 2)
    for n, (x, y) in enumerate([(10, 0), (0, 10), (5, 5), (5, 5)]):
        pair.add((n // 2, ("a", "b")), x, y)
    line = _pair_line(pair)
    # (both boards scored the mean: no Elo margin, rather than '± 0.0')
    assert "Elo 0.0 (margin: too few deals)" in line and "points/deal 0.0 ±" in line, line
    assert "-0.0" not in line and "+0.0" not in line, line


def test_a_set_with_one_seating_played_is_no_duplicate_set() -> None:
    """An SPRT's stop leaves a board with one seating played: its luck does not cancel,
    so points/deal and the count of sets leave it out (failed before: counted as a set,
    '23 duplicate sets' beside the SPRT's '22 pairs')."""
    pair = PairStats("a", "b", 2)
    for board, diffs in ((1, [(30, 10), (10, 20)]), (2, [(40, 0), (0, 16)]), (3, [(90, 0)])):
        for x, y in diffs:
            pair.add((board, ("a", "b")), x, y)
    told = pair.as_dict()
    assert told["duplicate_sets"] == 2 and told["deals"] == 5
    assert told["points_per_deal"] == (5 + 12) / 2


def test_the_board_count_says_how_many_were_played() -> None:
    pair = PairStats("a", "b", 2)
    pair.add((1, ("a", "b")), 40, 10)
    data = {**_summary(pair), "boards": 2000, "boards_played": 23}
    assert "; 23 of 2000 boards, seed s1" in report.text(data).splitlines()[0]


def test_elo_and_points_of_opposite_signs_are_pointed_out() -> None:
    """Many small wins and a few big losses: Elo says a, points say b. The report says
    they disagree and why (failed before: nothing said, LOS 100% on the wrong one)."""
    pair = PairStats("a", "b", 2)
    for board in range(12):
        first, second = (10, 0), (0, 60) if board % 3 == 0 else (10, 0)
        pair.add((board, ("a", "b")), *first)
        pair.add((board, ("a", "b")), *second)
    told = pair.as_dict()
    elo, per_deal = told["elo"], told["points_per_deal"]
    assert elo is not None and per_deal is not None
    assert elo > 0 > per_deal
    assert told["points_los"] is not None and told["points_los"] < 0.5
    lines = report.text(_summary(pair)).splitlines()
    at = lines.index(_pair_line(pair))
    assert f", points LOS {100 * told['points_los']:.1f}%" in lines[at]
    assert lines[at + 1] == f"    {report.DISAGREE}"


def test_opposite_signs_within_their_margins_are_no_difference_not_a_disagreement() -> None:
    """Elo +88.7 ± 227.1 (LOS 81.7%) and points/deal -1.7 ± 11.3 (points LOS 36.0%):
    both noise. The report said they disagreed in sign, and why, of signs nothing had
    established (failed before); it says no difference is established."""
    pair = PairStats("a", "b", 2)
    boards = [[(10, 0), (0, 40)], [(10, 0), (20, 0)], [(0, 10), (10, 0)]]
    boards += [[(10, 0), (0, 30)], [(0, 20), (10, 0)], [(10, 0), (5, 5)]]
    for board, deals in enumerate(boards):
        for x, y in deals:
            pair.add((board, ("a", "b")), x, y)
    told = pair.as_dict()
    elo, per_deal = told["elo"], told["points_per_deal"]
    assert elo is not None and per_deal is not None
    assert elo > 0 > per_deal
    lines = report.text(_summary(pair)).splitlines()
    at = lines.index(_pair_line(pair))
    assert lines[at + 1] == f"    {report.NO_DIFFERENCE}"
    assert report.DISAGREE not in lines


def test_figures_both_within_their_margins_say_no_difference_whatever_their_signs() -> None:
    """A pair whose signs agree by chance is said alike: no note for it would read as a
    difference established beside a pair that has the note."""
    pair = PairStats("a", "b", 2)
    for board, deals in enumerate([[(10, 0), (0, 8)], [(10, 0), (14, 0)]]):
        for x, y in deals:
            pair.add((board, ("a", "b")), x, y)
    elo, per_deal = pair.as_dict()["elo"], pair.as_dict()["points_per_deal"]
    assert elo is not None and per_deal is not None
    assert elo > 0 < per_deal
    assert f"    {report.NO_DIFFERENCE}" in report.text(_summary(pair)).splitlines()


def test_agreeing_figures_have_no_note() -> None:
    pair = PairStats("a", "b", 2)
    for board in range(4):
        pair.add((board, ("a", "b")), 30, 10)
        pair.add((board, ("a", "b")), 20, 12 + board)
    assert report.DISAGREE not in report.text(_summary(pair))


def test_every_deal_lost_is_said_in_words_not_the_clamp() -> None:
    """0-0-2 was 'Elo -2400.0 (margin: too few deals)': a clamp shown as a number."""
    pair = PairStats("a", "b", 2)
    pair.add((1, ("a", "b")), 0, 10)
    pair.add((1, ("a", "b")), 3, 10)
    line = _pair_line(pair)
    assert "Elo -∞ (every deal lost), LOS " in line and "2400" not in line, line
    pair.add((2, ("a", "b")), 5, 5)  # a draw: a finite Elo again
    assert "Elo -" in _pair_line(pair) and "∞" not in _pair_line(pair)


def test_a_deal_not_won_among_very_many_is_no_infinity() -> None:
    """A drawn deal among 12,500 won: the score rounds to 1.000, but not every deal was
    won, so the Elo is a number (failed before: 'Elo +∞ (every deal won)', from the
    rounded score)."""
    pair = PairStats("a", "b", 2)
    for board in range(6250):
        pair.add((board, ("a", "b")), 20, 0)
        pair.add((board, ("a", "b")), 20, 0)
    pair.add((6250, ("a", "b")), 5, 5)
    assert f"{pair.as_dict()['score']:.3f}" == "1.000" and pair.draws == 1
    line = _pair_line(pair)
    assert "∞" not in line and "Elo +" in line, line


def test_sets_with_one_seating_each_give_no_points_figure() -> None:
    """A bot forfeiting one seating of every board leaves each set one deal short of the
    board's two seatings: none is complete, so no points/deal nor points LOS (failed
    before: the largest sets, of one deal, were taken as complete: '+30.0 ± … over 3
    duplicate sets' and a points LOS over luck that never cancelled)."""
    pair = PairStats("a", "b", 2)
    for board in range(3):
        pair.add((board, ("a", "b")), 40, 10)
        pair.losses += 1  # the other seating: a forfeited it
    told = pair.as_dict()
    assert told["duplicate_sets"] == 0 and told["deals"] == 6
    assert told["points_per_deal"] is None and told["points_per_deal_margin"] is None
    assert told["points_los"] is None
    line = _pair_line(pair)
    assert line.endswith("points/deal: none (no complete duplicate set)"), line


def test_draws_are_split_into_void_deals_and_equal_points() -> None:
    """A deal nobody wrote a point in (passed out: void) is a draw for every pair, as
    two whistlers writing the same points are; the report tells them apart (it said
    only '-2-': a weak bidder's pair looked evenly matched in play)."""
    pairs: dict[tuple[str, str], PairStats] = {}
    bots, order = ["a", "b", "c"], ["a", "b", "c"]
    count_pairs(pairs, (1, ("a", "b", "c")), 6, bots, [0, 0, 0], None, order)  # passed out
    count_pairs(pairs, (2, ("a", "b", "c")), 6, bots, [100, 20, 20], None, order)  # b, c equal
    assert pairs["a", "b"].as_dict()["void_draws"] == 1 and pairs["a", "b"].draws == 1
    assert (pairs["b", "c"].draws, pairs["b", "c"].void_draws) == (2, 1)
    summary = _summary(pairs["b", "c"])
    line = next(x for x in report.text(summary).splitlines() if " v " in x)
    assert line.startswith("  b v c: 0-2-0 (draws: 1 void, 1 equal points) score 0.500"), line
    # a report stored before void draws were counted says nothing of them
    del summary["pairs"][0]["void_draws"]
    assert "(draws:" not in report.text(summary)


def test_the_ratings_say_they_are_kept_by_name() -> None:
    """docs/bots.md: a bot changed and run again under its old name goes on from the old
    one's rating; the report and the leaderboard say so (they did not)."""
    pair = PairStats("a", "b", 2)
    pair.add((1, ("a", "b")), 10, 0)
    # each game's own, the ratings kept per game (a bot's 2- and 3-player ones apart),
    # the game named as everywhere else ('moscow for 2 players', game_for), not "for
    # moscow with 2 players" (s47's notes)
    said = (
        "Ratings in moscow for 2 players (openskill, mu - 3 sigma; kept from run to run, by name):"
    )
    assert said in report.text(_summary(pair)).splitlines()
    assert " with 2 players" not in report.text(_summary(pair))
    rows = [{"bot": "a", "rating": 1.0, "mu": 25.0, "sigma": 8.0, "games": 2}]
    assert report.leaderboard(rows).splitlines()[-1] == report.BY_NAME


def test_crashes_and_forfeits_are_counted_per_bot_in_words() -> None:
    """Said "Crashes (restarted): none; forfeits: {'flaky': 5}", a Python dict."""
    pair = PairStats("flaky", "rand", 2)
    pair.add((1, ("flaky", "rand")), 40, 10)
    told = {**_summary(pair), "crashes": {"flaky": 2, "rand": 1}, "forfeits": {"flaky": 5}}
    lines = report.text(told).splitlines()
    assert "Crashes (restarted): flaky 2, rand 1; forfeits: flaky 5" in lines, lines
    told = {**_summary(pair), "forfeits": {"flaky": 1}}
    assert "Crashes (restarted): none; forfeits: flaky 1" in report.text(told).splitlines()


def test_a_figure_is_rounded_once_where_it_is_shown() -> None:
    """5 wins and 8 losses, a deal a board: Elo -81.648, margin 226.351, shown as
    '-81.6 ± 226.4'; the summary keeps them whole. Failed before: rounded to two
    decimals in the summary first, -81.65 and 226.35, then to one in the text, 'Elo
    -81.7 ± 226.3'."""
    pair = PairStats("a", "b", 2)
    for board in range(13):
        pair.add((board, ("a", "b")), 10 if board < 5 else 0, 5)
    assert "Elo -81.6 ± 226.4," in _pair_line(pair)
    elo, margin = pair.elo()
    told = pair.as_dict()
    assert (told["elo"], told["elo_margin"]) == (elo, margin)
    assert f"{margin:.1f}" == "226.4"


def test_a_pair_the_sprt_decided_says_so_not_that_more_boards_would_tell() -> None:
    """An SPRT that stopped at H1 for a pair whose LOS is within 2.5%-97.5%: the note
    under the pair names the test that decided. Failed before: 'no difference
    established … more boards would tell' beside the verdict."""
    pair = PairStats("a", "b", 2)
    for board, deals in enumerate([[(10, 0), (0, 8)], [(10, 0), (14, 0)]]):
        for x, y in deals:
            pair.add((board, ("a", "b")), x, y)
    data = _summary(pair)
    data["sprt"] = {
        "first": "a", "second": "b", "elo0": 0.0, "elo1": 20.0, "alpha": 0.05,
        "beta": 0.05, "pairs": 2, "llr": 3.0, "bounds": [-2.944, 2.944], "verdict": "H1",
    }  # fmt: skip
    lines = report.text(data).splitlines()
    note = lines[lines.index(_pair_line(pair)) + 1]
    assert note.startswith("    the SPRT decided this pair: H1 (a more than +0 Elo over b);"), note
    assert report.NO_DIFFERENCE not in lines
    data["sprt"]["verdict"] = None  # no decision: the note stands
    assert f"    {report.NO_DIFFERENCE}" in report.text(data).splitlines()


def test_the_speed_is_said_with_one_decimal_every_run() -> None:
    """Failed before: the JSON's figures as they came, '78.89 deals/s' one run and
    '97.7 deals/s' the next."""
    pair = PairStats("a", "b", 2)
    pair.add((1, ("a", "b")), 10, 0)
    data = _summary(pair)
    for told, said in ((78.89, "78.9"), (97.7, "97.7"), (100, "100.0")):
        data["deals_per_second"], data["seconds"] = told, 12.35
        assert f"1 game (1 deal) in 12.3 s: {said} deals/s" in report.text(data)


def test_a_game_is_named_as_the_server_names_it() -> None:
    """The game port, the web and the server's ratings say 'moscow for 2 players'
    (protocol/messages.py game_for); the ladder said 'moscow, 2 players:' and '2
    players, moscow': the same words now, a plugin's count too."""
    row = {"rating": 1.0, "mu": 25.0, "sigma": 8.0, "games": 2}
    rows = [
        {"bot": "a", "variant": "moscow", "players": 2, **row},
        {"bot": "a", "variant": "kharkov", "players": 3, **row},
        {"bot": "a", "variant": "moscow", "players": 5, **row},
    ]
    heads = [x for x in report.leaderboard(rows).splitlines() if x.endswith(":")]
    assert heads == ["moscow for 2 players:", "kharkov for 3 players:", "moscow for 5 players:"]
    pair = PairStats("a", "b", 2)
    pair.add((1, ("a", "b")), 10, 0)
    summary = _summary(pair) | {"options": ["to-301"]}
    first = report.text(summary).splitlines()[0]
    assert first.startswith("Ladder: a, b; moscow for 2 players (to-301); 1 board"), first
