"""A process's start-up without the collector's passes over what it imports."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_paused = False  # the collector is off for a start-up (and was on before it)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off while a command imports and sets up what lives as long as its
    process (a server's modules, rules, lobby): its passes walked all of it over and
    over, 20 to 40 ms of a server's start-up CPU (docs/performance.md). The command
    turns it back on (``resume``) where it freezes that start-up heap (``gc.freeze``:
    a server once it listens, a ladder once its bots started); the end of the block
    does, if it came first (an error, a command that ended). A collector already off
    (the caller's) stays off."""
    global _paused
    if not gc.isenabled():
        yield
        return
    gc.disable()
    _paused = True
    try:
        yield
    finally:
        resume()


def resume() -> None:
    """The collector on again, if ``collector_paused`` turned it off."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()
