"""What the store tests write and read back, on SQLite or PostgreSQL alike: a store
opened directly, a deal's record, a finished match, the records the store exports, and
statements run on its database as they are (no store in between)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from deberc_net.server.store import Store, is_postgres
from deberc_net.server.store.migrations import MIGRATIONS, Migration
from deberc_net.server.store.postgres import PostgresStore
from deberc_net.server.store.sqlite import SQLiteStore


def opened(
    db: str, *, serving: bool = False, migrations: tuple[Migration, ...] = MIGRATIONS
) -> Store:
    if is_postgres(db):
        return PostgresStore(db, serving=serving, migrations=migrations)
    return SQLiteStore(db, serving=serving, migrations=migrations)


def deal(match: str, deal_no: int, **extra: Any) -> dict[str, Any]:
    return {
        "format": "deberc-deal/1",
        "table": "3",
        "match": match,
        "deal_no": deal_no,
        "seed": f"secret/{deal_no}",
        "variant": "moscow",
        "options": [],
        "players": ["ann", "Бо"],
        "totals": [10 * deal_no, 20 * deal_no],
        **extra,
    }


def finish(
    store: Store,
    match: str,
    players: list[str],
    winner: str | None = None,
    seeds: dict[int, str] | None = None,
) -> None:
    store.finish_match(match, 3, players, "moscow", ["to-301"], winner, "score", [301, 120], seeds)


def exported(store: Store) -> list[dict[str, Any]]:
    return [json.loads(body) for body in store.records()]


def raw(db: str, *statements: str) -> None:
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            for statement in statements:
                conn.execute(statement.encode())
        return
    with sqlite3.connect(db) as con:
        for statement in statements:
            con.execute(statement)
    con.close()
