"""A store's ``close()`` that cannot end its server's matches (PostgreSQL gone at the
stop; an SQLite file another program holds locked): it fails, saying why, and still
closes its connections, so no pool thread or connection outlives the store (a
worker's exit is not held by them)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from deberc_net.server.store import StoreError
from deberc_net.server.store.postgres import PostgresStore
from deberc_net.server.store.sqlite import SQLiteStore

from .workers import database_away


def _pool_threads() -> set[threading.Thread]:
    """The store pools' threads running (its scheduler and workers)."""
    return {
        t
        for t in threading.enumerate()
        if t.name.startswith(("deberc-store-scheduler", "deberc-store-worker-"))
    }


@pytest.mark.timeout(60)
def test_a_close_that_fails_still_closes_the_pool(postgres_url: str) -> None:
    """Before the fix the failed close left the pool open: its scheduler and workers
    running, trying to reconnect."""
    before = _pool_threads()  # (another test's, in this process)
    store = PostgresStore(postgres_url, serving=True, connect_timeout_s=2)
    store.hurry(1.0)  # its last calls wait a second for a connection (bus_lost.py)
    assert _pool_threads() - before
    database_away(postgres_url, True)
    try:
        with pytest.raises(StoreError, match="did not answer at the stop"):
            store.close()
    finally:
        database_away(postgres_url, False)
    assert not _pool_threads() - before


@pytest.mark.timeout(30)
def test_an_sqlite_close_that_fails_still_closes_the_file(tmp_path: Path) -> None:
    """Before the fix the failed close left the connection open."""
    path = tmp_path / "deberc.sqlite3"
    store = SQLiteStore(path, serving=True, busy_timeout_s=0.2)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program writing: the file is locked
    try:
        with pytest.raises((sqlite3.Error, StoreError)):
            store.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        store.connection.execute("SELECT 1")
