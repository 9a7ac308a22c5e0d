"""What the web face keeps in memory of what never changes once made (a finished ladder
run's plot, a finished match's replay): by key, bounded by its size, the least recently
asked dropped first. Made and handed over by the web face (app.make_app: one a process,
no module state)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import trio

K = TypeVar("K", bound=Hashable)
V = TypeVar("V", str, bytes)


class Kept(Generic[K, V]):
    """Values kept by key, the least recently asked dropped once they pass ``most_bytes``
    in all (their ``len``: characters of a str, bytes of bytes), one alone past it kept
    till the next. Read and written by the request threads and the event loop: locked."""

    def __init__(self, most_bytes: int) -> None:
        self.most_bytes = most_bytes
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        # held by the request whose thread makes a value: one at a time, so the first
        # requests of one that come together make it once, the others finding it kept
        # (each made it: 50 first requests of a run's plot held the CPU for seconds).
        # They wait on the event loop: waiting in threads, they held trio's threads,
        # which logins' hashing and the store's reads share
        self._making = trio.Lock()

    async def kept_or_made(self, key: K, make: Callable[[], V | None]) -> V | None:
        """``key``'s value kept, or ``make`` run in a thread, which keeps what it made
        (``put``: kept even if its request is gone) and returns it."""
        found = self.get(key)
        if found is not None:
            return found
        async with self._making:
            found = self.get(key)  # made while this request waited its turn
            if found is not None:
                return found
            return await trio.to_thread.run_sync(make)

    def get(self, key: K) -> V | None:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
            return self._kept.get(key)

    def put(self, key: K, value: V) -> None:
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = value
            self._bytes += len(value)
            while self._bytes > self.most_bytes and len(self._kept) > 1:
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped)
