"""deberc-net: a Deberts server for people and bots."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING


# The one version string lives in pyproject.toml; the package reads it from its metadata,
# when asked: importlib.metadata (with email, zipfile, csv) is not imported by every bot
# and client that only imports deberc_net.protocol.
@functools.cache
def _version() -> str:
    from importlib.metadata import version

    return version("deberc-net")


# mypy sees the one name, not the module __getattr__ (any other name would pass as a str)
if TYPE_CHECKING:
    __version__: str
else:

    def __getattr__(name: str) -> str:
        if name == "__version__":
            return _version()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
