"""How a rated match's sides rank for openskill (docs/protocol.md §5.18): the winner
first, the others by their totals, and a side that forfeited last, whatever its total."""

from __future__ import annotations

from deberc_net.server.ratings import rating_ranks


def test_a_forfeiting_seat_ranks_below_every_player_who_stayed() -> None:
    # three players: vera won, boris left with more than anna, who stayed to the end
    assert rating_ranks([120, 80, 40], [True, False, False]) == [1, 2, 3]
    assert rating_ranks([120, 80, 40], [True, False, False], forfeited=1) == [1, 3, 2]
    # a forfeiter with the most points, and a stayer below zero (short-bide pays)
    assert rating_ranks([5, 300, -2], [True, False, False], forfeited=1) == [1, 3, 2]
    # the stayers level: the winner (the lower seat, §7) first, the leaver still last
    assert rating_ranks([40, 40, 90], [True, False, False], forfeited=2) == [1, 2, 3]


def test_without_a_forfeit_the_ranks_are_as_they_were() -> None:
    # short-bide at three: the two whistlers end level, winner= the lower side (rules §11)
    assert rating_ranks([1, 1, -2], [True, False, False]) == [1, 2, 3]
    assert rating_ranks([-2, 1, 1], [False, True, False]) == [3, 1, 2]
    # a forfeit's winner may have written less: the win ranks first all the same
    assert rating_ranks([10, 90], [True, False], forfeited=1) == [1, 2]
    assert rating_ranks([10, 90], [True, False]) == [1, 2]
    # a draw (no winner): level totals share a rank
    assert rating_ranks([50, 50], [False, False]) == [1, 1]
