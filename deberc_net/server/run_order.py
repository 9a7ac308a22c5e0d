"""The order trio's run loop serves the tasks one look at epoll woke: as they woke.

Trio runs each batch of woken tasks in their order or, half the time at random, reversed
(trio/_core/_run.py, "50% chance of reversing the batch"): a reader woken first in one
batch may run last in the next, so at a busy server's saturation a call can wait for
nearly two rounds of every other table's calls where arrival order bounds it near one
(docs/performance.md, "The order of service"). A server that owns its process asks for
arrival order; trio has no public switch, so this replaces the generator its coin is
tossed with, and gives the old one back.
"""

from __future__ import annotations

import random

import trio._core._run as trio_run


class _AlwaysReversed(random.Random):
    """A coin that always says 'reverse': trio pops its batch from the end, and the batch
    is in wake-up order, so reversed it runs the first woken first."""

    def random(self) -> float:
        return 0.0


def serve_in_arrival_order() -> random.Random | None:
    """Make the run loop serve woken tasks first come, first served; returns the
    generator it replaced, for ``restore`` (None: this trio has no such coin, nothing
    changed)."""
    coin = getattr(trio_run, "_r", None)
    if type(coin) is not random.Random:  # another trio, or already in arrival order
        return None
    trio_run._r = _AlwaysReversed()
    return coin


def restore(coin: random.Random | None) -> None:
    """Give trio back the generator ``serve_in_arrival_order`` replaced."""
    if coin is not None:
        trio_run._r = coin
