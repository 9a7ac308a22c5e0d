"""``PostgresStore.close()`` when its database is gone (a stop after PostgreSQL went
away): it fails, saying why, and still closes its connection pool, so no pool thread
or connection outlives the store (a worker's exit is not held by them)."""

from __future__ import annotations

import threading

import psycopg
import psycopg_pool
import pytest

from deberc_net.server.store.postgres import PostgresStore

from .workers import database_away


def _pool_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("deberc-store")]


@pytest.mark.timeout(60)
def test_a_close_that_fails_still_closes_the_pool(postgres_url: str) -> None:
    """Before the fix the failed close left the pool open: its scheduler and workers
    running, trying to reconnect."""
    store = PostgresStore(postgres_url, serving=True, connect_timeout_s=2)
    store.hurry(1.0)  # its last calls wait a second for a connection (bus_lost.py)
    assert _pool_threads()
    database_away(postgres_url, True)
    try:
        with pytest.raises((psycopg.Error, psycopg_pool.PoolTimeout)):
            store.close()
    finally:
        database_away(postgres_url, False)
    assert _pool_threads() == []
