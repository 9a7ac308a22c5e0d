"""People's ratings in the store (migration 3), alike in SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from deberc_net.server.store import Store, open_store
from deberc_net.server.store.base import Outcome, PlayerRating, RatingPoint, RatingResult
from deberc_net.server.store.migrations import MIGRATIONS
from deberc_net.server.store.sqlite import SQLiteStore


@pytest.fixture
def store(store_db: str) -> Iterator[Store]:
    store = open_store(store_db)
    yield store
    store.close()


def test_ratings_are_kept_per_variant_and_player_count_with_their_history(store: Store) -> None:
    assert store.ratings_for(["ann", "bob"], "moscow", 2) == {}
    store.save_ratings(
        "m1",
        "moscow",
        2,
        [
            RatingResult("Ann", 27.5, 8.0, 3.5, Outcome.WON),
            RatingResult("bob", 22.5, 8.0, -1.5, Outcome.LOST),
        ],
    )
    store.save_ratings(
        "m2",
        "moscow",
        2,
        [
            RatingResult("ANN", 26.0, 7.5, 3.5, Outcome.LOST),
            RatingResult("bob", 24.0, 7.5, 1.5, Outcome.WON),
        ],
    )
    store.save_ratings("m3", "kharkov", 3, [RatingResult("ann", 25.0, 8.0, 1.0, Outcome.DRAWN)])
    assert store.ratings_for(["ann", "BOB", "cat"], "moscow", 2) == {
        "ann": (26.0, 7.5),
        "bob": (24.0, 7.5),
    }
    assert store.standings("moscow", 2) == [
        PlayerRating("ANN", "moscow", 2, 26.0, 7.5, 3.5, 2, 1, 1, 0),  # as last written
        PlayerRating("bob", "moscow", 2, 24.0, 7.5, 1.5, 2, 1, 1, 0),
    ]
    assert store.standings("moscow", 3) == []
    assert store.player_ratings("ann") == [
        PlayerRating("ann", "kharkov", 3, 25.0, 8.0, 1.0, 1, 0, 0, 1),
        PlayerRating("ANN", "moscow", 2, 26.0, 7.5, 3.5, 2, 1, 1, 0),
    ]
    assert store.rating_history("Ann") == [
        RatingPoint("moscow", 2, "m1", 3.5),
        RatingPoint("moscow", 2, "m2", 3.5),
        RatingPoint("kharkov", 3, "m3", 1.0),
    ]
    assert store.rating_history("nobody") == []
    # his last ones alone, still oldest first (a player's page: docs/web.md)
    assert store.rating_history("ann", 2) == [
        RatingPoint("moscow", 2, "m2", 3.5),
        RatingPoint("kharkov", 3, "m3", 1.0),
    ]
    assert store.rating_history("ann", 5) == store.rating_history("ann")


def test_a_database_of_migration_2_gains_the_ratings(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    SQLiteStore(path, migrations=MIGRATIONS[:2]).close()
    store = SQLiteStore(path)
    try:
        assert store.schema_version() == len(MIGRATIONS)
        assert store.standings("moscow", 2) == []
    finally:
        store.close()


def test_a_page_of_the_standings_and_the_counts_of_each_game(store: Store) -> None:
    """'top' reads a page and the counts, not a game's whole standings (server/club.py)."""
    for i in range(7):
        result = RatingResult(f"p{i}", 25.0, 8.0, float(i % 3), Outcome.WON)  # ties: by key
        store.save_ratings(f"m{i}", "moscow", 2, [result])
    store.save_ratings("k1", "kharkov", 4, [RatingResult("ann", 25.0, 8.0, 1.0, Outcome.WON)])
    whole = store.standings("moscow", 2)
    assert [store.standings_page("moscow", 2, first, 3) for first in (0, 3, 6, 9)] == [
        whole[0:3],
        whole[3:6],
        whole[6:7],
        [],
    ]
    assert store.standings_page("moscow", 3, 0, 3) == []
    assert store.rated_counts() == {("moscow", 2): 7, ("kharkov", 4): 1}
    # 'finger' counts a place rather than read the standings: the same place, ties by key
    assert [store.rank(r) for r in whole] == list(range(1, 8))
    assert store.rank(store.player_ratings("ann")[0]) == 1
