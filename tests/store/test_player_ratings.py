"""People's ratings in the store (migration 3), alike in SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from deberc_net.server.accounts import set_password
from deberc_net.server.ratings import new_ratings
from deberc_net.server.store import Store, open_store
from deberc_net.server.store.base import Outcome, PlayerRating, RatingPoint, RatingResult
from deberc_net.server.store.migrations import MIGRATIONS
from deberc_net.server.store.postgres import RATING_LOCK
from deberc_net.server.store.sqlite import SQLiteStore
from tests.store.locks import started, wait_until, waiting_for_locks


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


def _rated_end(
    store: Store, match: str, names: list[str], first: threading.Event, other: threading.Event
) -> None:
    """A rated match's end, as a table's worker thread makes it (server/table.py): its
    players' ratings read and the new ones computed, then stored with its result, inside
    ``ratings_held``; ``first`` set once it has read, ``other`` (the other end's) waited
    for a moment, so that, were nothing held, both would read before either wrote."""
    with store.ratings_held(names, "moscow", 2):
        ratings = new_ratings(store, "moscow", names, [[0], [1]], [names[0]], [301, 120])
        first.set()
        other.wait(0.5)
        store.finish_match(
            match, 3, names, "moscow", [], names[0], "score", [301, 120], ratings=ratings
        )


def _two_ends_at_once_count_both(stores: list[Store], alone: Store) -> None:
    """ann's matches against bob and cal end at once, one on each of ``stores`` (two
    servers on one database), each reading her rating before either writes, were
    nothing held: her rating is that of both matches in turn, as ``alone`` (one server,
    one end at a time) reckons it."""
    for store in (stores[0], alone):  # (the two share one database)
        for name in ("ann", "bob", "cal"):
            set_password(store, name, f"{name}-secret-1")
    for match, names in (("m1", ["ann", "bob"]), ("m2", ["ann", "cal"])):
        ratings = new_ratings(alone, "moscow", names, [[0], [1]], [names[0]], [301, 120])
        alone.finish_match(
            match, 3, names, "moscow", [], names[0], "score", [301, 120], ratings=ratings
        )
    read = [threading.Event(), threading.Event()]
    ends = [
        threading.Thread(target=_rated_end, args=(stores[0], "m1", ["ann", "bob"], *read)),
        threading.Thread(target=_rated_end, args=(stores[1], "m2", ["ann", "cal"], *read[::-1])),
    ]
    for end in ends:
        end.start()
    for end in ends:
        end.join(20)
    [ann] = stores[0].player_ratings("ann")
    [expected] = alone.player_ratings("ann")
    assert ann.games == 2
    assert (ann.mu, ann.sigma) == pytest.approx((expected.mu, expected.sigma))


@pytest.mark.timeout(60)  # two threads, each joined within 20 s
def test_two_servers_ending_rated_matches_of_one_name_at_once_lose_neither_update(
    postgres_url: str, tmp_path: Path
) -> None:
    """docs/scaling.md, "Ratings under `--workers`": the two ends on two servers
    (workers) on one PostgreSQL database. Before, one update was lost (its game still
    counted)."""
    stores = [open_store(postgres_url), open_store(postgres_url)]
    alone = open_store(str(tmp_path / "one.sqlite3"))
    try:
        _two_ends_at_once_count_both(stores, alone)
    finally:
        for store in [*stores, alone]:
            store.close()


@pytest.mark.timeout(60)  # two threads, each joined within 20 s
def test_two_servers_on_one_sqlite_file_ending_rated_matches_outside_a_group_lose_neither(
    tmp_path: Path,
) -> None:
    """As above, on one SQLite file two servers share (docs/scaling.md), each end made
    outside the store writer's group, as it makes them when a group could not begin
    (the other server holding the file: its jobs done one by one) or once it closed:
    the read was a statement of its own, the write another transaction, and one of the
    two updates was lost."""
    db = str(tmp_path / "two.sqlite3")
    stores = [open_store(db), open_store(db)]
    alone = open_store(str(tmp_path / "one.sqlite3"))
    try:
        _two_ends_at_once_count_both(stores, alone)
    finally:
        for store in [*stores, alone]:
            store.close()


# two pairs of names whose locks' keys ('moscow 2 NAME') share PostgreSQL's 32-bit
# hashtext: p180487 and p48407 one lock, p239859 and p35311 another
SAME_LOCK = (("p180487", "p48407"), ("p239859", "p35311"))


def _held_then_set(store: Store, names: list[str], done: threading.Event) -> None:
    with store.ratings_held(names, "moscow", 2):
        done.set()


def _waiting(conn: psycopg.Connection[Any], count: int) -> None:
    """Until ``count`` advisory locks are waited for (within 20 s)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        ).fetchone()
        if row is not None and row[0] >= count:
            return
        time.sleep(0.01)
    raise AssertionError(f"{count} advisory locks never waited for")


@pytest.mark.timeout(60)  # two threads, each joined within 20 s
def test_rated_ends_whose_names_share_a_lock_take_turns_without_a_deadlock(
    postgres_url: str,
) -> None:
    """The names' locks are taken in one order, that of the locks themselves: in the
    names' order, two ends whose names' hashes collide took the same two locks in
    opposite orders (the first [A, B], the second [B, A]), and PostgreSQL ended one
    with 'deadlock detected': its match's result and ratings not stored. Forced: a
    third transaction holds B while the second, then the first, wait."""
    (a1, a2), (b1, b2) = SAME_LOCK
    first, second = [a1, b1], [a2, b2]  # by name: first takes A then B, second B then A
    assert sorted(first) == first and sorted(second) == [b2, a2]
    stores = [open_store(postgres_url), open_store(postgres_url)]
    done = [threading.Event(), threading.Event()]
    failed: list[BaseException] = []

    def end(store: Store, names: list[str], done: threading.Event) -> None:
        try:
            _held_then_set(store, names, done)
        except BaseException as exc:  # (told to the test's thread)
            failed.append(exc)

    try:
        with (
            psycopg.connect(postgres_url) as holder,
            psycopg.connect(postgres_url, autocommit=True) as looker,
        ):
            holder.execute(RATING_LOCK, (f"moscow 2 {b1}",))  # B, till its commit
            ends = [
                threading.Thread(target=end, args=(stores[1], second, done[1])),
                threading.Thread(target=end, args=(stores[0], first, done[0])),
            ]
            ends[0].start()
            _waiting(looker, 1)  # the second waits for B
            ends[1].start()
            _waiting(looker, 2)  # the first waits too
            holder.commit()
            for thread in ends:
                thread.join(20)
        assert not failed, failed
        assert all(d.is_set() for d in done)
    finally:
        for store in stores:
            store.close()


def test_a_forgotten_accounts_name_registered_again_starts_clean(store: Store) -> None:
    """forget_account drops the account's ratings, their history and its ignore list
    with it (docs/scaling.md): whoever registers the name next starts at no rating, off
    the standings, ignoring nobody; the others' ratings stay as they were."""
    assert store.add_account("Vera", b"s", b"h")
    store.save_ratings(
        "m1",
        "moscow",
        2,
        [
            RatingResult("Vera", 27.5, 8.0, 3.5, Outcome.WON),
            RatingResult("bob", 22.5, 8.0, -1.5, Outcome.LOST),
        ],
    )
    store.ignore("vera", "bob")
    store.forget_account("VERA")
    assert store.player_ratings("vera") == [] and store.rating_history("vera") == []
    assert [r.name for r in store.standings("moscow", 2)] == ["bob"]  # off `top`
    assert store.rated_counts() == {("moscow", 2): 1}
    assert store.add_account("vera", b"s2", b"h2")  # someone else
    assert store.ratings_for(["vera", "bob"], "moscow", 2) == {"bob": (22.5, 8.0)}
    assert store.player_ratings("vera") == [] and store.rating_history("vera") == []
    assert store.arrival("vera", 10).ignored == ()
    assert store.rating_history("bob") == [RatingPoint("moscow", 2, "m1", -1.5)]


@pytest.mark.timeout(60)  # a thread joined within 20 s
def test_an_account_forgotten_while_its_rated_match_ends_leaves_no_rating(
    postgres_url: str,
) -> None:
    """PostgreSQL: forget_account made while a rated match of the account ends, between
    the end's read (the account there, its rating read) and its write. Before, the
    forget did not wait: it deleted the rating, then the end's upsert made it anew (the
    next account of the name inherited it, as before s42's forget_account). Now the end
    holds its players' accounts (FOR KEY SHARE, in ratings_held): the forget waits for
    its commit, then deletes what it wrote. (SQLite: the end's write transaction holds
    the file's lock from its read to its commit, and a forget waits for it.)"""
    ender, forgetter = open_store(postgres_url), open_store(postgres_url)
    names = ["Vera", "bob"]
    try:
        assert ender.add_account("Vera", b"s", b"h") and ender.add_account("bob", b"s", b"h")
        ender.save_ratings(
            "m1",
            "moscow",
            2,
            [
                RatingResult("Vera", 27.5, 8.0, 3.5, Outcome.WON),
                RatingResult("bob", 22.5, 8.0, -1.5, Outcome.LOST),
            ],
        )
        with psycopg.connect(postgres_url, autocommit=True) as looker:
            with ender.ratings_held(names, "moscow", 2):
                ratings = new_ratings(ender, "moscow", names, [[0], [1]], ["Vera"], [301, 120])
                assert ratings  # both have accounts: rated
                forget, failed = started(lambda: forgetter.forget_account("vera"))
                wait_until(
                    lambda: not forget.is_alive() or waiting_for_locks(looker) > 0,
                    "the forget to end or wait for the end",
                )
                ender.finish_match(
                    "m2", 3, names, "moscow", [], "Vera", "score", [301, 120], ratings=ratings
                )
            forget.join(20)
        assert not forget.is_alive() and not failed, failed
        assert forgetter.player_ratings("vera") == [] and forgetter.rating_history("vera") == []
        assert forgetter.account("vera") is None
        assert forgetter.add_account("vera", b"s2", b"h2")  # someone else: no rating
        assert list(forgetter.ratings_for(names, "moscow", 2)) == ["bob"]
        assert [p.match for p in forgetter.rating_history("bob")] == ["m1", "m2"]
    finally:
        ender.close()
        forgetter.close()
