"""Where the server keeps accounts, matches and deal records: one interface (``Store``),
two backends: SQLite (a file, the embedded default) and PostgreSQL (a shared server,
chosen by a ``postgresql://`` address). docs/scaling.md describes both."""

from __future__ import annotations

from pathlib import Path

from .base import DEAD_AFTER_S, Store, StoreError, name_key

__all__ = [
    "DEAD_AFTER_S",
    "Store",
    "StoreError",
    "describe",
    "is_postgres",
    "name_key",
    "open_store",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(db: str | Path) -> bool:
    return str(db).startswith(POSTGRES_SCHEMES)


def open_store(
    db: str | Path,
    *,
    serving: bool = False,
    dead_after_s: float = DEAD_AFTER_S,
    plain: bool = True,
) -> Store:
    """The store at ``db``: a ``postgresql://`` address or an SQLite file (created if
    missing). ``serving``: opened by a server, which gets its id from the store (its
    running matches are its own); the matches of servers silent for ``dead_after_s``
    are over; ``plain``: that server has no bus (not a worker of ``serve --workers``),
    as its row says. StoreError, one sentence saying what to do, if it cannot be opened."""
    if is_postgres(db):
        from .postgres import PostgresStore  # psycopg is imported only when used

        return PostgresStore(str(db), serving=serving, dead_after_s=dead_after_s, plain=plain)
    from .sqlite import SQLiteStore

    return SQLiteStore(db, serving=serving, dead_after_s=dead_after_s, plain=plain)


def describe(db: str | Path) -> str:
    """``db`` fit for a log line: a PostgreSQL address without its password."""
    if is_postgres(db):
        from .postgres import redacted

        return redacted(str(db))
    return str(db)
