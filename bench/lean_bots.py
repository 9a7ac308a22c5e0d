"""Machine-style bots that cost their process as little as Python allows: one thread,
``selectors`` over plain sockets, lines read as bytes, an ``ask`` answered with a
legal call at random. On a 2-core machine the load generator shares the cores with the
server under test, so every microsecond the bots spend is one the server does not get
(bench/workers.py: the trio bots of bench/server.py took half a core at 2,500 calls/s).
"""

from __future__ import annotations

import random
import selectors
import socket
import time
from collections.abc import Callable

from server import Load  # bench/server.py: the same counting and latencies

SEEK = b"seek 2\n"


class LeanBot:
    """One connection: seeks two-player games, answers every ``ask`` at once, at random
    (as bench/server.py's bots do, so the games are alike)."""

    def __init__(self, port: int, name: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setblocking(False)
        self.buffer = b""
        self.sock.sendall(b"style machine\nlogin " + name.encode() + b"\n" + SEEK)

    def feed(self, load: Load, now: Callable[[], float]) -> bool:
        """Read what came; False once the server closed the connection."""
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return True
        if not data:
            return False
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        out = b""
        for line in lines:
            if line.startswith(b"ask "):
                out += self._answer(line, load, now())
            elif b" kind=match-end" in line and line.startswith(b"event "):
                out += SEEK
        if out:
            self.sock.sendall(out)
        return True

    def _answer(self, line: bytes, load: Load, at: float) -> bytes:
        table = _field(line, b" table=")
        sent = load.sent_at.pop(table, None)
        if sent is not None:
            load.record(at - sent)
        load.sent_at[table] = at
        call = self.rng.choice(_field(line, b" legal=").split(","))
        return f"{call} seq={_field(line, b' seq=')}\n".encode()


def _field(line: bytes, key: bytes) -> str:
    start = line.index(key) + len(key)
    end = line.find(b" ", start)
    return line[start : end if end >= 0 else len(line)].decode()


def run(
    port: int,
    tables: int,
    prefix: str,
    warm_up: float,
    seconds: float,
    load: Load,
    mark: Callable[[], None],
) -> None:
    """``tables`` busy two-player tables (2 × tables bots): ``warm_up`` seconds, then
    ``mark()`` and ``seconds`` counted, then ``mark()`` again."""
    selector = selectors.DefaultSelector()
    bots = [LeanBot(port, f"{prefix}{i}", i) for i in range(2 * tables)]
    for bot in bots:
        selector.register(bot.sock, selectors.EVENT_READ, bot)
    start = time.monotonic()
    phases = [start + warm_up, start + warm_up + seconds]
    while phases:
        left = phases[0] - time.monotonic()
        if left <= 0:
            phases.pop(0)
            load.counting = bool(phases)
            mark()
            continue
        for key, _ in selector.select(min(left, 0.1)):
            bot = key.data
            if not bot.feed(load, time.monotonic):
                selector.unregister(bot.sock)
    for bot in bots:
        bot.sock.close()
    selector.close()
