"""The tables' writes to the store, in order, by one thread off the tables' path.

A table stored each finished deal through ``trio.to_thread`` and waited for it: a
thread hand-off there and back per deal (about a tenth of a busy server's CPU, and
the table's players waiting on the disk). Now a deal's record is queued (``write``,
no waiting) and one writer thread, started on the first write, writes what is queued
in the order it came. What must be on disk before the players are told is written by
``run``, which waits for its job and, the queue being in order, for every write queued
before it: a match's deals are stored before its result, and its result (and ratings)
before its end is told (docs/protocol.md §6.2, §9.7).

The thread takes what is queued at once (up to GROUP_MOST jobs) as one group of the
store's (``Store.group``): with SQLite one transaction, so one wait for the file's write
lock (another server's on the same file, as 'ladder run --processes' has) and one
commit for them all, each store call in it still all or nothing; those waiting in
``run`` are answered once the group is committed. A group that cannot begin or commit
(or whose transaction a write's error rolled back whole) has written nothing: its jobs
are done again one by one, as before groups.

What the jobs will need loaded (the rating model: importing it took a rated match's
end group 6-26 ms of the store's lock, every thread's store calls waiting) is loaded by
``ready``, in the thread, after its first group and outside any.

``close`` writes everything still queued, then ends the thread: the server calls it
before it closes the store, so no record is lost on shutdown. A queued write that fails
is logged (its table has told the deal already); a ``run`` that fails raises in its
caller, as the store's call did. Called from the server's thread only.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import outcome
import structlog
import trio

log = structlog.get_logger("deberc.store")

T = TypeVar("T")
# a job, what to call with its outcome (None: a queued write, nobody waits), and what a
# failed write lost (for its log line)
_Job = tuple[Callable[[], Any], Callable[[outcome.Outcome[Any]], None] | None, dict[str, object]]
GROUP_MOST = 64  # jobs in one group at most: the other server waits for its lock meanwhile
Group = Callable[[], contextlib.AbstractContextManager[None]]


class StoreWriter:
    def __init__(
        self, group: Group = contextlib.nullcontext, ready: Callable[[], object] | None = None
    ) -> None:
        """``group``: the store's (``Store.group``); by default none (each store call
        its own transaction). ``ready``: done once in the thread, after its first group
        (the first write is not kept waiting for it), outside any group."""
        self._group = group
        self._ready = ready
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # starting and ending the thread
        self.closed = False

    def write(self, job: Callable[[], object], **context: object) -> None:
        """Queue ``job`` (a store write); returns at once. After ``close``, the job is
        done here and now (nothing is lost). ``context`` names what a failed write lost
        in its log line (the table, match and deal)."""
        if not self._submit((job, None, context)):
            _logged(job, context)

    async def run(self, job: Callable[[], T]) -> T:
        """Do ``job`` after every write queued before it, and wait for it (its result,
        or its exception raised here). Not cancellable: the write is under way."""
        task = trio.lowlevel.current_task()
        token = trio.lowlevel.current_trio_token()

        def done(result: outcome.Outcome[Any]) -> None:
            # (if the waiting task's run is over, there is nobody to tell)
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(trio.lowlevel.reschedule, task, result)

        if not self._submit((job, done, {})):
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
        get, more = self._queue.get, self._queue.get_nowait
        ending = False
        ready = self._ready
        while not ending and (item := get()) is not None:
            jobs = [item]
            while len(jobs) < GROUP_MOST:
                try:
                    item = more()
                except queue.Empty:
                    break
                if item is None:  # (close: the group, then no more)
                    ending = True
                    break
                jobs.append(item)
            self._do(jobs)
            if ready is not None:  # (once)
                load, ready = ready, None
                # (if it fails, a job that needs it fails as it would have, and is told)
                with contextlib.suppress(Exception):
                    load()

    def _do(self, jobs: list[_Job]) -> None:
        """``jobs`` in one group of the store's, then their outcomes told (a failed
        write logged); if the group fails, each job again on its own."""
        try:
            with self._group():
                outcomes = [outcome.capture(job) for job, _, _ in jobs]
        except Exception:  # (its begin or commit: nothing of it written)
            log.warning("store_group_failed", jobs=len(jobs), exc_info=True)
            outcomes = [outcome.capture(job) for job, _, _ in jobs]
        for (_, done, context), result in zip(jobs, outcomes, strict=True):
            if done is not None:
                done(result)
            elif isinstance(result, outcome.Error):
                _logged(result.unwrap, context)

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
