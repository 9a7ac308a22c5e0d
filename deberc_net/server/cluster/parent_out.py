"""What the parent of ``serve --workers`` passes on to its stdout (its workers' lines
that are not for it: a plugin's prints), written without ever waiting on the reader.

The parent's one loop restarts dead workers and passes signals on: a write to a stdout
whose reader had stalled (an operator's ``| less`` paused, a stuck log shipper) blocked
it there, the pipe full, and it supervised nothing more till the reader read. Lines
now wait in a bounded backlog, written at each turn of the loop as far as the stdout
takes them (select says it can take some; at most ``PIPE_BUF`` bytes a write, which a
pipe takes whole or not at all). A line that does not fit is dropped and counted, and
so is every line after it until half the backlog has been written; then one line says
how many were dropped there (``NOTE``), and the log says so (``output_dropped``). At
the parent's end it waits ``FINISH_S`` at most for a stalled reader, then drops the
rest, counted the same way."""

from __future__ import annotations

import collections
import contextlib
import os
import select
import sys
import time

import attrs
import structlog

log = structlog.get_logger("deberc.workers")

# the most the parent keeps for a stdout not read: a few MiB of prints, then drops
# (the default of the setting output_backlog_bytes, which run_workers sets it to)
BACKLOG_BYTES = 4 << 20
# what one write gives the stdout: a pipe takes a write of PIPE_BUF or less whole, or
# not at all, so one select said could take some is never waited on
WRITE_SIZE = getattr(select, "PIPE_BUF", 512)
# how long the parent's end waits for a stalled reader before it drops what is left
FINISH_S = 2.0
FINISH_STEP_S = 0.01
# the line written where lines were dropped
NOTE = (
    "deberc-net serve: {lines} line(s) of the workers' output dropped here:"
    " this output was not read\n"
)


@attrs.define
class Backlog:
    """The lines waiting for the parent's stdout; ``dropped``: those dropped since the
    last note."""

    limit: int = BACKLOG_BYTES
    lines: collections.deque[bytes] = attrs.Factory(collections.deque)
    size: int = 0
    dropped: int = 0

    def put(self, line: bytes) -> None:
        """``line`` (its newline included) to be written, as much as can be now; dropped
        if the backlog is full, or lines before it were dropped and not yet noted."""
        self._note_the_drops()
        if self.dropped or self.size + len(line) > self.limit:
            self.dropped += 1
            return
        self.lines.append(line)
        self.size += len(line)
        self.pump()

    def pump(self) -> None:
        """Write what the stdout takes now, never waiting (no stdout: it is lost, as a
        print to none is)."""
        out = _stdout_fd()
        if out is None:
            if self.lines:  # (no descriptor: a test's capture, which takes it all)
                _written_as_ever(b"".join(self.lines))
            self._clear()
            return
        while self.lines:
            try:
                if not select.select([], [out], [], 0)[1]:
                    break
                written = os.write(out, self.lines[0][:WRITE_SIZE])
            except BlockingIOError:
                break
            except (OSError, ValueError):  # its reader gone for good: lost, as before
                self._clear()
                return
            self.size -= written
            if written == len(self.lines[0]):
                self.lines.popleft()
            else:
                self.lines[0] = self.lines[0][written:]
        self._note_the_drops()

    def finish(self, limit_s: float = FINISH_S) -> None:
        """At the parent's end: write what waits, ``limit_s`` at most, then drop the rest
        (logged)."""
        deadline = time.monotonic() + limit_s
        self.pump()
        while self.lines and time.monotonic() < deadline:
            time.sleep(FINISH_STEP_S)
            self.pump()
        if self.lines or self.dropped:
            self.dropped += len(self.lines)
            self._clear()
            log.warning("output_dropped", lines=self.dropped, ending=True)
            self.dropped = 0

    def _note_the_drops(self) -> None:
        """The note of the lines dropped, once it fits (then logged too)."""
        if not self.dropped:
            return
        if self.size > self.limit // 2:  # (half written first: one note a stall, not a line)
            return
        note = NOTE.format(lines=self.dropped).encode()
        log.warning("output_dropped", lines=self.dropped)
        self.dropped = 0
        self.lines.append(note)
        self.size += len(note)

    def _clear(self) -> None:
        self.lines.clear()
        self.size = 0


def _stdout_fd() -> int | None:
    """The parent's stdout's descriptor (None: none, or a stream without one)."""
    try:
        return sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _written_as_ever(data: bytes) -> None:
    out = getattr(sys.stdout, "buffer", None)
    with contextlib.suppress(OSError, ValueError):
        if out is not None:
            out.write(data)
            out.flush()
