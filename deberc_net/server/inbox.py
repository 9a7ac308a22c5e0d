"""A table's inbox: messages for the one task that handles them, without a channel.

``put`` never waits and never refuses an open inbox (whoever puts bounds how much:
server/table.py's requests and control messages); a put to a task waiting in ``get``
wakes it. ``get`` returns a queued message without a task switch (the handler of the
previous one has just run: the queue is bounded), or waits for one. Made without trio
(a table is built outside any task); trio is used only by ``get`` and a waking ``put``.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

import attrs
import trio

T = TypeVar("T")


@attrs.define(eq=False)
class Inbox(Generic[T]):
    _queue: deque[T] = attrs.Factory(deque)
    _waiting: trio.lowlevel.Task | None = None  # the task parked in ``get``
    closed: bool = False

    def __len__(self) -> int:
        return len(self._queue)

    def put(self, item: T) -> bool:
        """Queue ``item`` (and wake the task waiting for it); False once closed."""
        if self.closed:
            return False
        self._queue.append(item)
        task = self._waiting
        if task is not None:
            self._waiting = None
            trio.lowlevel.reschedule(task)
        return True

    def take(self) -> T | None:
        """The next queued message, or None if there is none (never waits)."""
        return self._queue.popleft() if self._queue else None

    async def get(self) -> T:
        """The next message, waiting for one if none is queued (a cancel point only
        then)."""
        queue = self._queue
        while not queue:
            if self._waiting is not None:
                raise RuntimeError("another task already waits on this inbox")
            self._waiting = trio.lowlevel.current_task()

            def abort(_: object) -> trio.lowlevel.Abort:
                self._waiting = None
                return trio.lowlevel.Abort.SUCCEEDED

            await trio.lowlevel.wait_task_rescheduled(abort)
        return queue.popleft()

    def close(self) -> None:
        """Refuse more; what is queued stays for ``take``."""
        self.closed = True
