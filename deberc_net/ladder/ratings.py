"""Ratings for every bot with openskill (Plackett-Luce): it rates pairs and three-player
tables as naturally as two-player games, which Elo does not."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def ranks_by_points(points_by_side: Sequence[float]) -> list[float]:
    """Each side's rank for openskill: the most points rank 1, equal points share a rank
    (the server's ratings for people rank by the same rule, server/ratings.py)."""
    order = sorted({-p for p in points_by_side})
    return [order.index(-p) + 1 for p in points_by_side]


class Ratings:
    def __init__(self, bots: Sequence[str]) -> None:
        # imported here: the server imports this module (ranks_by_points) at start-up and
        # needs openskill only at its first rated match
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings: dict[str, Any] = {b: self.model.rating(name=b) for b in bots}

    @classmethod
    def carried_on(cls, bots: Sequence[str], stored: Sequence[dict[str, Any]]) -> Ratings:
        """The bots' ratings, starting from those of earlier runs (``ladder table``'s rows)."""
        ratings = cls(bots)
        for row in stored:
            if row["bot"] in ratings.ratings:
                ratings.ratings[row["bot"]] = ratings.model.rating(
                    mu=row["mu"], sigma=row["sigma"], name=row["bot"]
                )
        return ratings

    def update(self, bots_by_side: Sequence[str], points_by_side: Sequence[float]) -> None:
        """One game: each side is one bot (a pair of copies with four players, two seats
        of a three-player game); the side that wrote more ranks higher, equal points
        share a rank. A bot must not stand on two sides: it cannot play itself."""
        if len(set(bots_by_side)) != len(bots_by_side):
            raise ValueError(f"one bot on two sides: {list(bots_by_side)}")
        ranks = ranks_by_points(points_by_side)
        teams = [[self.ratings[b]] for b in bots_by_side]
        rated = self.model.rate(teams, ranks=ranks)
        for bot, team in zip(bots_by_side, rated, strict=True):
            self.ratings[bot] = team[0]

    def table(self) -> list[dict[str, Any]]:
        rows = [
            {
                "bot": b,
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "rating": round(r.ordinal(), 3),
            }
            for b, r in self.ratings.items()
        ]
        return sorted(rows, key=lambda row: -row["rating"])
