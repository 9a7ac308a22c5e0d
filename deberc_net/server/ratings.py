"""Ratings for people: every rated match updates its players' openskill ratings (the
ladder's model, deberc_net/ladder/ratings.py), one rating per variant and player count.

Which matches are rated (docs/protocol.md §5.18): a match at a public table opened with
'new', 'seek' or 'rematch', between registered players only. Not rated: a private
table's (friends play as they like), a ladder's board, a match with a house bot unless
the player asked for it with 'bot KIND rated' (then the bot is rated too, under one name
per kind and level; never the random bot, whose rating could be farmed), and any match
with a guest (a guest's name is anyone's once he has gone).

How they rank (§5.18): the side that won first, the others by their totals, and the side
that forfeited (leave!, the away limit, the clock) last, whatever it had written: at three
players it is not the only loser, and ranking it by its total would rate leaving above
staying to the end.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from deberc_net.ladder.ratings import ranks_by_points

from .store import Store, name_key
from .store.base import Outcome, RatingResult

# a side that won ranks above every side that did not, whatever the totals say (a
# forfeit's winner may have written less); the others rank by their totals
WINNER_BONUS = 1e12


def rating_ranks(
    totals: Sequence[int], side_won: Sequence[bool], forfeited: int | None = None
) -> list[float]:
    """Each side's rank for openskill (1 is first; equal ranks are shared): the side that
    won above every other, the others by their totals, and the ``forfeited`` side (its
    index, None: nobody forfeited) below all of them, whatever its total."""
    points = [t + (WINNER_BONUS if w else 0.0) for t, w in zip(totals, side_won, strict=True)]
    if forfeited is not None:
        points[forfeited] = -math.inf
    return ranks_by_points(points)


def load_rating_model() -> None:
    """Import the rating model (openskill: some 6-26 ms the first time in a process), for
    the store writer's thread to do outside its groups (StoreWriter's ``ready``): a
    rated match's end, written in a group, held the store's lock while it loaded."""
    import openskill.models  # noqa: F401


def new_ratings(
    store: Store,
    variant: str,
    names: Sequence[str],
    sides: Sequence[Sequence[int]],
    winners: Sequence[str],
    totals: Sequence[int],
    house: Mapping[str, str] | None = None,
    forfeit: int | None = None,
) -> list[RatingResult]:
    """Rate a finished match (a blocking call, from the store writer's thread): its
    players' new ratings, or none if a player is a guest (no account), for
    ``finish_match`` to store with the match's result. ``house`` maps a rated house
    bot's name to the name its rating is kept under (it has no account); ``forfeit``
    is the seat whose forfeit ended the match (its side ranks last)."""
    from openskill.models import PlackettLuce  # (loaded by then: load_rating_model)

    house = house or {}
    if any(name not in house and store.account(name) is None for name in names):
        return []
    names = [house.get(name, name) for name in names]
    winners = [house.get(name, name) for name in winners]
    model = PlackettLuce()
    players = len(names)
    known = store.ratings_for(list(names), variant, players)
    won = {name_key(w) for w in winners}
    side_won = [all(name_key(names[s]) in won for s in seats) for seats in sides]
    forfeited = next((i for i, seats in enumerate(sides) if forfeit in seats), None)
    teams = [
        [model.rating(*known.get(name_key(names[s]), (None, None))) for s in seats]
        for seats in sides
    ]
    rated = model.rate(teams, ranks=rating_ranks(totals, side_won, forfeited))
    results = []
    for seats, team, side_did in zip(sides, rated, side_won, strict=True):
        outcome = Outcome.WON if side_did else Outcome.DRAWN if not won else Outcome.LOST
        for seat, rating in zip(seats, team, strict=True):
            results.append(
                RatingResult(names[seat], rating.mu, rating.sigma, rating.ordinal(), outcome)
            )
    return results
