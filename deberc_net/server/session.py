"""One client connection's state: who it is, how it wants output, its bounded outbox."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.protocol.events import Ask, ServerEvent
from deberc_net.protocol.framing import encode_line
from deberc_net.protocol.render import HUMAN, render

from .limits import Bucket

if TYPE_CHECKING:
    from .table import Table

MAX_ANSWER_CREDIT = 4  # requests to act a client may answer without counting as a flood


@attrs.define(eq=False)
class Outbox:
    """Bytes waiting for the writer, bounded in bytes (not lines: one line may be 1 KB).

    Over the limit the whole queue is dropped at once, so a reader too slow for its
    outbox is disconnected without the server holding its backlog."""

    limit: int
    chunks: deque[bytes] = attrs.Factory(deque)
    queued_bytes: int = 0
    closed: bool = False
    _ready: trio.Event = attrs.Factory(trio.Event)

    def put(self, data: bytes) -> bool:
        """Queue ``data``; False (and the queue dropped) if that passes the limit."""
        if self.closed:
            return False
        if self.queued_bytes + len(data) > self.limit:
            self.drop()
            return False
        self.chunks.append(data)
        self.queued_bytes += len(data)
        self._ready.set()
        return True

    def take(self, most: int = 65536) -> bytes:
        """What is queued, joined (up to about ``most`` bytes): one write for a burst."""
        parts: list[bytes] = []
        size = 0
        while self.chunks and size < most:
            chunk = self.chunks.popleft()
            parts.append(chunk)
            size += len(chunk)
        self.queued_bytes -= size
        return b"".join(parts)

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
    id: int
    outbox: Outbox
    cancel_scope: trio.CancelScope
    peer: str = "?"
    address: str = "?"  # the peer's host: what the per-address limits count
    connected_at: float = 0.0
    style: str = HUMAN
    name: str | None = None
    guest: bool = True
    table: Table | None = None
    seat: int | None = None
    observing: set[int] = attrs.Factory(set)
    seeking: tuple[Any, ...] | None = None
    requests_waiting: int = 0  # table calls, 'state's and 'say's posted, not yet handled
    answer_credit: int = 0  # requests to act sent and not yet answered (flood-free lines)
    failed_logins: int = 0
    says: Bucket = attrs.Factory(lambda: Bucket(1.0, 5.0))
    lists: Bucket = attrs.Factory(lambda: Bucket(2.0, 10.0))
    closed: bool = False
    log: Any = attrs.Factory(lambda: structlog.get_logger("deberc.conn"))

    @property
    def machine(self) -> bool:
        return self.style != HUMAN

    def send(self, event: ServerEvent) -> None:
        """Queue an event; a client that does not read is dropped, never waited for."""
        if isinstance(event, Ask) and event.kind == "ask":  # its answer is not a flood
            self.answer_credit = min(MAX_ANSWER_CREDIT, self.answer_credit + 1)
        self.send_lines(render(event, self.style))

    def send_lines(self, lines: list[str]) -> None:
        """Queue lines already rendered in this session's style."""
        if self.closed:
            return
        for text in lines:
            if not self.outbox.put(encode_line(text)):
                self.log.warning("outbox_full", limit=self.outbox.limit)
                self.abort()
                return

    def close(self) -> None:
        """End after what is queued is written (the writer then ends the connection)."""
        if not self.closed:
            self.closed = True
            self.outbox.close()

    def abort(self) -> None:
        """End now, dropping what is queued."""
        self.closed = True
        self.outbox.drop()
        self.cancel_scope.cancel()
