"""Real database errors of a failing store, for the tests of how one is said."""

from __future__ import annotations

import contextlib
import sqlite3


def disk_full() -> sqlite3.OperationalError:
    """SQLite's own ``database or disk is full`` (SQLITE_FULL), as a full disk raises it:
    a database held to one page, grown."""
    with contextlib.closing(sqlite3.connect(":memory:")) as con:
        con.execute("PRAGMA max_page_count = 1")
        try:
            con.execute("CREATE TABLE t (x)")
            con.execute("INSERT INTO t VALUES (1)")
        except sqlite3.OperationalError as exc:
            return exc
    raise AssertionError("a one-page database grew")
