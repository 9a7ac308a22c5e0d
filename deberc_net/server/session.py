"""One client connection's state: who it is, how it wants output, its bounded outbox."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs
import structlog
import trio

from deberc_net.protocol.events import ServerEvent
from deberc_net.protocol.framing import encode_line
from deberc_net.protocol.render import HUMAN, render

if TYPE_CHECKING:
    from .table import Table


@attrs.define(eq=False)
class Session:
    id: int
    outbox: trio.MemorySendChannel[bytes]
    cancel_scope: trio.CancelScope
    peer: str = "?"
    style: str = HUMAN
    name: str | None = None
    guest: bool = True
    table: Table | None = None
    seat: int | None = None
    observing: set[int] = attrs.Factory(set)
    seeking: tuple[Any, ...] | None = None
    calls_waiting: int = 0  # table calls posted and not yet handled
    failed_logins: int = 0
    closed: bool = False
    log: Any = attrs.Factory(lambda: structlog.get_logger("deberc.conn"))

    @property
    def machine(self) -> bool:
        return self.style != HUMAN

    def send(self, event: ServerEvent) -> None:
        """Queue an event; a client that does not read is dropped, never waited for."""
        self.send_lines(render(event, self.style))

    def send_lines(self, lines: list[str]) -> None:
        """Queue lines already rendered in this session's style."""
        if self.closed:
            return
        for text in lines:
            try:
                self.outbox.send_nowait(encode_line(text))
            except trio.WouldBlock:
                self.log.warning("outbox_full")
                self.abort()
                return
            except (trio.BrokenResourceError, trio.ClosedResourceError):
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
        self.cancel_scope.cancel()
