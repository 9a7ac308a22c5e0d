"""Turns at a few slots (the password-hash threads), handed out fewest-first: the
waiter with the smallest ``priority`` goes next, ties first come, first served. The
accounts give each check its address's recent checks as priority, so an address
that has checked little goes ahead of those checking in a loop (docs/security.md §1)."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import attrs
import trio


@attrs.define
class FairTurns:
    slots: int
    _free: int = attrs.field(init=False)
    # (priority, arrival, woken at its turn): in the heap's order, turns are given
    _waiting: list[tuple[int, int, trio.Event]] = attrs.field(init=False, factory=list)
    _arrivals: itertools.count[int] = attrs.field(init=False, factory=itertools.count)

    def __attrs_post_init__(self) -> None:
        self._free = self.slots

    def __len__(self) -> int:
        """How many wait for a turn."""
        return len(self._waiting)

    @asynccontextmanager
    async def turn(self, priority: int) -> AsyncIterator[None]:
        """Hold one slot, waiting (fewest-first) while none is free."""
        if self._free and not self._waiting:
            self._free -= 1
        else:
            entry = (priority, next(self._arrivals), trio.Event())
            heapq.heappush(self._waiting, entry)
            try:
                await entry[2].wait()
            except BaseException:
                # cancelled while waiting (a closed connection, a login timeout). A
                # holder's release in the same round may have handed it the slot after
                # the cancel woke it (the event set, its entry popped): pass that slot
                # on, or it is lost for good (two lost, and no password is checked)
                if entry[2].is_set():
                    self._release()
                else:
                    self._waiting.remove(entry)
                    heapq.heapify(self._waiting)
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        if self._waiting:
            heapq.heappop(self._waiting)[2].set()  # the slot passes to it
        else:
            self._free += 1
