"""A server's row in ``servers`` says whether it is plain (no bus: not a worker of
``serve --workers``), in both dialects, and says it again when the row is written
again (its server thought dead, alive again): a worker starting waits for the tables
of the others with a bus only (docs/scaling.md, "A worker's start-up order")."""

from __future__ import annotations

import sqlite3

import pytest

from deberc_net.server.store import is_postgres, open_store

from .records import deal, raw


def _plain(db: str, server: int | None) -> bool:
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            row = conn.execute("SELECT plain FROM servers WHERE id = %s", (server,)).fetchone()
    else:
        with sqlite3.connect(db) as con:
            row = con.execute("SELECT plain FROM servers WHERE id = ?", (server,)).fetchone()
        con.close()
    assert row is not None, f"no row of server {server}"
    return bool(row[0])


@pytest.mark.parametrize("plain", [True, False])
def test_a_servers_row_says_it_is_plain_or_not_written_and_written_again(
    store_db: str, plain: bool
) -> None:
    # before: a plain server's row was any worker's, waited for a whole heartbeat
    store = open_store(store_db, serving=True, plain=plain)
    try:
        assert _plain(store_db, store.server_id) is plain
        # thought dead (another server ended it): its heartbeat writes it again
        raw(store_db, f"DELETE FROM servers WHERE id = {store.server_id}")
        store.heartbeat(30.0)
        assert _plain(store_db, store.server_id) is plain
        # and so does a deal it stores meanwhile
        raw(store_db, f"DELETE FROM servers WHERE id = {store.server_id}")
        store.add_deal(deal("m1", 1))
        assert _plain(store_db, store.server_id) is plain
    finally:
        store.close()
