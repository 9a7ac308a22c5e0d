"""An SQLite store that opens but then fails says the real cause in its one sentence:
another program's lock as such, a migration's failure as that (its traceback in the
log), never a bare "cannot open the database"."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import structlog

from deberc_net.server.store import StoreError
from deberc_net.server.store.migrations import MIGRATIONS, Migration
from deberc_net.server.store.sqlite import SQLiteStore


def test_a_migration_that_fails_is_said_as_such_with_its_traceback_in_the_log(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.sqlite3"
    broken = Migration(len(MIGRATIONS) + 1, "a broken one", "CREATE TABLE broken (", "")
    with structlog.testing.capture_logs() as logs, pytest.raises(StoreError) as refused:
        SQLiteStore(db, migrations=[*MIGRATIONS, broken])
    said = str(refused.value)
    assert said.startswith(f"the database {db} opened, but bringing it up to date"), said
    assert said.endswith('failed: near ";": syntax error (the log has the details)'), said
    [logged] = [e for e in logs if e["event"] == "store_open_failed"]
    assert isinstance(logged["exc_info"], sqlite3.OperationalError)


def test_a_database_another_program_holds_is_said_to_be_locked(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    SQLiteStore(db).close()  # made and migrated: the next open reads, then writes its row
    held = sqlite3.connect(db, isolation_level=None)
    held.execute("BEGIN IMMEDIATE")  # a writer's lock: readers (WAL) go on
    try:
        with pytest.raises(StoreError) as refused:
            SQLiteStore(db, serving=True, busy_timeout_s=0.05)
    finally:
        held.close()
    said = str(refused.value)
    assert said.startswith(f"the database {db} is locked by another program"), said
    assert said.endswith("while writing this server's row: try again once it is done"), said


def test_switching_a_new_file_to_wal_waits_as_long_as_busy_timeout_s_says(
    tmp_path: Path,
) -> None:
    """A new file another program holds (its writer's lock): the switch to write-ahead
    logging is tried again for busy_timeout_s, not on a fixed schedule of its own (it
    gave up after 1.9 s whatever the setting, and waited 20 busy timeouts behind an
    exclusive lock: 100 s at the default 5 s)."""
    db = tmp_path / "s.sqlite3"
    held = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    held.execute("CREATE TABLE x (a)")  # a file not yet in WAL mode
    held.execute("BEGIN IMMEDIATE")
    held.execute("INSERT INTO x VALUES (1)")
    letting_go = threading.Timer(2.5, held.rollback)  # past the old 1.9 s, within 10 s
    letting_go.start()
    try:
        SQLiteStore(db, busy_timeout_s=10.0).close()  # it waited, and opened
    finally:
        letting_go.join()
    held.close()
    other = tmp_path / "other.sqlite3"
    held = sqlite3.connect(other, isolation_level=None)
    held.execute("CREATE TABLE x (a)")
    held.execute("BEGIN EXCLUSIVE")  # not even a reader passes: each try waits the timeout
    try:
        with pytest.raises(StoreError) as refused:
            SQLiteStore(other, busy_timeout_s=0.2)
    finally:
        held.close()
    waited = float(str(refused.value).split("still after ")[1].split(" s ")[0])
    assert waited < 2.0, refused.value  # about 0.2 s; it was 20 tries of 0.2 s and more
