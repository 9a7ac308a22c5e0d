"""What the server benchmarks share: a line-at-a-time client of the server's text
protocol (framed and split into fields by deberc_net/protocol/wire.py, the one parser
of the machine style), a process's memory from /proc, and the machine a figure was
measured on."""

from __future__ import annotations

import os
import platform
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from deberc_net.protocol.wire import LineBuffer, fields_of

HOST = "127.0.0.1"


def machine() -> dict[str, Any]:
    """The CPU model, core count and Python version, for each JSON line."""
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version()}


def status_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {key}")


class Lines:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = LineBuffer(errors="replace")
        self.ready: deque[str] = deque()  # complete lines not yet read

    @classmethod
    async def open(cls, port: int, source: str | None = None) -> Lines:
        """A connection to HOST's ``port``, from the loopback address ``source`` if given
        (another address to the server's per-address limits: '127.0.0.2')."""
        return cls(await trio.open_tcp_stream(HOST, port, local_address=source))

    async def send(self, text: str) -> None:
        await self.stream.send_all(text.encode() + b"\n")

    async def line(self) -> str:
        while not self.ready:  # split a whole read at once: the harness stays cheap
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            self.ready.extend(self.buffer.feed(data))
        return self.ready.popleft()

    async def until(
        self, pred: Callable[[str, dict[str, str]], bool]
    ) -> tuple[str, dict[str, str]]:
        while True:
            tag, f = fields_of(await self.line())
            if pred(tag, f):
                return tag, f

    async def login_reply(self) -> tuple[str, dict[str, str]]:
        return await self.until(
            lambda t, f: t == "error" or (t == "ok" and f.get("cmd") == "login")
        )

    async def aclose(self) -> None:
        with trio.move_on_after(1):
            await self.stream.aclose()
