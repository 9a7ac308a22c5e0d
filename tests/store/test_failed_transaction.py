"""A PostgreSQL 25P02 ("current transaction is aborted, commands ignored until end of
transaction block") is never a cause of its own: it follows an earlier error in the same
transaction. store_failure classifies it as that error (a failing database's, or a bug's),
and the bus of ``serve --workers`` rolls a failed send back, so its connection sends
again (its farewell too)."""

from __future__ import annotations

import psycopg
import pytest

from deberc_net.server.cluster.bus import send_batch
from deberc_net.server.store.base import first_error, store_failure
from deberc_net.server.store.postgres import connect

TOO_LONG = "x" * 9000  # a notification's payload is at most 8000 bytes


def _after(conn: psycopg.Connection[object], statement: str) -> psycopg.Error:
    """The 25P02 of a statement run after ``statement`` failed, in one transaction (raised
    while the first was handled: its ``__context__``)."""
    try:
        conn.execute(statement)
    except psycopg.Error:
        try:
            conn.execute("SELECT 1")
        except psycopg.errors.InFailedSqlTransaction as exc:
            conn.rollback()
            return exc
    raise AssertionError("no 25P02")


def test_a_failed_transactions_error_is_classified_as_the_error_it_follows(
    postgres_url: str,
) -> None:
    with psycopg.connect(postgres_url) as conn:
        # failed before: every 25P02 a bug's (an InternalError, class 25), whatever came first
        outage = _after(conn, "DO $$ BEGIN RAISE EXCEPTION 'away' USING ERRCODE = '57P01'; END $$")
        refused = _after(conn, "DO $$ BEGIN RAISE EXCEPTION 'no room'; END $$")
        bug = _after(conn, "SELECT * FROM nowhere")
        with pytest.raises(psycopg.errors.DivisionByZero):
            conn.execute("SELECT 1/0")
        with pytest.raises(psycopg.errors.InFailedSqlTransaction) as lone:
            conn.execute("SELECT 1")  # (outside the except: nothing before it known)
        conn.rollback()
        assert conn.execute("SELECT 2").fetchone() == (2,)  # usable again
    assert [type(first_error(e)).__name__ for e in (outage, refused, bug)] == [
        "AdminShutdown",
        "RaiseException",
        "UndefinedTable",
    ]
    assert [store_failure(e) for e in (outage, refused, bug)] == [True, True, False]
    assert first_error(lone.value) is lone.value
    assert store_failure(lone.value)  # not counted as a bug of ours


def test_the_bus_sends_again_after_a_failed_send(postgres_url: str) -> None:
    publisher = connect(postgres_url)  # (as the bus's: not in autocommit)
    try:
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            send_batch(publisher, [("deberc_x", TOO_LONG)])
        # failed before: InFailedSqlTransaction, the send and every one after it lost
        send_batch(publisher, [("deberc_x", "fine")])
        assert publisher.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    finally:
        publisher.close()
