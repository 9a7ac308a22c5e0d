"""A PostgreSQL connection that waits out a database outage (a restart, a failover):
what the distributed ladder's long-lived processes (``ladder run --distributed``
waiting, ``ladder worker``) talk to the database through (docs/bots.md "Distributed
ladders").

Each call is one transaction, run again from its start on a new connection when the
connection is lost (a transaction cut off is rolled back, so running it again is safe;
the callers' statements are written so that one whose commit was lost on the way back
changes nothing the second time). The process says once, on stderr, that it waits for
the database (and logs ``database_back`` once it is back); if the database has not
answered for ``limit_s`` it gives up with StoreError (the CLI's one line, status 2).
Only a lost connection or a passing state of the server is waited out (``transient``);
any other error (a constraint, a bug's statement) is a StoreError at once, with the
database's own message.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import structlog

from deberc_net.server.store import StoreError

if TYPE_CHECKING:  # (the runner takes WAIT_LIMIT_S: a ladder on SQLite needs no psycopg)
    import psycopg

log = structlog.get_logger("deberc.ladder.patience")

WAIT_LIMIT_S = 300.0  # how long a ladder process waits for its database (docs/bots.md)
FIRST_PAUSE_S = 0.25  # the first pause between tries, doubled up to MAX_PAUSE_S
MAX_PAUSE_S = 5.0
# the SQLSTATE classes of a lost connection or a passing state of the server, waited out:
# connection exception, transaction rollback (serialization failure, deadlock),
# insufficient resources, operator intervention (admin shutdown, cannot connect now)
TRANSIENT_CLASSES = frozenset({"08", "40", "53", "57"})

T = TypeVar("T")


class PatientConnection:
    """One connection, used by one thread at a time (a lock): the worker's calls come
    from trio worker threads."""

    def __init__(self, url: str, who: str, limit_s: float = WAIT_LIMIT_S) -> None:
        """``who``: the process, as its error lines name it (``ladder worker``)."""
        self.url = url
        self.who = who
        self.limit_s = limit_s
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self.db: psycopg.Connection[Any] | None = None
        self._reconnect()  # refused: said at once

    def close(self) -> None:
        self._stopped.set()  # a wait in another thread ends
        with self._lock:
            if self.db is not None:
                self.db.close()
                self.db = None

    def run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``work`` in one transaction; run again on a new connection while the
        database is away, up to ``limit_s``."""
        import psycopg

        from deberc_net.server.store.postgres import redacted

        with self._lock:
            waiting_since: float | None = None
            pause = FIRST_PAUSE_S
            while True:
                reason = ""
                try:
                    if self.db is None or self.db.closed or self.db.broken:
                        self._reconnect()
                    assert self.db is not None
                    with self.db.transaction():
                        result = work(self.db)
                    if waiting_since is not None:
                        waited_s = round(time.monotonic() - waiting_since, 1)
                        log.warning("database_back", waited_s=waited_s)
                    return result
                except psycopg.Error as exc:
                    reason = " ".join(str(exc).split()) or type(exc).__name__
                    if not transient(exc):  # a bug, a constraint: no wait helps
                        raise StoreError(f"the database refused: {reason}") from None
                except StoreError as exc:  # (a new connection refused)
                    reason = str(exc)
                now = time.monotonic()
                if waiting_since is None:
                    waiting_since = now
                    print(
                        f"deberc-net {self.who}: waiting for the database at "
                        f"{redacted(self.url)} (up to {self.limit_s:g} s): {reason}",
                        file=sys.stderr,
                        flush=True,
                    )
                if now - waiting_since >= self.limit_s:
                    raise StoreError(
                        f"the database at {redacted(self.url)} did not answer for "
                        f"{self.limit_s:g} s; gave up: {reason}"
                    )
                if self._stopped.wait(min(pause, self.limit_s - (now - waiting_since))):
                    raise StoreError(f"stopped while waiting for the database: {reason}")
                pause = min(pause * 2, MAX_PAUSE_S)

    def _reconnect(self) -> None:
        from deberc_net.server.store.postgres import CONNECT_TIMEOUT_S, connect

        if self.db is not None:
            self.db.close()
            self.db = None
        self.db = connect(self.url, min(CONNECT_TIMEOUT_S, self.limit_s))


def transient(exc: psycopg.Error) -> bool:
    """Whether ``exc`` is a lost connection or a passing state of the server (worth
    running the transaction again): one of TRANSIENT_CLASSES, or a connection cut that
    carries no SQLSTATE."""
    import psycopg

    if exc.sqlstate is None:
        return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)
    return exc.sqlstate[:2] in TRANSIENT_CLASSES
