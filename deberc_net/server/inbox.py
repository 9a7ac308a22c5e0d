"""A table's inbox: messages for the one task that handles them, without a channel.

``put`` never waits and never refuses an open inbox (whoever puts bounds how much:
server/table.py's requests and control messages); a put to a task waiting in ``get``
wakes it, unless the inbox is ``held`` (another task handles what is queued, in the
waiting task's stead: Table.call_here). ``get`` returns a queued message without a
task switch (the handler of the previous one has just run: the queue is bounded), or
waits for one. Made without trio (a table is built outside any task); trio is used only
by ``get`` and a waking ``put``.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

import attrs
import trio

T = TypeVar("T")


@attrs.define(eq=False)
class Inbox(Generic[T]):
    # what is queued, and the task parked in ``get``: read (never changed) outside by
    # the table at every call, without ``len`` or ``waiting``'s calls
    queue: deque[T] = attrs.Factory(deque)
    waiter: trio.lowlevel.Task | None = None
    closed: bool = False
    # a put does not wake the waiting task (``release`` does); set and cleared by
    # Table.call_here and _let_go themselves too (``hold``, ``release`` written out)
    held: bool = False
    # the waiting task waits for ``release`` (read by Table._let_go, never changed there)
    for_release: bool = False

    def __len__(self) -> int:
        return len(self.queue)

    def put(self, item: T) -> bool:
        """Queue ``item`` (and wake the task waiting for it); False once closed."""
        if self.closed:
            return False
        self.queue.append(item)
        if not self.held:
            self.wake()
        return True

    @property
    def waiting(self) -> bool:
        """A task waits in ``get`` (and nothing has woken it yet)."""
        return self.waiter is not None

    def idle(self) -> bool:
        """A task waits in ``get``, nothing is queued and no other task holds the inbox:
        a message would be the next thing it handles (``waiting``, ``len`` and ``held``
        in one test: asked at every call)."""
        return self.waiter is not None and not self.queue and not self.held

    def wake(self) -> None:
        """Wake the waiting task, if any: its ``get`` returns a queued message, or None
        if there is none (it looks around, then waits again)."""
        task = self.waiter
        if task is not None:
            self.waiter = None
            trio.lowlevel.reschedule(task)

    def hold(self) -> None:
        """Another task handles what is queued from now on (``release`` ends that): a
        put does not wake the waiting task."""
        self.held = True

    def release(self) -> None:
        """No longer ``held``: the waiting task is woken if something is queued, or if
        it waits for this (``until_released``)."""
        self.held = False
        if self.queue or self.for_release:
            self.for_release = False
            self.wake()

    async def until_released(self) -> None:
        """Wait until the inbox is no longer held (or anything wakes the waiting task)."""
        await self._park(for_release=True)

    def take(self) -> T | None:
        """The next queued message, or None if there is none (never waits)."""
        return self.queue.popleft() if self.queue else None

    async def get(self) -> T | None:
        """The next message, waiting for one if none is queued (a cancel point only
        then); None if woken by ``wake`` with none queued."""
        queue = self.queue
        if not queue:
            await self._park()
        return queue.popleft() if queue else None

    async def _park(self, *, for_release: bool = False) -> None:
        """Wait as the inbox's one waiting task until something wakes it (``wake``)."""
        if self.waiter is not None:
            raise RuntimeError("another task already waits on this inbox")
        if for_release:
            self.for_release = True
        self.waiter = trio.lowlevel.current_task()

        def abort(_: object) -> trio.lowlevel.Abort:
            self.waiter = None
            return trio.lowlevel.Abort.SUCCEEDED

        await trio.lowlevel.wait_task_rescheduled(abort)

    def close(self) -> None:
        """Refuse more; what is queued stays for ``take``."""
        self.closed = True
