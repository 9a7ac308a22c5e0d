"""Who wins a forfeit with more than two sides (docs/protocol.md §11.3, tryout #14):
the side with the highest total among the others; a tie goes to the lowest seat."""

from __future__ import annotations

import pytest

from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset


@pytest.mark.parametrize(
    ("totals", "leaver", "winner"),
    [
        ((0, 0, 0), 0, 1),  # all level: the lowest seat of the others
        ((0, 0, 0), 1, 0),
        ((0, 0, 0), 2, 0),
        ((100, 50, 100), 1, 0),  # a tie at the top: the lower seat
        ((100, 50, 100), 0, 2),  # the leader left: the highest of the others
        ((10, 100, 100), 0, 1),
        ((10, 20, 300), 2, 1),
    ],
)
def test_the_highest_other_side_wins_a_tie_going_to_the_lowest_seat(
    totals: tuple[int, int, int], leaver: int, winner: int
) -> None:
    match = Match(build_ruleset(3), seed="tie-break", dealer=0)
    match.set_standing(list(totals))
    match.forfeit(leaver, "left", seat=leaver)
    assert match.result is not None
    assert (match.result.winner, match.result.reason) == (winner, "left")
    assert match.totals == list(totals)  # nobody writes for a forfeit
