"""The ladder's results, kept alike in an SQLite file and in PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from deberc_net.ladder.store import LadderStore, StoredGame, open_ladder_store
from deberc_net.server.store import open_store
from deberc_net.server.store.migrations import MIGRATIONS

from .records import opened, raw


@pytest.fixture
def ladder_store(store_db: str) -> Iterator[LadderStore]:
    store = open_ladder_store(store_db)
    yield store
    store.close()


def test_a_runs_games_stored_at_once_keep_their_order(ladder_store: LadderStore) -> None:
    run = ladder_store.start_run({})
    played = [
        StoredGame(b, ["a", "b"][:: 1 - 2 * (b % 2)], f"m{b}", [b, 0], "deals", None)
        for b in range(1, 41)
    ]
    played[7] = attrs.evolve(played[7], match_id=None, reason="away", forfeit="b")
    ladder_store.add_games(run, played)
    ladder_store.add_games(run, [])  # nothing: nothing changes
    games = ladder_store.games(run)
    assert [StoredGame(**g) for g in games] == played


def test_a_page_of_a_runs_games_is_read_in_their_order_and_counted_per_run(
    ladder_store: LadderStore,
) -> None:
    """A run's page (docs/web.md, /ladders/N?page=N) reads its games in the order stored,
    those of that run alone, however its games and another run's were stored between."""
    first, second = ladder_store.start_run({}), ladder_store.start_run({})
    for n in range(5):  # stored in turns: 5 of each run, 5 times
        for run in (first, second):
            games = [StoredGame(10 * n + b, ["a", "b"], f"m{run}-{n}-{b}", [b, 0], "deals", None)
                     for b in range(5)]  # fmt: skip
            ladder_store.add_games(run, games)
    every = ladder_store.games(first)
    assert len(every) == 25 and ladder_store.game_count(first) == 25
    assert ladder_store.games_page(first, 0, 10) == every[:10]
    assert ladder_store.games_page(first, 10, 10) == every[10:20]
    assert ladder_store.games_page(first, 20, 10) == every[20:]
    assert ladder_store.games_page(first, 25, 10) == []
    assert ladder_store.games_page(second, 3, 4) == ladder_store.games(second)[3:7]
    assert ladder_store.game_count(ladder_store.start_run({})) == 0


def rating(bot: str, value: float) -> dict[str, float | str]:
    return {"bot": bot, "mu": value / 10, "sigma": 2.5, "rating": value}


def test_runs_keep_their_games_in_order(ladder_store: LadderStore) -> None:
    first = ladder_store.start_run({"argv": ["--deals", "2"]})
    second = ladder_store.start_run({"argv": []})
    assert second > first
    ladder_store.add_games(first, [StoredGame(1, ["heur", "rand"], "m1", [301, 40], "score", None)])
    ladder_store.add_games(
        second, [StoredGame(1, ["rand", "heur"], None, [0, 0], "forfeit", "rand")]
    )
    ladder_store.add_games(first, [StoredGame(1, ["rand", "heur"], "m2", [12, 302], "score", None)])
    assert ladder_store.games(first) == [
        {"board": 1, "seating": ["heur", "rand"], "match_id": "m1", "written": [301, 40],
         "reason": "score", "forfeit": None},
        {"board": 1, "seating": ["rand", "heur"], "match_id": "m2", "written": [12, 302],
         "reason": "score", "forfeit": None},
    ]  # fmt: skip
    assert [g["forfeit"] for g in ladder_store.games(second)] == ["rand"]


def test_runs_are_listed_newest_first_with_their_reports(ladder_store: LadderStore) -> None:
    assert (ladder_store.runs(), ladder_store.run(1)) == ([], None)
    first = ladder_store.start_run({"argv": []})
    second = ladder_store.start_run({"argv": []})
    ladder_store.finish_run(first, {"deals": 3}, [rating("heur", 1.0)], {"heur": 1})
    runs = ladder_store.runs()
    assert [(r.id, r.summary) for r in runs] == [(second, None), (first, {"deals": 3})]
    assert ladder_store.run(first) == runs[1] and ladder_store.run(second + 1) is None
    assert all(len(r.started) == 19 and r.started[10] == " " for r in runs)  # UTC text


def test_ratings_are_replaced_and_games_added_up(ladder_store: LadderStore) -> None:
    run = ladder_store.start_run({})
    ladder_store.finish_run(run, {"deals": 1}, [rating("heur", 30.0), rating("rand", 10.0)],
                            {"heur": 2, "rand": 2})  # fmt: skip
    run = ladder_store.start_run({})
    ladder_store.finish_run(run, {"deals": 1}, [rating("heur", 5.0), rating("rand", 12.5)],
                            {"heur": 4, "rand": 4})  # fmt: skip
    board = ladder_store.leaderboard()
    assert [(r["bot"], r["rating"], r["mu"], r["sigma"], r["games"]) for r in board] == [
        ("rand", 12.5, 1.25, 2.5, 6),
        ("heur", 5.0, 0.5, 2.5, 6),
    ]
    assert all(len(r["updated"]) == 19 and r["updated"][10] == " " for r in board)


def test_a_ladder_store_and_a_server_store_share_one_database(store_db: str) -> None:
    ladder = open_ladder_store(store_db)
    server = open_store(store_db, serving=True)
    try:
        assert server.schema_version() == len(MIGRATIONS)
        run = ladder.start_run({})
        ladder.add_games(run, [StoredGame(1, ["a", "b"], "m1", [1, 2], "score", None)])
        assert server.max_match_number() == 0 and len(ladder.games(run)) == 1
    finally:
        server.close()
        ladder.close()


def test_a_ladder_file_from_before_migrations_is_adopted(tmp_path: Path) -> None:
    path = tmp_path / "ladder.sqlite3"
    with sqlite3.connect(path) as db:  # the tables as the ladder made them itself
        db.executescript(MIGRATIONS[0].sqlite + MIGRATIONS[1].sqlite)
        db.execute("INSERT INTO ladder_ratings (bot, mu, sigma, rating, games) VALUES "
                   "('heur', 25, 8, 1, 10)")  # fmt: skip
    db.close()
    store = open_ladder_store(path)
    try:
        assert [r["bot"] for r in store.leaderboard()] == ["heur"]
    finally:
        store.close()
    server = open_store(path)
    try:
        assert server.schema_version() == len(MIGRATIONS)
    finally:
        server.close()


def test_a_ladder_run_makes_its_sqlite_file_its_owners_only(tmp_path: Path) -> None:
    """The ladder's file is the server's (its /ladders, its accounts): one a ladder run
    makes first is as private as one the server makes (docs/security.md)."""
    path = tmp_path / "new.sqlite3"
    open_ladder_store(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


def test_ratings_are_kept_per_game(ladder_store: LadderStore) -> None:
    """A bot's two-player and three-player ratings are two rows (as people's are, per
    variant and number of players): a three-player run leaves the two-player ratings as
    they were. Failed before: one row per bot name, which each kind of run took over."""
    two = {"variant": "moscow", "players": 2}
    three = {"variant": "moscow", "players": 3}
    first = [rating("heur", 30.0), rating("rand", 10.0)]
    ladder_store.finish_run(ladder_store.start_run({}), two, first, {"heur": 2, "rand": 2})
    second = [rating("heur", 5.0), rating("rand", 12.5)]
    ladder_store.finish_run(ladder_store.start_run({}), three, second, {"heur": 6, "rand": 6})
    board = ladder_store.leaderboard()
    assert [(r["variant"], r["players"], r["bot"], r["rating"], r["games"]) for r in board] == [
        ("moscow", 2, "heur", 30.0, 2),
        ("moscow", 2, "rand", 10.0, 2),
        ("moscow", 3, "rand", 12.5, 6),
        ("moscow", 3, "heur", 5.0, 6),
    ]


def test_migration_22_gives_a_stored_rating_the_game_of_its_last_run(new_store_db: str) -> None:
    """A rating stored when there was one row per bot goes to the game of the last
    counted run that had the bot (whose rating it carries); a bot in no such run to
    moscow's two-player ratings."""
    opened(new_store_db, migrations=MIGRATIONS[:21]).close()
    runs = [
        {"bots": ["heur", "rand"], "variant": "moscow", "players": 2},
        {"bots": ["heur", "rand"], "variant": "moscow", "players": 3},
        {"bots": ["rand", "zed"], "variant": "kiev", "players": 2},
    ]
    for run in runs:
        raw(new_store_db, f"INSERT INTO ladder_runs (settings, summary) VALUES ('{{}}', "
                          f"'{json.dumps(run)}')")  # fmt: skip
    raw(new_store_db, "INSERT INTO ladder_runs (settings) VALUES ('{}')")  # uncounted
    for bot in ("heur", "rand", "zed", "lone"):
        raw(new_store_db, "INSERT INTO ladder_ratings (bot, mu, sigma, rating, games)"
                          f" VALUES ('{bot}', 25, 8, 1, 10)")  # fmt: skip
    store = open_ladder_store(new_store_db)
    try:
        board = store.leaderboard()
    finally:
        store.close()
    assert sorted((r["bot"], r["variant"], r["players"], r["games"]) for r in board) == [
        ("heur", "moscow", 3, 10),
        ("lone", "moscow", 2, 10),
        ("rand", "kiev", 2, 10),
        ("zed", "kiev", 2, 10),
    ]
