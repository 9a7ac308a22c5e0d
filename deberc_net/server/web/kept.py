"""What the web face keeps in memory of what never changes once made (a finished ladder
run's plot, a finished match's replay): by key, bounded by its size, the least recently
asked dropped first. Made and handed over by the web face (app.make_app: one a process,
no module state)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

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
