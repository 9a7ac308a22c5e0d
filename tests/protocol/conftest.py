"""Fixtures of the protocol audit's modules: a real server on loopback, port 0, with
the settings a test gives, and clients closed when the test ends."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.server.app import serve
from deberc_net.testing import rule_book
from tests.server.conftest import (
    Connector,
    db_path,
    jump_when_idle,
    make_config,
    register,
    start_server,
    virtual_clock,
)

# virtual time, for the clocks' tests; a server whose store a test writes first (an
# admin's name registered as its owner registers it)
__all__ = ["db_path", "jump_when_idle", "register", "start_server", "virtual_clock"]

Start = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]


@pytest.fixture
def start(nursery: trio.Nursery, db_path: Path) -> Start:
    """A real server on 127.0.0.1, port 0, with these settings, on the store ``register``
    writes to; it stops with the test."""

    async def serving(**overrides: Any) -> int:
        config = make_config(db_path, **overrides)
        return int(await nursery.start(functools.partial(serve, config, rules=rule_book())))

    return serving


@pytest.fixture
async def port(start: Start) -> int:
    return await start()


@pytest.fixture
async def connect() -> AsyncIterator[Connector]:
    connector = Connector()
    yield connector
    await connector.aclose()
