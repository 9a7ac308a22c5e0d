"""An SQLite store's write transactions wait for another program's write lock (the other
part of 'ladder run --processes' writing a deal) by their own short pauses, not SQLite's
busy handler: once the lock is let go they go on and store everything; held longer than
busy_timeout_s they fail with SQLite's own error, having written nothing, and the
store's other statements still wait as long as busy_timeout_s says."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from deberc_net.server.store.sqlite import SQLiteStore

from .locks import started
from .records import deal, exported, finish


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "s.sqlite3")
    SQLiteStore(path).close()  # made, in WAL mode and migrated
    return path


@pytest.fixture
def held(db: str) -> Iterator[sqlite3.Connection]:
    """Another program's connection, to hold the write lock (readers go on: WAL)."""
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    yield other
    other.close()


def test_writes_behind_another_programs_lock_go_on_once_it_is_let_go(
    db: str, held: sqlite3.Connection
) -> None:
    store = SQLiteStore(db, serving=True, busy_timeout_s=60.0)
    held.execute("BEGIN IMMEDIATE")
    try:

        def a_match() -> None:
            store.add_deal(deal("m1", 1))
            store.add_deal(deal("m1", 2))
            finish(store, "m1", ["ann", "Бо"], "ann", {1: "secret/1", 2: "secret/2"})
            store.save_ratings("m1", "moscow", 2, [])

        writing, failed = started(a_match)
        writing.join(0.2)
        assert writing.is_alive()  # waiting for the lock
        assert store.records() is not None  # (the other's lock holds no reader back)
        held.commit()  # let go
        writing.join(30.0)  # well within busy_timeout_s: it went on, not timed out
        assert not writing.is_alive() and not failed, failed
        stored = exported(store)
        assert [(r["match"], r["deal_no"], r["seed"]) for r in stored] == [
            ("m1", 1, "secret/1"),
            ("m1", 2, "secret/2"),
        ]
        assert store.finished_match("m1") is not None
    finally:
        store.close()


def test_a_lock_held_past_busy_timeout_s_fails_the_write_with_sqlites_error(
    db: str, held: sqlite3.Connection
) -> None:
    store = SQLiteStore(db, busy_timeout_s=0.1)
    held.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError, match=r"^database is locked$"):
            store.add_deal(deal("m1", 1))
        with pytest.raises(sqlite3.OperationalError, match=r"^database is locked$"):
            finish(store, "m1", ["ann", "Бо"], "ann")
        held.rollback()
        assert exported(store) == []  # nothing half written
        assert store.match_records("m1") == []
        store.add_deal(deal("m1", 1))  # the lock let go: written as ever
        finish(store, "m1", ["ann", "Бо"], "ann", {1: "secret/1"})
        assert [json.loads(r)["seed"] for r in store.match_records("m1")] == ["secret/1"]
    finally:
        store.close()


def test_after_a_write_the_stores_other_statements_still_wait_for_a_lock(
    db: str, held: sqlite3.Connection
) -> None:
    """The writes' own waiting leaves SQLite's busy timeout as it was for the rest (an
    account's write): it waits for the lock rather than failing at once."""
    store = SQLiteStore(db, busy_timeout_s=60.0)
    try:
        store.add_deal(deal("m1", 1))  # a write transaction, its own waiting done
        held.execute("BEGIN IMMEDIATE")
        adding, failed = started(lambda: store.add_account("ann", b"s", b"h"))
        adding.join(0.2)
        assert adding.is_alive()  # waiting in SQLite's busy handler, not refused
        held.commit()
        adding.join(30.0)
        assert not adding.is_alive() and not failed, failed
        assert store.account("ann") == (b"s", b"h")
    finally:
        store.close()
