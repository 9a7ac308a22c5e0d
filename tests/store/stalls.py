"""A server thought dead (its last heartbeat an hour ago) that plays on, for the tests
of what another server makes of its matches (tests/store/test_stalled_server.py,
test_stall_races.py, test_store.py)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import Any

import psycopg

from deberc_net.server.store import Store, is_postgres, open_store

from .records import deal


def silence(db: str, server_id: int, hours: float = 1.0) -> None:
    """The server's last heartbeat ``hours`` ago, as if it had died (or stalled) then."""
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            conn.execute(
                "UPDATE servers SET heartbeat = now() - interval '1 hour' * %s WHERE id = %s",
                (hours, server_id),
            )
        return
    with sqlite3.connect(db) as con:
        con.execute(
            "UPDATE servers SET heartbeat = julianday('now') - ? / 24.0 WHERE id = ?",
            (hours, server_id),
        )
    con.close()


def a_boards_seating_kept_after_a_stall(db: str) -> tuple[Store, Store]:
    """A server (the first) that stored deal 1 of board k1's seating m1 and stalled, and
    another (the second) that took it for dead: m1 kept for the release, lost."""
    stalled = open_store(db, serving=True)
    live = open_store(db, serving=True)
    assert stalled.server_id is not None
    stalled.add_deal(deal("m1", 1), board="k1")
    silence(db, stalled.server_id)
    assert live.heartbeat(30.0) == 0
    return stalled, live


@contextlib.contextmanager
def a_stalled_server(url: str) -> Iterator[tuple[Store, Store, psycopg.Connection[Any]]]:
    """A server that stored m1's first deal and then stalled (silent an hour), a live
    one, and a third connection to hold a lock with."""
    stalled = open_store(url, serving=True)
    live = open_store(url, serving=True)
    blocker = psycopg.connect(url)
    try:
        assert stalled.server_id is not None
        stalled.add_deal(deal("m1", 1))
        silence(url, stalled.server_id)
        yield stalled, live, blocker
    finally:
        blocker.close()
        stalled.close()
        live.close()
