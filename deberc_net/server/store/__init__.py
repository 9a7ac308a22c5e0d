"""Where the server keeps accounts, matches and deal records: one interface (``Store``),
two backends: SQLite (a file, the embedded default) and PostgreSQL (a shared server,
chosen by a ``postgresql://`` address). docs/scaling.md describes both."""

from __future__ import annotations

import os
import re
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
    "without_password",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
HIDDEN = "***"
# a PostgreSQL address's password, anywhere in a text (an argument, libpq's reason for
# an address it cannot read): in its user part, as libpq reads one (up to the first
# '@', none if a '/' comes first), and as a ``password=`` parameter of its query. Any
# scheme's: one mistyped ('postgresql+psycopg://', SQLAlchemy's) holds it as well
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S*")
_USER_PASSWORD = re.compile(r"^([^:/@]*://[^:/@]*:)([^/@]*)(?=@)")
_QUERY_PASSWORD = re.compile(r"([?&]password=)([^&#]*)")
# a part of an address that libpq quotes alone in its reason ('invalid percent-encoded
# token: "…"'): the password itself, when that is the part it could not read
_QUOTED = re.compile(r'"[^"]*"')


def is_postgres(db: str | Path) -> bool:
    return str(db).startswith(POSTGRES_SCHEMES)


def without_password(text: str, address: str = "") -> str:
    """``text`` with the password of every PostgreSQL address in it as ``***``; and, given
    the ``address`` it is about (libpq's reason for refusing it), any quoted part of it
    that holds that address's password as written (its bad part, quoted alone)."""
    if "://" in text:  # (most texts: no address)
        text = _ADDRESS.sub(_hidden_in, text)
    secrets = [s for s in _passwords(address) if s]
    if not secrets:
        return text

    def quoted(part: re.Match[str]) -> str:
        told = part.group()
        return f'"{HIDDEN}"' if any(s in told for s in secrets) else told

    return _QUOTED.sub(quoted, text)


def _passwords(address: str) -> list[str]:
    """The passwords in ``address`` as written (percent-encoded, or not at all)."""
    user = _USER_PASSWORD.match(address)
    found = [user.group(2)] if user else []
    return found + [m.group(2) for m in _QUERY_PASSWORD.finditer(address)]


def _hidden_in(address: re.Match[str]) -> str:
    told = _USER_PASSWORD.sub(rf"\g<1>{HIDDEN}", address.group())
    return _QUERY_PASSWORD.sub(rf"\g<1>{HIDDEN}", told)


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
    """``db`` fit for a log line: a PostgreSQL address without its password, an SQLite
    file by its whole path (a relative one is the current directory's, which a log
    line read later, a service's above all, does not say)."""
    if is_postgres(db):
        from .postgres import redacted

        return redacted(str(db))
    return str(db) if str(db) == ":memory:" else os.path.abspath(db)
