"""A process's exit without the interpreter's last garbage collections over its heap."""

from __future__ import annotations

import atexit
import gc


def freeze_heap_at_exit() -> None:
    """What a command or a bot makes lives until its process ends: ``gc.freeze()`` at
    exit, before the interpreter's last collections, keeps them from walking all of it
    (a ladder run, an export, a server's or a bot's exit: some 25 to 100 ms of CPU
    each; docs/performance.md). Registered once per process, however often called."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
