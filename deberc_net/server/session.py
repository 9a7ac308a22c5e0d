"""One client connection's state: who it is, how it wants output, its bounded outbox."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.protocol.connection import Connection
from deberc_net.protocol.events import ServerEvent

from .limits import Bucket

if TYPE_CHECKING:
    from .matchmaking import Wanted
    from .table import Table


@attrs.define(eq=False)
class Outbox:
    """Bytes waiting for the writer, bounded in bytes (not lines: one line may be 1 KB).

    Over the limit the whole queue is dropped at once, so a reader too slow for its
    outbox is disconnected without the server holding its backlog."""

    limit: int
    chunks: list[bytes] = attrs.Factory(list)  # not a deque: 600 bytes less when idle
    queued_bytes: int = 0
    closed: bool = False
    _ready: trio.Event = attrs.Factory(trio.Event)
    # a socket's non-blocking write (bytes in, how many were taken): with nothing queued
    # and the writer idle, data goes out at once, without waking the writer task (most
    # sends: a bot reads as fast as it is told). None: everything goes through the queue.
    direct: Callable[[bytes], int] | None = None
    writing: bool = False  # the writer is in a send: nothing may overtake what it sends

    def put(self, data: bytes) -> bool:
        """Queue ``data``; False (and the queue dropped) if that passes the limit."""
        if self.closed:
            return False
        if self.direct is not None and not self.chunks and not self.writing:
            try:
                sent = self.direct(data)
            except OSError:  # full (or broken: the writer meets that itself)
                sent = 0
            if sent == len(data):
                return True
            data = data[sent:]
        if self.queued_bytes + len(data) > self.limit:
            self.drop()
            return False
        self.chunks.append(data)
        self.queued_bytes += len(data)
        self._ready.set()
        return True

    def take(self, most: int = 65536) -> bytes:
        """What is queued, joined (up to about ``most`` bytes): one write for a burst."""
        chunks = self.chunks
        if self.queued_bytes <= most:  # the usual case: everything at once
            data = b"".join(chunks)
            chunks.clear()
            self.queued_bytes = 0
            return data
        size = count = 0
        while count < len(chunks) and size < most:
            size += len(chunks[count])
            count += 1
        data = b"".join(chunks[:count])
        del chunks[:count]
        self.queued_bytes -= size
        return data

    async def wait(self) -> bool:
        """Wait until there is something to write; False once closed and empty."""
        while not self.chunks:
            if self.closed:
                return False
            self._ready = trio.Event()
            await self._ready.wait()
        return True

    def close(self) -> None:
        """No more data; the writer ends after what is queued."""
        self.closed = True
        self._ready.set()

    def drop(self) -> None:
        self.chunks.clear()
        self.queued_bytes = 0
        self.close()


@attrs.define(eq=False)
class Session:
    """The server's side of a connection: who it is and where it sits. Its protocol
    (logged in or not, framing, limits, the bytes sent) is its ``connection``."""

    id: int
    outbox: Outbox
    cancel_scope: trio.CancelScope
    connection: Connection = attrs.Factory(lambda: Connection(connected_at=0.0))
    peer: str = "?"
    address: str = "?"  # the peer's host: what the per-address limits count
    name: str | None = None
    guest: bool = True
    table: Table | None = None
    seat: int | None = None
    observing: set[int] = attrs.Factory(set)
    seeking: Wanted | None = None  # the game it waits for (server/matchmaking.py)
    requests_waiting: int = 0  # table calls, 'state's and 'say's posted, not yet handled
    failed_logins: int = 0
    says: Bucket = attrs.Factory(lambda: Bucket(1.0, 5.0))
    lists: Bucket = attrs.Factory(lambda: Bucket(2.0, 10.0))
    log: Any = attrs.Factory(lambda: structlog.get_logger("deberc.conn"))

    @property
    def style(self) -> str:
        return self.connection.style

    @style.setter
    def style(self, style: str) -> None:
        self.connection.style = style

    @property
    def machine(self) -> bool:
        return self.connection.machine

    @property
    def bot_clock(self) -> bool:
        return self.connection.bot_clock

    @property
    def closed(self) -> bool:
        return self.connection.closed

    def send(self, event: ServerEvent) -> None:
        """Queue an event; a client that does not read is dropped, never waited for."""
        self._put(self.connection.send(event))

    def send_lines(self, lines: list[str]) -> None:
        """Queue lines already rendered in this session's style."""
        self._put(self.connection.send_lines(lines))

    def _put(self, data: bytes) -> None:
        if data and not self.outbox.put(data):
            self.log.warning("outbox_full", limit=self.outbox.limit)
            self.abort()

    def close(self) -> None:
        """End after what is queued is written (the writer then ends the connection)."""
        if not self.closed:
            self.connection.close()
            self.outbox.close()

    def abort(self) -> None:
        """End now, dropping what is queued."""
        self.connection.close()
        self.outbox.drop()
        self.cancel_scope.cancel()
