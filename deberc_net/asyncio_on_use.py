"""``asyncio`` imported at its first use, not by whoever names it: structlog imports it
for its async logging methods, which our trio processes never call, and it was some
20-30 ms of a server's start-up CPU (docs/performance.md)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any


class _AsyncioOnUse(types.ModuleType):
    """Stands in sys.modules for asyncio until a name of it is asked for: then the real
    module is imported (in its place in sys.modules) and answers, for every holder of
    this one too. An ``import asyncio`` meanwhile gets this stand-in: importlib reads
    only its ``__spec__``, which it has (importlib's LazyLoader loads on that read)."""

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get("asyncio") is self:
            del sys.modules["asyncio"]
        return getattr(importlib.import_module("asyncio"), name)


def defer_asyncio() -> None:
    """Put the stand-in in sys.modules, unless asyncio is imported already."""
    if "asyncio" in sys.modules:
        return
    spec = importlib.util.find_spec("asyncio")
    if spec is None:
        return
    stand_in = _AsyncioOnUse("asyncio")
    stand_in.__spec__ = spec
    sys.modules["asyncio"] = stand_in
