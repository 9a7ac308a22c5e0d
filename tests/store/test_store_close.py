"""A store's ``close()`` that cannot end its server's matches (PostgreSQL gone at the
stop; an SQLite file another program holds locked): it fails, saying why, and still
closes its connections, so no pool thread or connection outlives the store (a
worker's exit is not held by them)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from deberc_net.server.store import StoreError
from deberc_net.server.store.postgres import HURRY_CHECK_S, HurriedPool, PostgresStore
from deberc_net.server.store.sqlite import SQLiteStore

from .workers import database_away


def _pool_threads() -> set[threading.Thread]:
    """The store pools' threads running (its scheduler and workers, and the watch that
    hurries its waiting calls once a stop began)."""
    names = ("deberc-store-scheduler", "deberc-store-worker-", "deberc-store-hurry")
    return {t for t in threading.enumerate() if t.name.startswith(names)}


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


@pytest.mark.timeout(60)
def test_a_call_already_waiting_for_a_connection_is_hurried_too(postgres_url: str) -> None:
    """A call that began waiting for a connection (its database gone) before the stop's
    ``hurry`` waited the pool's 30 s all the same (the timeout was read as it began): a
    heartbeat in flight held a stopping worker past a test's 20 s. It ends within the
    hurried wait now."""
    store = PostgresStore(postgres_url, serving=True, connect_timeout_s=2)
    failed: list[BaseException] = []
    ended = threading.Event()

    def waiting_call() -> None:
        try:
            store.schema_version()
        except BaseException as exc:  # (kept for the assertion below)
            failed.append(exc)
        ended.set()

    database_away(postgres_url, True)
    try:
        caller = threading.Thread(target=waiting_call)
        caller.start()
        assert not ended.wait(1.0)  # waiting for a connection, with the pool's 30 s
        hurried = time.monotonic()
        store.hurry(0.5)
        assert ended.wait(10), "the waiting call was not hurried"
        assert time.monotonic() - hurried < 5
        assert failed and "couldn't get a connection" in str(failed[0])
        caller.join()
        with pytest.raises(StoreError):
            store.close()
    finally:
        database_away(postgres_url, False)


@pytest.mark.timeout(60)
def test_a_busy_pool_serves_its_waiting_calls_first_come_first_served(
    postgres_url: str,
) -> None:
    """A pool that is not hurried is psycopg_pool's own, first come first served: a
    call waiting longer than HURRY_CHECK_S for the one connection was served after a
    call that came later (its wait, in slices, went to the back of the queue at each)."""
    pool = HurriedPool(postgres_url, min_size=1, max_size=1, open=True, name="deberc-store")
    served: list[str] = []
    try:
        pool.wait(10)
        held = pool.getconn()

        def call(who: str) -> None:
            with pool.connection():
                served.append(who)

        def queued(count: int) -> None:
            deadline = time.monotonic() + 10
            while pool.get_stats()["requests_waiting"] < count:
                assert time.monotonic() < deadline, "the call never waited"
                time.sleep(0.01)

        first = threading.Thread(target=call, args=("first",))
        first.start()
        queued(1)
        later = threading.Thread(target=call, args=("later",))
        later.start()
        queued(2)
        time.sleep(2 * HURRY_CHECK_S)  # (a wait in slices: the first's slice ends here)
        pool.putconn(held)
        first.join(10)
        later.join(10)
        assert served == ["first", "later"]
        # and one request each: no slice counted as a request of its own, nor an error
        stats = pool.get_stats()
        assert stats["requests_num"] == 3
        assert "requests_errors" not in stats
    finally:
        pool.close()


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
