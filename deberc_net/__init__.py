"""deberc-net: a Deberts server for people and bots."""

from __future__ import annotations

import functools


# The one version string lives in pyproject.toml; the package reads it from its metadata,
# when asked: importlib.metadata (with email, zipfile, csv) is not imported by every bot
# and client that only imports deberc_net.protocol.
@functools.cache
def _version() -> str:
    from importlib.metadata import version

    return version("deberc-net")


def __getattr__(name: str) -> str:
    if name == "__version__":
        return _version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
