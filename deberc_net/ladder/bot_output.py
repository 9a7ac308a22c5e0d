"""A process bot's standard error, passed through to the ladder's own a line at a time,
each line led by the copy's name (``non-1: error code=stale …``), so that a bot's author
sees why it forfeits; the last few hundred bytes are kept as its last words, for a bot
that cannot run at all (docs/bots.md)."""

from __future__ import annotations

import sys

import attrs
import trio

LAST_WORDS = 600  # bytes
LONGEST_LINE = 4096  # a line without its end yet is passed on at this length


@attrs.define
class BotOutput:
    instance: str  # the copy's name: NAME-i
    tail: bytes = b""
    partial: bytes = b""

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
        return self.tail.decode("utf-8", "replace").strip()

    def _say(self, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\r")
        # a bot of the client library names itself already
        lead = "" if text.startswith(f"{self.instance}: ") else f"{self.instance}: "
        # the file looked up at each line: the ladder's progress bar redirects stderr
        print(lead + text, file=sys.stderr, flush=True)
