"""The socket connections' reads, waited for by one task (Linux: an epoll of our own).

A reader parked in trio's ``wait_readable`` costs a call its task switch and trio's
re-arm of its one-shot registration (a new ``EpollWaiters``, an ``epoll_ctl``, four
coroutine frames). Here every socket connection's descriptor is in one level-triggered
epoll, registered once; its reader parks (``wait``) and this task, woken by trio when
any is readable, hands each ready descriptor to the server's ``handle`` while its
reader stays parked: a table call read whole is handled here, in this task (the
reader's own way: ``Server.handled_here``), and the reader is woken only when it has
more to do. docs/performance.md (the fiftieth session) has the figures.

``handle(session, fd)`` answers ``KEEP`` (handled: the reader stays parked), None (the
reader reads the descriptor itself) or a float: what was read is in the connection,
read at that time, for the reader to handle. A handling that waits (a match's end
stored) goes on in this task, and a new one takes over the waiting meanwhile.
"""

from __future__ import annotations

import contextlib
import select
import types
from collections.abc import Callable, Coroutine, Generator
from typing import TYPE_CHECKING, Any

import outcome
import trio

from .session import Ending

if TYPE_CHECKING:
    from .session import Session

KEEP = object()  # ``handle``'s answer: handled, the reader stays parked
# (the platforms without epoll read as before: trio's wait_readable a read)
AVAILABLE = hasattr(select, "epoll")

Handle = Callable[["Session", int], Coroutine[Any, Any, object]]


class Poller:
    """A server's socket readers' waiting place (one a server: ``Server._poller``). Its
    epoll is made, and its task started, at the first wait; ``close`` closes the epoll
    at the server's end."""

    def __init__(self, handle: Handle, start: Callable[[Callable[[], Any]], None]) -> None:
        self._handle = handle
        self._start = start  # starts a task (the server's nursery's start_soon)
        self._epoll: select.epoll | None = None
        self._parked: dict[int, tuple[trio.lowlevel.Task, Session]] = {}
        self._enabled: dict[int, bool] = {}  # registered descriptors: whether watched now
        self._handling: dict[int, bool] = {}  # being handled: whether its reader was aborted
        self._running: object | None = None  # the waiting task's token (None: none yet)

    async def wait(self, fd: int, session: Session) -> object:
        """Park the reader of ``fd`` until it has something to do: ``handle``'s answer
        (None or a float). Cancelled as trio's ``wait_readable`` is."""
        if self._running is None:
            self._epoll = select.epoll()
            self._spawn()
        self._watch(fd)
        self._parked[fd] = (trio.lowlevel.current_task(), session)

        def abort(_: object) -> trio.lowlevel.Abort:
            if self._parked.pop(fd, None) is None:  # being handled: woken after it
                self._handling[fd] = True
                return trio.lowlevel.Abort.FAILED
            self._unwatch(fd)
            return trio.lowlevel.Abort.SUCCEEDED

        return await trio.lowlevel.wait_task_rescheduled(abort)

    def close(self) -> None:
        """Its epoll closed, once its server's tasks have ended (``run``'s end): not
        left to the collector, which a server's cycles put off (a test process starts
        hundreds of servers)."""
        self._running = None
        self._parked.clear()
        self._enabled.clear()
        if self._epoll is not None:
            self._epoll.close()
            self._epoll = None

    def forget(self, fd: int) -> None:
        """``fd``'s reader has ended (before the socket closes: its number is reused)."""
        self._parked.pop(fd, None)
        if self._enabled.pop(fd, None) is not None and self._epoll is not None:
            with contextlib.suppress(OSError):  # closed already: the kernel dropped it
                self._epoll.unregister(fd)

    def _watch(self, fd: int) -> None:
        epoll = self._epoll
        assert epoll is not None
        state = self._enabled.get(fd)
        if state is None:
            epoll.register(fd, select.EPOLLIN)
        elif not state:
            epoll.modify(fd, select.EPOLLIN)
        else:
            return
        self._enabled[fd] = True

    def _unwatch(self, fd: int) -> None:
        """Not watched while its reader is not parked (level-triggered: it would be
        seen again and again)."""
        if self._enabled.get(fd) and self._epoll is not None:
            try:
                self._epoll.modify(fd, 0)
            except OSError:
                self._enabled.pop(fd, None)
                return
            self._enabled[fd] = False

    def _spawn(self) -> None:
        token = self._running = object()
        self._start(lambda: self._run(token))

    async def _run(self, token: object) -> None:
        epoll = self._epoll
        assert epoll is not None
        parked, handling = self._parked, self._handling
        while self._running is token:
            await trio.lowlevel.wait_readable(epoll.fileno())
            for fd, _ in epoll.poll(0):
                if self._running is not token:  # another took over (below): its turn
                    return
                waiting = parked.pop(fd, None)
                if waiting is None:  # its reader is not parked
                    self._unwatch(fd)
                    continue
                task, session = waiting
                handling[fd] = False
                try:
                    got = await _first_wait_noted(self._handle(session, fd), self._spawn)
                except Exception:  # a bug in its handling ends that connection, never
                    # the server (as a failure in its reader does: Server.handle)
                    session.log.exception("connection_error")
                    session.close(Ending.INTERNAL)
                    got = None
                aborted = handling.pop(fd)
                if got is KEEP:
                    if not aborted and not session.connection.closed:
                        try:
                            self._watch(fd)
                        except OSError:  # (gone meanwhile: its reader finds out)
                            got = None
                        else:
                            parked[fd] = waiting
                            continue
                    else:  # (its scope cancelled meanwhile: woken to see to that)
                        got = None if session.connection.closed else trio.current_time()
                self._unwatch(fd)
                trio.lowlevel.reschedule(task, outcome.Value(got))
                # the reader woken runs before the next reader this pass wakes (trio
                # runs a batch of woken tasks in either order): two seekers' lines
                # are served as they came. Most passes wake none (a call is handled)
                await trio.lowlevel.checkpoint()


@types.coroutine
def _first_wait_noted(
    coro: Coroutine[Any, Any, object], first_wait: Callable[[], None]
) -> Generator[Any, Any, object]:
    """``await coro``, calling ``first_wait`` when it first waits (yields to trio)."""
    try:
        trap = coro.send(None)
    except StopIteration as done:
        return done.value
    first_wait()
    while True:
        try:
            sent = yield trap
        except BaseException as exc:  # (cancelled, or another error thrown in)
            try:
                trap = coro.throw(exc)
            except StopIteration as done:
                return done.value
        else:
            try:
                trap = coro.send(sent)
            except StopIteration as done:
                return done.value
