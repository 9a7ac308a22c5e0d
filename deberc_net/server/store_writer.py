"""The tables' writes to the store, in order, by one thread off the tables' path.

A table stored each finished deal through ``trio.to_thread`` and waited for it: a
thread hand-off there and back per deal (about a tenth of a busy server's CPU, and
the table's players waiting on the disk). Now a deal's record is queued (``write``,
no waiting) and one writer thread, started on the first write, writes what is queued
in the order it came. What must be on disk before the players are told is written by
``run``, which waits for its job and, the queue being in order, for every write queued
before it: a match's deals are stored before its result, and its result (and ratings)
before its end is told (docs/protocol.md §6.2, §9.7).

``close`` writes everything still queued, then ends the thread: the server calls it
before it closes the store, so no record is lost on shutdown. A queued write that fails
is logged (its table has told the deal already); a ``run`` that fails raises in its
caller, as the store's call did. Called from the server's thread only.
"""

from __future__ import annotations

import contextlib
import functools
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import outcome
import structlog
import trio

log = structlog.get_logger("deberc.store")

T = TypeVar("T")
# a job, and what to call with its outcome (None: a queued write, nobody waits)
_Job = tuple[Callable[[], Any], Callable[[outcome.Outcome[Any]], None] | None]


class StoreWriter:
    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # starting and ending the thread
        self.closed = False

    def write(self, job: Callable[[], object], **context: object) -> None:
        """Queue ``job`` (a store write); returns at once. After ``close``, the job is
        done here and now (nothing is lost). ``context`` names what a failed write lost
        in its log line (the table, match and deal)."""
        logged = functools.partial(_logged, job, context)
        if not self._submit((logged, None)):
            logged()

    async def run(self, job: Callable[[], T]) -> T:
        """Do ``job`` after every write queued before it, and wait for it (its result,
        or its exception raised here). Not cancellable: the write is under way."""
        task = trio.lowlevel.current_task()
        token = trio.lowlevel.current_trio_token()

        def done(result: outcome.Outcome[Any]) -> None:
            # (if the waiting task's run is over, there is nobody to tell)
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(trio.lowlevel.reschedule, task, result)

        if not self._submit((job, done)):
            return job()
        # (rescheduled with the job's outcome: its value returned, its exception raised)
        result: T = await trio.lowlevel.wait_task_rescheduled(lambda _: trio.lowlevel.Abort.FAILED)
        return result

    def _submit(self, item: _Job) -> bool:
        """Queue ``item`` for the thread (started if need be); False once closed."""
        if self._thread is None:
            with self._lock:
                if self.closed:
                    return False
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._drain, name="deberc-store-writer", daemon=True
                    )
                    self._thread.start()
        elif self.closed:
            return False
        self._queue.put(item)
        return True

    def _drain(self) -> None:
        get = self._queue.get
        while (item := get()) is not None:
            job, done = item
            if done is None:
                job()  # (a write, wrapped by _logged)
            else:
                done(outcome.capture(job))

    def close(self) -> None:
        """Write everything queued, then end the thread; later jobs are done at once."""
        with self._lock:
            self.closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(None)  # after everything queued
            thread.join()


def _logged(job: Callable[[], object], context: dict[str, object]) -> None:
    try:
        job()
    except Exception:  # the deal was told already: a failed write is logged, not raised
        log.exception("store_write_failed", **context)
