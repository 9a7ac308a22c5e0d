"""The ladder's progress on stderr: a rich progress bar on a terminal, a plain line
every tenth of the way otherwise (logs, CI)."""

from __future__ import annotations

import math
import sys
import time
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress


class LadderProgress:
    def __init__(self, total: int, stream: IO[str] | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self._started = time.perf_counter()
        self._last_tenth = -1
        self._bar: Progress | None = None
        if self.stream.isatty():
            # rich's bar only on a terminal: a run logged to a file (or --json, with no
            # progress at all) does not import it (part of the ladder's start-up)
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("ladder"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("games"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(file=self.stream),
                transient=False,
            )
            self._task = self._bar.add_task("ladder", total=total)
            self._bar.start()

    def update(self, done: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=done)
            return
        tenth = math.floor(10 * done / max(1, self.total))
        if tenth != self._last_tenth:
            self._last_tenth = tenth
            rate = done / max(1e-9, time.perf_counter() - self._started)
            self.stream.write(f"ladder: {done}/{self.total} games ({rate:.1f}/s)\n")
            self.stream.flush()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
