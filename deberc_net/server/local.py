"""In-process connections: a pair of byte streams joined in memory, for a ladder's own
bots (``app.LocalLink``). The same protocol bytes as a socket, without one.

``trio.testing.memory_stream_pair`` does this too, but through a pump task hand-off per
write (and it imports pytest); here a write appends to the other end's buffer and wakes
its reader directly. Each direction holds at most ``LIMIT`` bytes, as a socket's buffer
would: past that a sender waits, and the server's non-blocking write (``write_nowait``,
the outbox's direct path) takes only what fits, queueing the rest in the bounded outbox.

A client may also take its end's bytes as they are written (``Receiver``) rather than
with a task reading them: a ladder's in-process bots react inside the server's write
(to the same bytes), so a line sent to a bot wakes no task of the bot's.
"""

from __future__ import annotations

from typing import Protocol

import trio

LIMIT = 65536  # bytes a direction holds unread (about a loopback socket's buffer)
LOCAL_ADDRESS = "in-process"  # the address of every in-process connection (no socket's)


class _Pipe:
    """One direction: bytes written and not yet read, the reader waiting for them and
    the writer waiting for room."""

    __slots__ = ("closed", "data", "reader", "writer")

    def __init__(self) -> None:
        self.data = bytearray()
        self.closed = False  # either end closed: reads drain then end, writes fail
        self.reader: trio.lowlevel.Task | None = None
        self.writer: trio.lowlevel.Task | None = None

    def write(self, data: bytes | bytearray | memoryview) -> int:
        """Take what fits now; how many bytes were taken."""
        room = LIMIT - len(self.data)
        if room <= 0:
            return 0
        taken = data if len(data) <= room else data[:room]
        self.data += taken
        self._wake_reader()
        return len(taken)

    def _wake_reader(self) -> None:
        if self.reader is not None:
            task, self.reader = self.reader, None
            trio.lowlevel.reschedule(task)

    def _wake_writer(self) -> None:
        if self.writer is not None:
            task, self.writer = self.writer, None
            trio.lowlevel.reschedule(task)

    def close(self) -> None:
        self.closed = True
        self._wake_reader()
        self._wake_writer()


class Receiver(Protocol):
    """Takes a client end's bytes in the writer's call (``local_stream_pair``): it must
    not raise, nor wait, and may write back (``LocalStream.write_nowait``)."""

    def data_received(self, data: bytes) -> None: ...

    def connection_lost(self) -> None: ...


class _Handed(_Pipe):
    """A direction read by a ``Receiver``: a write is handed over at once, all of it."""

    __slots__ = ("receiver",)

    def __init__(self, receiver: Receiver) -> None:
        super().__init__()
        self.receiver = receiver

    def write(self, data: bytes | bytearray | memoryview) -> int:
        self.receiver.data_received(bytes(data))
        return len(data)

    def close(self) -> None:
        if not self.closed:  # both ends' aclose close it: told once
            self.closed = True
            self.receiver.connection_lost()


async def _park(pipe: _Pipe, role: str) -> None:
    """Wait (cancellably) until the other end wakes this task."""
    task = trio.lowlevel.current_task()
    setattr(pipe, role, task)

    def abort(_: object) -> trio.lowlevel.Abort:
        setattr(pipe, role, None)
        return trio.lowlevel.Abort.SUCCEEDED

    await trio.lowlevel.wait_task_rescheduled(abort)


class LocalStream(trio.abc.Stream):
    """One end of a pair (``local_stream_pair``)."""

    def __init__(self, incoming: _Pipe, outgoing: _Pipe) -> None:
        self._in = incoming
        self._out = outgoing
        self._closed = False  # this end's own aclose

    def write_nowait(self, data: bytes) -> int:
        """Send what fits without waiting; how many bytes went (none once closed)."""
        if self._out.closed:
            return 0
        return self._out.write(data)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        out = self._out
        if out.writer is not None:
            raise trio.BusyResourceError("another task is sending on this stream")
        await trio.lowlevel.checkpoint_if_cancelled()
        view = memoryview(data)
        while True:
            if self._closed:
                raise trio.ClosedResourceError("this end is closed")
            if out.closed:
                raise trio.BrokenResourceError("the other end is closed")
            view = view[out.write(view) :]
            if not view:
                return
            await _park(out, "writer")

    async def wait_send_all_might_not_block(self) -> None:
        out = self._out
        while not out.closed and len(out.data) >= LIMIT:
            await _park(out, "writer")
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        pipe = self._in
        if self._closed:
            raise trio.ClosedResourceError("this end is closed")
        if pipe.reader is not None or isinstance(pipe, _Handed):
            raise trio.BusyResourceError("another task is receiving on this stream")
        if pipe.data or pipe.closed:
            await trio.lowlevel.checkpoint_if_cancelled()
        while not pipe.data and not pipe.closed:  # (each wait is a checkpoint itself)
            await _park(pipe, "reader")
        if self._closed:
            raise trio.ClosedResourceError("this end is closed")
        data = pipe.data
        if max_bytes is None or max_bytes >= len(data):  # all of it (most reads): one copy
            chunk = bytes(data)
            data.clear()
        else:
            chunk = bytes(data[:max_bytes])
            del data[:max_bytes]
        pipe._wake_writer()
        return chunk

    async def aclose(self) -> None:
        self._closed = True
        self._in.close()
        self._out.close()
        await trio.lowlevel.checkpoint()


def local_stream_pair(receiver: Receiver | None = None) -> tuple[LocalStream, LocalStream]:
    """Two connected ends: what one sends, the other receives. With a ``receiver``, what
    the first end is sent goes to it, not to a ``receive_some``."""
    one = _Pipe() if receiver is None else _Handed(receiver)
    two = _Pipe()
    return LocalStream(one, two), LocalStream(two, one)
