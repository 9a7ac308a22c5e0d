"""A relay between a ``ladder run --server`` and that server, for the tests of a drain
under a ladder (tests/ladder/test_server_drain.py): the ladder's admin and its bots
connect to the relay, which passes every line on as it is, but for what a test asks it
to hold back. It knows the admin's connection by its ``login ladder-admin``.

- From the admin's ``kind=start`` number ``pause_at``, the bots' lines wait (``paused``
  is set) until ``resume``: a test then drains the server with a game surely running.
- From that start on, with ``hold_seeks``, a bot's ``seek reserved`` waits instead (the
  bots' other lines pass), and ``reserved`` is set at the next table reserved: it waits
  for bots that do not come, and a drain begun then closes it before its match starts.
- On the admin's connection, a game's ``match-end`` the server sends after its
  ``info server=draining`` is held until its ``info server=stopping`` has gone on, and
  then follows it (``ends_held`` counts them): the order a stop gives that begins as
  a table writes its game's result (SIGTERM, ``drain_limit_ms``), the stop's line
  before that game's end."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator

import attrs
import trio

from deberc_net.ladder.admin import ADMIN

LOGIN = f"login {ADMIN}".encode()


@attrs.define(eq=False)
class Relay:
    server_port: int
    pause_at: int = 2  # the admin's start line (1, 2, …) at which the bots' lines wait
    hold_seeks: bool = False  # from then, only their 'seek reserved' waits
    port: int = 0  # the relay's own, once ``serve`` has started
    starts: int = 0  # the start lines the admin was told
    ends_held: int = 0
    paused: trio.Event = attrs.Factory(trio.Event)
    reserved: trio.Event = attrs.Factory(trio.Event)
    _go: trio.Event = attrs.Factory(trio.Event)  # set: the bots' lines pass again
    _pausing: bool = False

    async def serve(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Relay each connection made to ``port`` (loopback) until cancelled."""
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started()
        await trio.serve_listeners(self._relay, listeners)

    def resume(self) -> None:
        self._go.set()

    async def _relay(self, ladder: trio.SocketStream) -> None:
        try:
            server = await trio.open_tcp_stream("127.0.0.1", self.server_port)
        except OSError:  # the server has stopped: so has this connection
            await ladder.aclose()
            return
        admin = trio.Event()  # set: this is the admin's connection
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_pass, ladder, server, self._up(ladder, admin))
            nursery.start_soon(_pass, server, ladder, self._down(server, admin))

    async def _up(
        self, ladder: trio.SocketStream, admin: trio.Event
    ) -> AsyncGenerator[bytes, None]:
        """The ladder's lines to the server: a bot's wait while paused."""
        async for line in _lines(ladder):
            if line.startswith(LOGIN):
                admin.set()
            if (
                not admin.is_set()
                and self._pausing
                and (not self.hold_seeks or line.startswith(b"seek reserved"))
            ):
                await self._go.wait()
            yield line

    async def _down(
        self, server: trio.SocketStream, admin: trio.Event
    ) -> AsyncGenerator[bytes, None]:
        """The server's lines to the ladder: to the admin, a drain's ends held."""
        draining = False
        held: list[bytes] = []
        async for line in _lines(server):
            if admin.is_set():
                if b" kind=start " in line:
                    self.starts += 1
                    if self.starts == self.pause_at:
                        self._pausing = True
                        self.paused.set()
                elif line.startswith(b"ok cmd=reserve ") and self._pausing:
                    self.reserved.set()
                elif line.startswith(b"info server=draining "):
                    draining = True
                elif draining and b" kind=match-end " in line:
                    held.append(line)
                    self.ends_held += 1
                    continue
                elif line.startswith(b"info server=stopping "):
                    line += b"".join(held)
                    held.clear()
            yield line


async def _pass(
    source: trio.SocketStream, to: trio.SocketStream, lines: AsyncGenerator[bytes, None]
) -> None:
    """``lines`` (read from ``source``) sent on ``to``; once either side ends, both closed."""
    try:
        async with contextlib.aclosing(lines):  # (a generator left on an error: closed)
            async for line in lines:
                await to.send_all(line)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    finally:
        await to.aclose()
        await source.aclose()


async def _lines(stream: trio.SocketStream) -> AsyncGenerator[bytes, None]:
    """Each whole line read from ``stream`` (its newline kept) until its end, or until
    either side closes it."""
    buffer = b""
    while True:
        try:
            data = await stream.receive_some(65536)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        if not data:
            return
        buffer += data
        *whole, buffer = buffer.split(b"\n")
        for line in whole:
            yield line + b"\n"
