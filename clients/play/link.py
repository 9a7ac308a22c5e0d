"""The wire for the terminal client: the client library's trio ``Connection`` in a
thread of its own, since Textual runs on asyncio.

Every line from the server is handed to ``deliver`` (called in the link's thread; the
app posts it to itself, which is thread-safe). The link's own notices come the same way,
as machine-style ``info`` lines, so the screen has one path. It logs in again with the
resume token (or the password) when the connection drops, so the seat is kept
(docs/protocol.md §12).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

import trio

from clients.client import Connection, why_not_connected
from deberc_net.protocol.wire import Tag, format_line, parse_line

RETRIES = 5  # drops in a row before the link gives up


class Link:
    def __init__(
        self, host: str, port: int, deliver: Callable[[str], None], name: str | None = None
    ) -> None:
        self.host = host
        self.port = port
        self.deliver = deliver
        self.name = name  # to log in as on connect (None: the person types 'login')
        self.token: str | None = None
        self.password: str | None = None
        self.closed = threading.Event()
        self._started = threading.Event()
        self._trio_token: trio.lowlevel.TrioToken | None = None
        self._outbox: trio.MemorySendChannel[str] | None = None
        self._scope: trio.CancelScope | None = None
        self._thread: threading.Thread | None = None
        self._quitting = False
        self._conn: Connection | None = None
        self._logins = 0  # logins answered, so a drop after one is a fresh failure count
        self._opened = False  # this attempt's connection was made (then it may be lost)

    # ------------------------------------------------------------ from the app
    @property
    def quitting(self) -> bool:
        return self._quitting

    def start(self) -> None:
        self._thread = threading.Thread(
            target=trio.run, args=(self._main,), daemon=True, name="deberc-play-link"
        )
        self._thread.start()
        self._started.wait(5)

    def send(self, line: str) -> bool:
        """Queue a line for the server; False once the link is gone."""
        words = line.split()
        if words and words[0].lower() == "quit":
            self._quitting = True
        if len(words) == 3 and words[0].lower() == "login" and "=" not in words[2]:
            self.password = words[2]  # kept in memory only, to resume after a drop
        if self._outbox is None or self._trio_token is None or self.closed.is_set():
            return False
        try:
            trio.from_thread.run_sync(self._outbox.send_nowait, line, trio_token=self._trio_token)
        except (trio.RunFinishedError, trio.WouldBlock, trio.ClosedResourceError):
            return False
        return True

    def drop(self) -> None:
        """Close the connection as a network failure would; the link then logs in again
        with the resume token (or password), and the seat is taken back."""
        if self._trio_token is None:
            return
        with contextlib.suppress(trio.RunFinishedError):
            trio.from_thread.run(self._close_current, trio_token=self._trio_token)

    async def _close_current(self) -> None:
        if self._conn is not None:
            await self._conn.aclose()

    def stop(self) -> None:
        if self._scope is not None and self._trio_token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(self._scope.cancel, trio_token=self._trio_token)
        if self._thread is not None:
            self._thread.join(5)

    # --------------------------------------------------------- in the link's thread
    def _notice(self, text: str) -> None:
        self.deliver(format_line(Tag.INFO, (), text))

    def _login_line(self) -> str | None:
        if self.name is None:
            return None
        if self.password:
            return f"login {self.name} {self.password}"
        return f"login {self.name}" + (f" token={self.token}" if self.token else "")

    async def _main(self) -> None:
        self._trio_token = trio.lowlevel.current_trio_token()
        outbox, inbox = trio.open_memory_channel[str](256)
        self._outbox = outbox
        try:
            with trio.CancelScope() as scope:
                self._scope = scope
                self._started.set()
                failures = 0
                while failures <= RETRIES:
                    logins = self._logins
                    self._opened = False
                    done = await self._session(inbox)
                    if done or self._quitting:
                        break
                    failures = 1 if self._logins > logins else failures + 1
                    if failures <= RETRIES:
                        # a connection that was never made was not lost
                        what = "connection lost" if self._opened else "no connection yet"
                        self._notice(f"{what}: trying again ({failures}/{RETRIES})")
                        await trio.sleep(min(5.0, 0.2 * 2**failures))
                else:
                    self._notice("the server cannot be reached")
        finally:
            self._started.set()
            self.closed.set()
            self._notice("disconnected")

    async def _session(self, inbox: trio.MemoryReceiveChannel[str]) -> bool:
        """One connection; True when it ended for good (bye), False when it dropped."""
        try:
            conn = await Connection.open(self.host, self.port)
        except OSError as exc:
            self._notice(f"cannot connect to {self.host}:{self.port}: {why_not_connected(exc)}")
            return False
        self._opened = True
        ended = False
        self._conn = conn
        try:
            async with trio.open_nursery() as nursery:
                await conn.send("style machine")
                await conn.send("clock human")  # a person at the keys: not a bot's 10 s
                login = self._login_line()
                if login is not None:
                    await conn.send(login)
                nursery.start_soon(self._write, conn, inbox)
                nursery.start_soon(conn.keep_alive)
                async for line in conn.lines():
                    self._learn(line)
                    self.deliver(line)
                    if parse_line(line).tag == Tag.BYE:
                        ended = True
                        break
                nursery.cancel_scope.cancel()
        except* (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # a dropped connection: the caller tries again
        finally:
            self._conn = None
            await conn.aclose()
        return ended

    def _learn(self, line: str) -> None:
        parsed = parse_line(line)
        if parsed.tag == Tag.OK and parsed.get_str("cmd") == "login":
            self._logins += 1
            self.name = parsed.get_str("name") or self.name
            self.token = parsed.get_str("token") or self.token

    async def _write(self, conn: Connection, inbox: trio.MemoryReceiveChannel[str]) -> None:
        async for line in inbox:
            try:
                await conn.send(line)
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                return  # the reader sees the end too
