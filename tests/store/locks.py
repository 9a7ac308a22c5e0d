"""Waiting on a database's locks, for the tests of what a store does while another holds
one: a job started in a thread (to block on a lock), how many backends of a PostgreSQL
database wait for a lock now, and a bounded wait for a condition."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg

WAIT_S = 30.0  # the most a test waits for a backend to reach a lock


def started(job: Callable[[], object]) -> tuple[threading.Thread, list[BaseException]]:
    failed: list[BaseException] = []

    def run() -> None:
        try:
            job()
        except BaseException as exc:  # (said by the test, not lost in the thread)
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, failed


def waiting_for_locks(conn: psycopg.Connection[Any]) -> int:
    """How many other backends of this database wait for a lock now."""
    with psycopg.connect(conn.info.dsn, autocommit=True) as look:
        row = look.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        ).fetchone()
    return int(row[0]) if row else 0


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"waited {WAIT_S:g} s for {what}"
        time.sleep(0.01)
