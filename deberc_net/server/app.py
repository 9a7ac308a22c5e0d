"""The TCP server: a listener, a nursery per connection (reader + writer), shutdown.

``serve(config, task_status=...)`` reports the bound port, so tests listen on port 0.
A handler's failure is logged and ends only its own connection.
"""

from __future__ import annotations

import itertools
import signal
from typing import Any

import structlog
import trio

from deberc_net.plugins import RuleBook
from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import parse_line
from deberc_net.protocol.framing import BadLine, LineDecoder

from .config import Config
from .lobby import Lobby
from .session import Session
from .store import Store

log = structlog.get_logger("deberc.server")
_ids = itertools.count(1)
READ_SIZE = 4096


async def serve(
    config: Config,
    *,
    task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED,
    handle_signals: bool = False,
    rules: RuleBook | None = None,
) -> None:
    """Run until cancelled (or, with ``handle_signals``, until SIGINT/SIGTERM).
    ``rules``: the rule plugins, loaded once by the caller; loaded here if not given
    (a broken plugin raises PluginError before anything listens)."""
    rules = rules if rules is not None else RuleBook.load()
    store = Store(config.db)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rules)
            listeners = await trio.open_tcp_listeners(config.port, host=config.host)
            port = listeners[0].socket.getsockname()[1]
            log.info("listening", host=config.host, port=port, db=config.db)
            server = _Server(config, lobby)
            listen_scope = trio.CancelScope()

            async def accept_all() -> None:
                with listen_scope:
                    await trio.serve_listeners(server.handle, listeners,
                                               handler_nursery=nursery)

            nursery.start_soon(accept_all)
            if handle_signals:
                nursery.start_soon(_on_signal, lobby, listen_scope, nursery, config)
            task_status.started(port)
    finally:
        store.close()
        log.info("stopped")


async def _on_signal(
    lobby: Lobby, listen_scope: trio.CancelScope, nursery: trio.Nursery, config: Config
) -> None:
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for signum in signals:
            name = signal.Signals(signum).name
            log.info("shutdown", signal=name)
            listen_scope.cancel()  # stop accepting at once
            lobby.shutdown(f"{name} received")
            await trio.sleep(config.shutdown_grace_ms / 1000)
            for session in list(lobby.online.values()):
                session.close()
            await trio.sleep(0.2)
            nursery.cancel_scope.cancel()
            return


class _Server:
    def __init__(self, config: Config, lobby: Lobby) -> None:
        self.config = config
        self.lobby = lobby
        self.connections = 0

    async def handle(self, stream: trio.SocketStream) -> None:
        self.connections += 1
        try:
            if self.connections > self.config.max_connections or not self.lobby.accepting:
                await _refuse(stream)
                return
            await self._serve_connection(stream)
        except Exception:  # a handler's failure ends its connection, never the server
            log.exception("connection_error")
        finally:
            self.connections -= 1
            with trio.move_on_after(1):
                await stream.aclose()

    async def _serve_connection(self, stream: trio.SocketStream) -> None:
        send, receive = trio.open_memory_channel[bytes](self.config.outbox_lines)
        try:
            host, port = stream.socket.getpeername()[:2]
            peer = f"{host}:{port}"
        except OSError:
            peer = "?"
        with trio.CancelScope() as scope:
            session = Session(next(_ids), send, scope, peer=peer)
            session.log = session.log.bind(conn=session.id, peer=peer)
            session.log.info("connect")
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer, stream, receive, scope)
                    self.lobby.hello(session)
                    await self._reader(stream, session)
                    session.close()  # the writer flushes, then ends the connection
            finally:
                self.lobby.disconnected(session)
                session.closed = True
                session.log.info("disconnect")

    async def _writer(
        self, stream: trio.SocketStream, receive: trio.MemoryReceiveChannel[bytes],
        scope: trio.CancelScope,
    ) -> None:
        try:
            async with receive:
                async for data in receive:
                    await stream.send_all(_drain(data, receive))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        scope.cancel()

    async def _command(self, session: Session, text: str) -> None:
        """One command; a bug in its handling costs the client an error, not the link."""
        try:
            await self.lobby.handle(session, parse_line(text))
        except Exception:
            session.log.exception("command_error", line=text[:100])
            session.send(ev.Error("internal", "the server could not do that; sorry"))

    async def _reader(self, stream: trio.SocketStream, session: Session) -> None:
        decoder = LineDecoder(max_line=self.config.max_line)
        bucket = _Bucket(self.config.flood_lines_per_s, self.config.flood_burst)
        partial_since: float | None = None
        limit = self.config.partial_line_ms / 1000
        while not session.closed:
            timeout = limit if partial_since is None else max(
                0.0, partial_since + limit - trio.current_time())
            data = b""
            with trio.move_on_after(timeout) as waited:
                try:
                    data = await stream.receive_some(READ_SIZE)
                except trio.BrokenResourceError:  # a reset is a disconnect, not a failure
                    return
            if waited.cancelled_caught:
                if partial_since is not None:
                    session.send(ev.Error("line-timeout", "an unfinished line waited too long"))
                    return
                continue
            if not data:
                return
            for item in decoder.feed(data):
                if not bucket.take(trio.current_time()):
                    session.send(ev.Error("flood", "too many lines too fast: goodbye"))
                    session.log.warning("flood")
                    return
                if isinstance(item, BadLine):
                    session.send(ev.Error(item.code, item.text))
                elif item.text:
                    await self._command(session, item.text)
                if session.closed:
                    return
            pending = decoder.pending_bytes or decoder.in_overlong_line
            if not pending:
                partial_since = None
            elif partial_since is None:
                partial_since = trio.current_time()


class _Bucket:
    """A token bucket: ``rate`` lines a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, 0.0

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1
        return self.tokens >= 0


def _drain(first: bytes, receive: trio.MemoryReceiveChannel[bytes]) -> bytes:
    """Join what is already queued into one write: one syscall for a burst of events."""
    chunks = [first]
    size = len(first)
    while size < 65536:
        try:
            chunk = receive.receive_nowait()
        except (trio.WouldBlock, trio.EndOfChannel):
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


async def _refuse(stream: trio.SocketStream) -> None:
    with trio.move_on_after(1):
        await stream.send_all(b"error code=busy text=the server is full or shutting down\r\n")
