"""An SQLite store that opens but then fails says the real cause in its one sentence:
another program's lock as such, a migration's failure as that (its traceback in the
log), never a bare "cannot open the database"."""

from __future__ import annotations

import sqlite3
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
