"""A real server, and a machine-style opponent, for the terminal client's tests.

Textual's pilot runs on asyncio and the server on trio, so the server (and the opponent,
a random legal player from tests/server/client.py) run in a thread with its own trio
loop. Everything is on 127.0.0.1, port 0, and every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import functools
import queue
import random
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import trio

from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.testing import rule_book
from tests.server.client import LineClient, machine_client, play_machine

STOP_TIMEOUT = 10.0


class ServerThread:
    """``with ServerThread(db) as server:`` a server on ``server.port``; ``opponent(name,
    join)`` starts a random machine-style player that joins one game (``seek …`` or
    ``sit TABLE``) and plays it."""

    def __init__(self, db: Path, port: int = 0, **settings: object) -> None:
        """``port``: 0 for a free one; a server stopped earlier's to start it again."""
        # house bots as nice as the server, as tests/server's make_config has them
        settings = {"house_bot_nice": 0, **settings}
        self.config = Config(host="127.0.0.1", port=port, db=str(db), lag_ms=0, **settings)  # type: ignore[arg-type]
        self.port = 0
        self.errors: list[BaseException] = []
        self.opponent_lines: list[str] = []
        self._ports: queue.Queue[int] = queue.Queue()
        self._token: trio.lowlevel.TrioToken | None = None
        self._nursery: trio.Nursery | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ServerThread:
        self._thread.start()
        # the port, or the thread's end (``_run`` puts 0 then): however long the start
        # takes on a loaded machine (10 s were too few: queue.Empty, 8 runs at once on 2
        # cores); the test's own time limit bounds it
        self.port = self._ports.get()
        assert self.port, f"the server did not start: {self.errors}"
        return self

    def __exit__(self, *_: object) -> None:
        if self._nursery is not None and self._token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(self._nursery.cancel_scope.cancel, trio_token=self._token)
        self._thread.join(STOP_TIMEOUT)

    def _run(self) -> None:
        try:
            trio.run(self._main)
        except BaseException as exc:  # told to the test, which fails on it
            self.errors.append(exc)
        finally:
            self._ports.put(0)  # (after a port, never read): __enter__ waits for one

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            port = await nursery.start(functools.partial(serve, self.config, rules=rule_book()))
            self._ports.put(port)
            await trio.sleep_forever()

    def opponent(self, name: str, join: str, seed: int = 1) -> None:
        """A random legal player that sends ``join`` and plays one match."""
        assert self._token is not None and self._nursery is not None
        trio.from_thread.run_sync(
            self._nursery.start_soon, self._play, name, join, seed, trio_token=self._token
        )

    async def _play(self, name: str, join: str, seed: int) -> None:
        client: LineClient | None = None
        try:
            client = await machine_client(self.port, name)
            self.opponent_lines = client.lines  # the same list, filled as lines come
            await client.send(join)
            await play_machine(client, random.Random(seed), timeout=30)
        except BaseException as exc:
            if not isinstance(exc, trio.Cancelled):
                self.errors.append(exc)
            raise
        finally:
            if client is not None:
                with trio.move_on_after(1) as scope:
                    scope.shield = True
                    await client.aclose()


class Heard:
    """What a ``Link`` delivers (``deliver``, its callback), for the test's thread to
    wait on: ``said`` in order, ``index_of`` the first line from a point on holding a
    text, waited for."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self._arrived = threading.Condition()

    def deliver(self, line: str) -> None:
        with self._arrived:
            self.said.append(line)
            self._arrived.notify_all()

    def index_of(self, text: str, after: int = 0, timeout: float = 30.0) -> int:
        """The index of the first line from ``after`` on holding ``text``."""

        def found() -> int | None:
            return next((i for i in range(after, len(self.said)) if text in self.said[i]), None)

        with self._arrived:
            assert self._arrived.wait_for(lambda: found() is not None, timeout), self.said
            index = found()
            assert index is not None
            return index


@contextlib.contextmanager
def walked_out(port: int, table: int | None, name: str = "olga") -> Iterator[None]:
    """A machine-style ``name`` sits at ``table``, waits for its match to start and
    walks out of it (``leave!``: its other player wins), its connection kept open till
    the block's end (its going would call a rematch offer off)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(f"style machine\r\nlogin {name}\r\n".encode())
        read_until(sock, "ok cmd=login")
        sock.sendall(f"sit {table}\r\n".encode())
        read_until(sock, "kind=start")
        sock.sendall(b"leave!\r\n")
        yield


def read_until(sock: socket.socket, want: str) -> None:
    """Read what the server sends ``sock`` up to a line holding ``want``."""
    got = b""
    while want.encode() not in got:
        data = sock.recv(65536)
        assert data, got
        got += data
