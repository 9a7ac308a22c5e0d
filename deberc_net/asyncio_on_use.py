"""``asyncio`` imported at its first use, not by whoever names it: structlog imports it
for its async logging methods, which our trio processes never call, and it was some
20-30 ms of a server's start-up CPU (docs/performance.md)."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import sys
import types
from collections.abc import Iterator
from typing import Any


class _AsyncioOnUse(types.ModuleType):
    """What an ``import asyncio`` in ``asyncio_on_use`` gets: when a name of it is asked
    for, the real module is imported and answers, for every holder of this one."""

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get("asyncio") is self:  # (asked for inside the block)
            del sys.modules["asyncio"]
        return getattr(importlib.import_module("asyncio"), name)


@contextlib.contextmanager
def asyncio_on_use() -> Iterator[None]:
    """Within the block an ``import asyncio`` gets the stand-in (importlib reads only its
    ``__spec__``, which it has); after it, any import is the real module's. Only for
    the block: a stand-in left in sys.modules made ``import asyncio.events`` load a
    second copy of that module (importlib asks the parent for its ``__path__``, which
    imported the real package, then loaded the submodule again)."""
    spec = None if "asyncio" in sys.modules else importlib.util.find_spec("asyncio")
    if spec is None:
        yield
        return
    stand_in = _AsyncioOnUse("asyncio")
    stand_in.__spec__ = spec
    sys.modules["asyncio"] = stand_in
    try:
        yield
    finally:
        if sys.modules.get("asyncio") is stand_in:
            del sys.modules["asyncio"]
