"""The CPU the bench's server spends in its web tasks: bench/web_viewers.py --task-cpu.

Loaded into the server's process (its ``-c`` code): a trio instrument times each task
step with the thread's CPU clock (``time.thread_time``: time the thread ran, not time it
waited for a core, so other jobs on the machine do not inflate it) and adds it up for
the web tasks (hypercorn's connections, the pages' and the feeds': a task whose name
says ``hypercorn`` or ``.web.``) and for all tasks. A task writes both sums to a file
every ``EVERY_S``; the bench reads it at a window's start and end.

What it cannot see: the table's own work for a feed (rendering is shared with the
players; handing the lines to the feed is a few µs a call) and trio's scheduler.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import trio

EVERY_S = 0.05
_WEB = ("hypercorn", ".web.")


class TaskCpu(trio.abc.Instrument):
    """Thread CPU seconds in task steps: the web tasks', everyone's."""

    def __init__(self) -> None:
        self.web = 0.0
        self.all = 0.0
        self._started = 0.0
        self._is_web: dict[str, bool] = {}

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._started = time.thread_time()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        spent = time.thread_time() - self._started
        self.all += spent
        web = self._is_web.get(task.name)
        if web is None:
            web = self._is_web[task.name] = any(part in task.name for part in _WEB)
        if web:
            self.web += spent


async def report(path: str) -> None:
    """Count from now on, and write ``web all`` (seconds) to ``path`` every EVERY_S."""
    counter = TaskCpu()
    trio.lowlevel.add_instrument(counter)
    partial = Path(f"{path}.part")
    while True:
        await trio.sleep(EVERY_S)
        partial.write_text(f"{counter.web} {counter.all}\n")
        os.replace(partial, path)  # the reader sees a whole line


def read(path: str) -> tuple[float, float]:
    """The web tasks' and all tasks' CPU seconds so far."""
    web, total = (float(x) for x in Path(path).read_text().split())
    return web, total
