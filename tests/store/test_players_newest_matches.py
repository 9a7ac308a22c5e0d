"""A player's newest matches ('games', 'finger', 'history', his page) are the end of his
range of an index: his rows of ``match_players`` carry each match's finish time and its
place in the order stored (migration 15), kept by every write of the match's row. A
bench of a big club (bench/big_club.py) had them sorted out of all his rows, 26 ms a
'games' for a player of 10,000 matches (docs/performance.md)."""

from __future__ import annotations

import sqlite3

from deberc_net.ladder.store import open_ladder_store
from deberc_net.server.store import is_postgres, open_store
from deberc_net.server.store.base import RECENT_GAMES
from deberc_net.server.store.migrations import MIGRATIONS

from .records import deal, finish, opened, raw


def test_a_match_listed_as_stopped_then_finished_is_its_players_newest(store_db: str) -> None:
    """m1, cut off by its server's stop (listed, reason shutdown), is finished after m2:
    it is the newest. Failed without its players' rows following its row: m2 first."""
    store = open_store(store_db, serving=True)
    store.add_deal(deal("m1", 1))
    store.close()  # (a clean stop lists its running match)
    store = open_store(store_db)
    try:
        assert [g["reason"] for g in store.recent_games("ann")] == ["shutdown"]
        finish(store, "m2", ["ann", "Бо"], winner="ann")
        finish(store, "m1", ["ann", "Бо"], winner="Бо")
        games = store.recent_games("бо")
        assert [(g["match"], g["reason"], g["winner"]) for g in games] == [
            ("m1", "score", "Бо"),
            ("m2", "score", "ann"),
        ]
        assert [g["match"] for g in store.recent_games("ann", 1)] == ["m1"]
    finally:
        store.close()


def _old_store(db: str) -> None:
    """A store at schema 14 (before migration 15) with ann's five matches, two finished
    in one second (m4 stored after m2: the newer of the two), and a ladder run's games
    stored between another run's."""
    opened(db, migrations=MIGRATIONS[:14]).close()
    finished = {
        "m1": "2026-01-01 10:00:00",
        "m2": "2026-01-03 10:00:00",
        "m3": "2026-01-02 10:00:00",
        "m4": "2026-01-03 10:00:00",
        "m5": "2026-01-01 09:00:00",
    }
    statements = []
    for match, when in finished.items():
        statements += [
            "INSERT INTO matches (id, table_id, players, variant, options, winner, reason,"
            f" totals, finished) VALUES ('{match}', 3, '[\"ann\", \"bob\"]', 'moscow', '[]',"
            f" 'ann', 'score', '[301, 120]', '{when}')",
            f"INSERT INTO match_players (match_id, key) VALUES ('{match}', 'ann'),"
            f" ('{match}', 'bob')",
        ]
    statements += ["INSERT INTO ladder_runs (settings) VALUES ('{}')"] * 2
    for board in range(6):
        run = 1 + board % 2
        statements.append(
            "INSERT INTO ladder_games (run_id, board, seating, match_id, written, reason)"
            f" VALUES ({run}, {board}, '[\"a\", \"b\"]', 'g{board}', '[1, 0]', 'score')"
        )
    raw(db, *statements)


def test_a_store_of_the_old_schema_upgrades_keeping_its_matches_order_and_games(
    new_store_db: str,
) -> None:
    """Migration 15 fills in the old rows: ann's matches newest first as before (by
    finish time, then the order stored), every row kept, a ladder run's games read a
    page at a time; a match finished after the upgrade is the newest."""
    _old_store(new_store_db)
    store = open_store(new_store_db)
    try:
        assert store.schema_version() == len(MIGRATIONS)
        assert [g["match"] for g in store.recent_games("ann")] == ["m4", "m2", "m3", "m1", "m5"]
        assert [g["match"] for g in store.recent_games("bob", 2)] == ["m4", "m2"]
        assert str(store.recent_games("ann")[0]["finished"]).startswith("2026-01-03 10:00:00")
        finish(store, "m6", ["ann", "Бо"], winner="ann")
        assert [g["match"] for g in store.recent_games("ann", 2)] == ["m6", "m4"]
        assert [g["match"] for g in store.recent_games("бо")] == ["m6"]
    finally:
        store.close()
    ladder = open_ladder_store(new_store_db, migrate=False)
    try:
        assert [g["match_id"] for g in ladder.games(1)] == ["g0", "g2", "g4"]
        assert [g["match_id"] for g in ladder.games_page(1, 1, 5)] == ["g2", "g4"]
        assert (ladder.game_count(1), ladder.game_count(2)) == (3, 3)
    finally:
        ladder.close()


def test_a_players_newest_matches_are_read_off_the_index_not_sorted(new_store_db: str) -> None:
    """The plan of 'his last N matches': the (key, finished, seq) index walked from its
    end, no sort of his rows; and a run's games found by their run's index, not a scan of
    every run's. Failed before migration 15: a temporary B-tree (SQLite) or a Sort
    (PostgreSQL) of all his rows, and a scan of ladder_games."""
    open_store(new_store_db).close()
    query = RECENT_GAMES.format(p="{}", finished="1").format("'ann'", "10")  # (as bound)
    games = "SELECT * FROM ladder_games WHERE run_id = 3 ORDER BY {order} LIMIT 100 OFFSET 200"
    if is_postgres(new_store_db):
        import psycopg

        with psycopg.connect(new_store_db) as conn:
            conn.execute(
                "INSERT INTO matches (id, table_id, players, variant, options, reason, totals)"
                " SELECT 'm' || g, 1, '[]', 'moscow', '[]', 'score', '[0, 0]'"
                " FROM generate_series(1, 5000) AS g"
            )
            conn.execute(
                "INSERT INTO match_players (match_id, key, finished, seq)"
                " SELECT id, CASE WHEN seq % 2 = 0 THEN 'ann' ELSE 'p' || seq END, finished, seq"
                " FROM matches"
            )
            conn.execute(
                "INSERT INTO ladder_games (run_id, board, seating, written, reason)"
                " SELECT g % 50, g, '[]', '[]', 'score' FROM generate_series(1, 20000) AS g"
            )
            conn.execute("ANALYZE")
            plan = conn.execute(f"EXPLAIN {query}".encode()).fetchall()
            read = conn.execute(("EXPLAIN " + games.format(order="seq")).encode()).fetchall()
        told = "\n".join(row[0] for row in plan)
        assert "match_players_recent" in told and "Sort" not in told, told
        told = "\n".join(row[0] for row in read)  # (its 400 sorted, a page's worth)
        assert "ladder_games_run" in told and "Seq Scan" not in told, told
        return
    with sqlite3.connect(new_store_db) as db:
        plan = db.execute(f"EXPLAIN QUERY PLAN {query}").fetchall()
        read = db.execute("EXPLAIN QUERY PLAN " + games.format(order="rowid")).fetchall()
    db.close()
    told = "\n".join(row[-1] for row in plan)
    assert "USING INDEX match_players_recent (key=?)" in told and "B-TREE" not in told, told
    told = "\n".join(row[-1] for row in read)
    assert "ladder_games_run" in told and "B-TREE" not in told, told


def test_rows_an_older_server_wrote_without_their_time_are_filled_in_at_a_serving_open(
    store_db: str,
) -> None:
    """An older deberc-net writing beside a newer one on the same database (a rolling
    upgrade over migration 15: docs/scaling.md) lists a match's ``match_players`` rows
    without its time and place: m2 out of order (first on PostgreSQL, last on SQLite).
    The next serving open fills them in from the match's row. Failed without it: m2
    still out of place."""
    store = open_store(store_db)
    try:
        finish(store, "m1", ["ann", "bob"], winner="ann")
        raw(
            store_db,
            "INSERT INTO matches (id, table_id, players, variant, options, winner, reason,"
            " totals) VALUES ('m2', 3, '[\"ann\", \"bob\"]', 'moscow', '[]', 'bob', 'score',"
            " '[120, 301]')",
            "INSERT INTO match_players (match_id, key) VALUES ('m2', 'ann'), ('m2', 'bob')",
        )
        finish(store, "m3", ["ann", "bob"], winner="ann")
        assert [g["match"] for g in store.recent_games("ann")] != ["m3", "m2", "m1"]
    finally:
        store.close()
    store = open_store(store_db, serving=True)
    try:
        assert [g["match"] for g in store.recent_games("ann")] == ["m3", "m2", "m1"]
        assert [g["match"] for g in store.recent_games("bob", 2)] == ["m3", "m2"]
        finish(store, "m4", ["ann", "bob"], winner="bob")
        assert [g["match"] for g in store.recent_games("bob")] == ["m4", "m3", "m2", "m1"]
    finally:
        store.close()
