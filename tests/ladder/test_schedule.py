"""Who plays which board in which seat: duplicate seatings, round robin and gauntlet."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict

import pytest

from deberc_net.game.seeding import deck_for
from deberc_net.ladder.schedule import (
    Game,
    ScheduleError,
    board_deals,
    board_games,
    groups,
    schedule,
    seatings,
    set_size,
)


def test_two_players_play_each_board_in_both_seatings() -> None:
    assert seatings(("a", "b"), 2) == [("a", "b"), ("b", "a")]
    games = list(schedule(["a", "b"], 2, 3, "s"))
    assert len(games) == 6
    assert [g.seating for g in games] == [("a", "b"), ("b", "a")] * 3
    assert [g.board for g in games] == [1, 1, 2, 2, 3, 3]


def test_three_distinct_bots_play_all_six_permutations() -> None:
    got = seatings(("a", "b", "c"), 3)
    assert len(got) == 6 and set(got) == set(itertools.permutations("abc"))
    for seat in range(3):  # every bot sits in every seat twice
        assert Counter(s[seat] for s in got) == {"a": 2, "b": 2, "c": 2}


def test_four_players_two_bots_both_pair_orientations() -> None:
    assert seatings(("a", "b"), 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    games = list(schedule(["a", "b"], 4, 2, "s"))
    assert len(games) == 4
    for g in games:  # partners across: seats 0 and 2, 1 and 3, are the same bot
        assert g.seating[0] == g.seating[2] and g.seating[1] == g.seating[3]
        assert g.seating[0] != g.seating[1]


def test_three_players_with_two_bots_meet_as_two_plus_one_both_ways() -> None:
    assert groups(["a", "b"], 3, "round-robin") == [("a", "a", "b"), ("a", "b", "b")]
    assert seatings(("a", "a", "b"), 3) == [("a", "a", "b"), ("a", "b", "a"), ("b", "a", "a")]
    assert len(list(schedule(["a", "b"], 3, 1, "s"))) == 6


def test_round_robin_and_gauntlet_groups() -> None:
    bots = ["champ", "x", "y", "z"]
    assert groups(bots, 2, "round-robin") == list(itertools.combinations(bots, 2))
    assert groups(bots, 2, "gauntlet") == [("champ", "x"), ("champ", "y"), ("champ", "z")]
    assert groups(bots, 4, "gauntlet") == [("champ", "x"), ("champ", "y"), ("champ", "z")]
    assert groups(bots, 3, "round-robin") == list(itertools.combinations(bots, 3))
    gauntlet3 = groups(bots, 3, "gauntlet")
    assert gauntlet3 == [("champ", "x", "y"), ("champ", "x", "z"), ("champ", "y", "z")]
    games = list(schedule(bots, 2, 2, "s", "gauntlet"))
    assert len(games) == 2 * 3 * 2
    assert all("champ" in g.seating for g in games)
    rr = list(schedule(bots, 2, 2, "s"))
    assert len(rr) == 2 * 6 * 2 and any("champ" not in g.seating for g in rr)


def test_every_seating_of_a_board_shares_the_seed_and_boards_differ() -> None:
    games = list(schedule(["a", "b", "c"], 3, 4, "ladder-seed"))
    by_key: dict[tuple[int, tuple[str, ...]], list[Game]] = defaultdict(list)
    for g in games:
        by_key[g.key].append(g)
    assert len(by_key) == 4
    for (board, group), members in by_key.items():
        assert len(members) == 6 and {g.seed for g in members} == {f"ladder-seed/board{board}"}
        assert group == ("a", "b", "c") and len({g.seating for g in members}) == 6
    seeds = sorted({g.seed for g in games})
    assert len(seeds) == 4
    decks = {deck_for(seed, 1) for seed in seeds}  # the deal a reserved table plays
    assert len(decks) == 4
    # the seed depends on the ladder seed and the board only: same inputs, same boards
    assert list(schedule(["a", "b", "c"], 3, 4, "ladder-seed")) == games
    other = {g.seed for g in schedule(["a", "b", "c"], 3, 4, "other")}
    assert not other & set(seeds)


def test_schedule_goes_board_by_board() -> None:
    games = list(schedule(["a", "b", "c"], 2, 3, "s"))
    boards = [g.board for g in games]
    assert boards == sorted(boards)  # a stop after any board leaves complete boards


@pytest.mark.parametrize("bots", [[], ["solo"]])
def test_fewer_than_two_bots_refused(bots: list[str]) -> None:
    with pytest.raises(ScheduleError, match="at least two"):
        list(schedule(bots, 2, 1, "s"))


def test_duplicate_names_and_unknown_mode_refused() -> None:
    with pytest.raises(ScheduleError, match="differ"):
        list(schedule(["a", "b", "a"], 2, 1, "s"))
    with pytest.raises(ScheduleError, match="unknown schedule"):
        list(schedule(["a", "b"], 2, 1, "s", "swiss"))


def test_a_complete_duplicate_set_has_every_seating_of_its_board() -> None:
    assert set_size(("a", "b")) == 2
    assert set_size(("b", "a", "b", "a")) == 2
    assert set_size(("a", "b", "c")) == 6
    assert set_size(("a", "b", "a")) == 3


def test_a_complete_board_holds_every_group_the_pair_meets_in() -> None:
    """A board is one observation of a pair (docs/bots.md): three players and two bots,
    both its duplicate sets, 2 x 3 seatings of two deals each; three players and four
    bots, both triples that hold the pair."""
    assert board_deals(["a", "b"], 2, "round-robin") == {frozenset("ab"): 2}
    assert board_deals(["a", "b"], 4, "round-robin") == {frozenset("ab"): 2}
    assert board_deals(["a", "b"], 3, "round-robin") == {frozenset("ab"): 12}
    assert board_deals(["a", "b"], 3, "gauntlet") == {frozenset("ab"): 12}
    four = board_deals(["a", "b", "c", "d"], 3, "round-robin")
    assert four[frozenset("ab")] == 12 and len(four) == 6
    assert board_games(["a", "b"], 3, "round-robin") == 6
    assert board_games(["a", "b"], 2, "round-robin") == 2
