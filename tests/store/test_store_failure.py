"""store.base.store_failure tells a failing database (said in one line, no traceback:
``match_number_failed``) from a bug in this code (``table_error``, its traceback): the
drivers raise a syntax error or a missing table as SQLite's ``OperationalError`` too,
and a misuse (a closed connection, a wrong binding) as ``ProgrammingError``."""

from __future__ import annotations

import contextlib
import sqlite3

import psycopg
import pytest

from deberc_net.server.store.base import store_failure

from .failing import disk_full


def _raised(*statements: str, closed: bool = False) -> sqlite3.Error:
    con = sqlite3.connect(":memory:")
    if closed:
        con.close()
    try:
        for statement in statements:
            con.execute(statement)
    except sqlite3.Error as exc:
        return exc
    finally:
        con.close()
    raise AssertionError("no error")


def test_sqlites_failures_are_the_stores_and_its_misuses_are_bugs(tmp_path: object) -> None:
    assert store_failure(disk_full())
    locked = f"{tmp_path}/locked.sqlite3"
    with contextlib.closing(sqlite3.connect(locked, isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        other = contextlib.closing(sqlite3.connect(locked, timeout=0))
        with other as con, pytest.raises(sqlite3.OperationalError) as busy:
            con.execute("SELECT * FROM sqlite_master")
    assert store_failure(busy.value)  # another program's lock
    assert store_failure(OSError(28, "No space left on device"))
    bugs = [
        _raised("SELEC 1"),  # OperationalError, SQLITE_ERROR
        _raised("SELECT * FROM nowhere"),  # OperationalError, SQLITE_ERROR
        _raised("SELECT 1", closed=True),  # ProgrammingError: a closed connection
        _raised(
            "CREATE TABLE t (x UNIQUE)", "INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (1)"
        ),
    ]
    assert [type(b).__name__ for b in bugs] == [
        "OperationalError",
        "OperationalError",
        "ProgrammingError",
        "IntegrityError",
    ]
    assert [store_failure(b) for b in bugs] == [False] * 4
    assert not store_failure(sqlite3.OperationalError("database or disk is full"))  # no code
    refused = _raised(  # an operator's trigger refusing a write: the database's refusal
        "CREATE TABLE t (x)",
        "CREATE TRIGGER r BEFORE INSERT ON t BEGIN SELECT RAISE(ABORT, 'no room'); END",
        "INSERT INTO t VALUES (1)",
    )
    assert type(refused).__name__ == "IntegrityError" and store_failure(refused)
    assert not store_failure(ValueError("a bug"))


def test_psycopgs_failures_are_the_stores_and_its_misuses_are_bugs(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        bugs = []
        for statement in ("SELEC 1", "SELECT * FROM nowhere", "SELECT 1/0"):
            with pytest.raises(psycopg.Error) as raised:
                conn.execute(statement)
            bugs.append(raised.value)
        with pytest.raises(psycopg.errors.RaiseException) as refused:
            conn.execute("DO $$ BEGIN RAISE EXCEPTION 'no room'; END $$")
        read_only_error = psycopg.errors.ReadOnlySqlTransaction
        with pytest.raises(read_only_error) as read_only, conn.transaction():
            conn.execute("SET TRANSACTION READ ONLY")
            conn.execute("CREATE TEMP TABLE t (x int)")
    with pytest.raises(psycopg.OperationalError) as closed:
        conn.execute("SELECT 1")  # (the connection closed: as a server away)
    assert [store_failure(b) for b in bugs] == [False] * 3
    assert store_failure(read_only.value)  # a standby after a failover
    assert store_failure(refused.value)  # an operator's trigger: the database's refusal
    assert store_failure(closed.value)
    with pytest.raises(psycopg.OperationalError) as away:
        psycopg.connect("postgresql://nobody@127.0.0.1:1/none", connect_timeout=2)
    assert store_failure(away.value)
