"""``ladder table`` lists the same things from an SQLite file as from PostgreSQL: the
leaderboard, every run not counted yet (a distributed one's boards played so far, one
without boards: a single-machine run being played, or stopped), and every board key
whose results await a release (docs/bots.md "Killed outright"); and a database that
stops answering mid-listing is said at once, not waited for."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from typing import Any

import psycopg
import pytest

from deberc_net.ladder.store import open_ladder_store
from deberc_net.server.store import is_postgres
from tests.ladder.helpers import run_cli


def _execute(db: str, sql: str, *params: Any) -> None:
    if is_postgres(db):
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s").encode(), params)
    else:
        with sqlite3.connect(db) as con:
            con.execute(sql, params)


def test_the_table_lists_runs_not_counted_and_withheld_boards_on_both_stores(
    store_db: str,
) -> None:
    """Failed before: on SQLite neither the runs nor the withheld keys were listed, and
    on PostgreSQL a run without boards was not."""
    store = open_ladder_store(store_db)
    try:
        counted = store.start_run({"argv": []})
        rated = {"bot": "heur", "mu": 3.0, "sigma": 2.5, "rating": 30.0}
        store.finish_run(counted, {"deals": 1}, [rated], {"heur": 1})
        playing = store.start_run({"argv": []})  # a single-machine run: no boards
        distributed = store.start_run({"argv": [], "distributed": {}})
    finally:
        store.close()
    for board, done in ((1, True), (2, False), (3, False)):
        _execute(
            store_db,
            "INSERT INTO ladder_boards (run_id, board, spec, done) VALUES (?, ?, '{}', ?)",
            distributed, board, done,
        )  # fmt: skip
    for match, key, result in (("m1", "k1", "{}"), ("m2", "k1", "{}"), ("m3", "k2", None)):
        _execute(
            store_db,
            "INSERT INTO running (match_id, board, result) VALUES (?, ?, ?)",
            match, key, result,
        )  # fmt: skip
    table = run_cli(["ladder", "table", "--db", store_db])
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[-3:] == [
        f"run {playing}: not counted (being played now, or stopped before its end: "
        "it gets no summary)",
        f"run {distributed} (distributed): 1 of 3 boards played so far; the ratings "
        "above take it in when it ends",
        "board k1: 2 results withheld until its release (a ladder playing it now, or one killed)",
    ], lines
    assert f"run {counted}" not in table.stdout


def test_a_run_being_played_before_any_counted_is_not_called_no_ladder(
    store_db: str,
) -> None:
    """The first distributed run on a database, its boards being played: the table
    said "No ladder has been run on this database." over that very run, and pointed to
    "the ratings above" where there were none (a run with ratings: the first test)."""
    store = open_ladder_store(store_db)
    try:
        distributed = store.start_run({"argv": [], "distributed": {}})
    finally:
        store.close()
    for board, done in ((1, True), (2, False)):
        _execute(
            store_db,
            "INSERT INTO ladder_boards (run_id, board, spec, done) VALUES (?, ?, '{}', ?)",
            distributed, board, done,
        )  # fmt: skip
    table = run_cli(["ladder", "table", "--db", store_db])
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines() == [
        "No ladder ratings on this database yet.",
        f"run {distributed} (distributed): 1 of 2 boards played so far; the ratings take "
        "it in when it ends",
    ], table.stdout


def test_runs_stopped_before_their_end_are_one_line_however_many(store_db: str) -> None:
    """A single-machine run stopped (Ctrl-C, a bot that cannot start) never gets its
    summary, and stays not counted for good: ten of them are one line, not ten under
    the leaderboard at every look (rv51: a line each before)."""
    store = open_ladder_store(store_db)
    try:
        stopped = [store.start_run({"argv": []}) for _ in range(10)]
    finally:
        store.close()
    table = run_cli(["ladder", "table", "--db", store_db])
    assert table.returncode == 0, table.stderr
    listed = [line for line in table.stdout.splitlines() if "not counted" in line]
    assert listed == [
        f"runs {', '.join(map(str, stopped))}: not counted (each being played now, or "
        "stopped before its end: it gets no summary)"
    ], listed


def test_failed_and_cancelled_runs_are_a_line_each_with_why_on_both_stores(
    new_store_db: str,
) -> None:
    """A database made before runs could stop (migration 8) keeps its run, and lists
    it as before; a run failed and one cancelled are listed as such, not as runs played
    or waiting to be counted."""
    from deberc_net.server.store.migrations import MIGRATIONS
    from tests.store.records import opened

    opened(new_store_db, migrations=MIGRATIONS[:8]).close()  # before runs could stop
    _execute(new_store_db, "INSERT INTO ladder_runs (settings) VALUES ('{}')")  # (run 1)
    store = open_ladder_store(new_store_db)  # migrated now
    try:
        failed = store.start_run({"argv": [], "distributed": {}})
        cancelled = store.start_run({"argv": [], "distributed": {}})
    finally:
        store.close()
    _execute(new_store_db, "UPDATE ladder_runs SET stopped = 'failed', stop_reason ="
             " 'worker h/1/ab: cannot start bot ''x'': no' WHERE id = ?", failed)  # fmt: skip
    _execute(new_store_db, "UPDATE ladder_runs SET stopped = 'cancelled', stop_reason ="
             " 'by ''ladder cancel'' on h, process 9' WHERE id = ?", cancelled)  # fmt: skip
    for board, done in ((1, True), (2, False)):
        _execute(
            new_store_db,
            "INSERT INTO ladder_boards (run_id, board, spec, done) VALUES (?, ?, '{}', ?)",
            cancelled, board, done,
        )  # fmt: skip
    table = run_cli(["ladder", "table", "--db", new_store_db])
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines()[-3:] == [
        "run 1: not counted (being played now, or stopped before its end: it gets no summary)",
        # no boards (as a single-machine run whose bots could not play): none to count
        f"run {failed} failed: worker h/1/ab: cannot start bot 'x': no; not counted",
        f"run {cancelled} was cancelled by 'ladder cancel' on h, process 9; not counted (1 of "
        "2 boards played, their games stored)",
    ], table.stdout


# ``running`` read through a view that takes the database away at every read: every
# connection to it terminated (the reader's own last), as in a restart
AWAY_ON_READ = """
ALTER TABLE running RENAME TO running_rows;
CREATE FUNCTION away() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() ORDER BY pid = pg_backend_pid();
    RETURN true;
END $$;
CREATE VIEW running AS SELECT * FROM running_rows WHERE away();
"""


@pytest.mark.parametrize(
    "command", [("ladder", "table"), ("records", "export")], ids=["ladder-table", "records-export"]
)
def test_a_database_gone_mid_listing_is_said_at_once(
    postgres_url: str, command: tuple[str, str]
) -> None:
    """Failed before: the table's second connection (the distributed runs', the
    ladder worker's patient one) waited 300 s for the database, saying only that it
    waited; the export died with a traceback."""
    open_ladder_store(postgres_url).close()  # (migrated)
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(b"INSERT INTO running (match_id, board, result) VALUES ('m1', 'k1', '{}')")
        conn.execute(b"INSERT INTO deals (match_id, deal_no, record) VALUES ('m2', 1, '{}')")
        conn.execute(AWAY_ON_READ.encode())
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", *command, "--db", postgres_url],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert time.monotonic() - started < 20
    assert done.returncode == 2, done.stderr
    said = done.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith(
        f"deberc-net {' '.join(command)}: the database at postgresql://"
    ), said
    assert "stopped answering: terminating connection" in said[0], said
    assert "Traceback" not in done.stderr
