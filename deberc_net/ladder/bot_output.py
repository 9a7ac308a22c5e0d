"""A process bot's standard error, passed through to the ladder's own a line at a time
(by a worker thread: ``ErrorLines``),
each line led by the copy's name (``non-1: error code=stale …``), so that a bot's author
sees why it forfeits; the last few hundred bytes are kept as its last words, for a bot
that cannot run at all (docs/bots.md). A bot of the client library also says its
fault counts there (``clients.client.fault_counts``, asked for by the ladder), its drops
counted too: read into the report, not passed on, with its first fault (docs/bots.md "A
bot's faults", "A bot's drops")."""

from __future__ import annotations

import re
import sys
import threading

import attrs
import trio

from clients.client import FELL_BACK, PLAYED_ON

LAST_WORDS = 600  # bytes
MAX_WAITING = 10_000  # the bots' lines waiting for standard error; more are dropped
LONGEST_LINE = 4096  # a line without its end yet is passed on at this length
# (reconnects= appended since s47: a bot that says none had no drops counted)
COUNTS = re.compile(r"faults fallbacks=(\d+) exceptions=(\d+)(?: reconnects=(\d+))?")
FIRST_FAULT_ENDS = (FELL_BACK, PLAYED_ON)  # what Bot._faulted says came of a fault


class ErrorLines:
    """The bots' lines for the ladder's standard error, written by a worker thread
    (``write``): a reader slow to take them (a full pipe, a paused pager) holds that
    thread, never the event loop, so the server's clocks and every table go on. At
    most MAX_WAITING lines wait; past that they are dropped, and how many is said.
    ``flush`` writes what is left (the ladder's end)."""

    def __init__(self) -> None:
        self._waiting: list[str] = []
        self._dropped = 0
        self._more = trio.Event()
        self._writing = threading.Lock()  # a flush at the end waits for the thread's

    def say(self, line: str) -> None:
        if len(self._waiting) >= MAX_WAITING:
            self._dropped += 1
            return
        self._waiting.append(line)
        self._more.set()

    async def write(self) -> None:
        """Write the lines as they come, until cancelled (the thread then finishes the
        lines it has on its own)."""
        while True:
            await self._more.wait()
            self._more = trio.Event()
            await trio.to_thread.run_sync(self.flush, abandon_on_cancel=True)

    def flush(self) -> None:
        with self._writing:
            lines, self._waiting = self._waiting, []
            dropped, self._dropped = self._dropped, 0
            if dropped:
                lines.append(f"ladder: {dropped} lines of the bots dropped: stderr was not read")
            if lines:
                # the file looked up at each write: the ladder's progress bar redirects it
                err = sys.stderr
                err.write("".join(f"{line}\n" for line in lines))
                err.flush()


@attrs.define
class BotOutput:
    instance: str  # the copy's name: NAME-i
    lines: ErrorLines  # where its lines go (the ladder's, shared by its copies)
    tail: bytes = b""
    partial: bytes = b""
    # the process's fault counts as it last said them, and its first fault
    fallbacks: int = 0
    exceptions: int = 0
    reconnects: int = 0
    first_fault: str | None = None

    async def relay(self, stream: trio.abc.ReceiveStream) -> None:
        """Pass ``stream`` on until it ends (the process and its children closed it)."""
        async with stream:
            async for chunk in stream:
                self.tail = (self.tail + chunk)[-LAST_WORDS:]
                *lines, self.partial = (self.partial + chunk).split(b"\n")
                if len(self.partial) >= LONGEST_LINE:
                    lines.append(self.partial)
                    self.partial = b""
                for line in lines:
                    self._say(line)
        if self.partial:
            self._say(self.partial)
            self.partial = b""

    @property
    def last_words(self) -> str:
        """Its last bytes on one line, its lines joined by ' / ': they end the ladder's
        one-line error and a failed run's line of 'ladder table'."""
        lines = self.tail.decode("utf-8", "replace").splitlines()
        return " / ".join(line.strip() for line in lines if line.strip())

    def _say(self, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\r")
        # a bot of the client library names itself already
        named = text.startswith(f"{self.instance}: ")
        said = text[len(self.instance) + 2 :] if named else text
        counts = COUNTS.fullmatch(said) if named else None
        if counts is not None:  # for the report, not for people
            self.fallbacks, self.exceptions = int(counts[1]), int(counts[2])
            self.reconnects = int(counts[3] or 0)
            return
        end = next((e for e in FIRST_FAULT_ENDS if said.endswith(e)), None) if named else None
        if end is not None and self.first_fault is None:
            self.first_fault = said.removesuffix(end)
        self.lines.say(text if named else f"{self.instance}: {text}")
