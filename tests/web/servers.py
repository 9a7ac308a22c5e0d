"""A server with its web face in the test's own nursery, stopped cleanly (its store
closed while a match may still run) when the block ends: for the tests of what a clean
stop leaves (tests/web/test_stopped_match.py, test_replay_words.py)."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio

from deberc_net.server.app import serve
from deberc_net.testing import rule_book
from tests.server.conftest import make_config

from .conftest import WebServer


@asynccontextmanager
async def web_server(db: Path, **settings: Any) -> AsyncIterator[WebServer]:
    """A server with its web face that stops (cleanly) when the block ends; ``settings``
    as make_config's (a ``match_seed``: the same deals every run)."""
    bound: list[int] = []
    async with trio.open_nursery() as nursery:
        config = make_config(db, http_port=0, **settings)
        port = await nursery.start(
            functools.partial(serve, config, rules=rule_book(), http_bound=bound.append)
        )
        yield WebServer(port, bound[0])
        nursery.cancel_scope.cancel()
