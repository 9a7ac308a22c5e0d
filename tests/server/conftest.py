"""Fixtures for the end-to-end tests: a real server on 127.0.0.1, port 0, a tmp SQLite file.

``start_server(**config)`` runs ``serve`` in the test's nursery (it stops when the test
ends) and returns the bound port; ``port`` is a server with short clocks left at their
defaults except the lag allowance. ``connect`` opens clients that are closed afterwards.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from deberc_net.server.accounts import password_hash, set_password
from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.server.session import Session
from deberc_net.server.store import open_store
from deberc_net.server.store_writer import StoreWriter
from deberc_net.testing import rule_book

from .client import LineClient, close_all, human_client, machine_client

# the start_server fixture: a server on port 0 with these config overrides; its port
StartServer = Callable[..., Awaitable[int]]


def make_config(db: str | Path, **overrides: Any) -> Config:
    # no heartbeat unless a test asks: on virtual time each beat is a store call in a
    # thread, which holds the autojumping clock for its 0.3 s threshold
    settings: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "db": str(db),
        "lag_ms": 0,
        "heartbeat_ms": 24 * 3600 * 1000,
        # house bots as nice as the server unless a test asks: at the default 10, on
        # cores busy with the other tests, a bot's interpreter took seconds to start
        # (test_house_bots.py checks the setting, and the default)
        "house_bot_nice": 0,
    }
    settings.update(overrides)
    return Config(**settings)


async def told_until(session: Session, text: str, limit_s: float = 30) -> str:
    """What an in-process ``session`` was told, up to and with ``text``."""
    told = ""
    with trio.fail_after(limit_s):
        while text not in told:
            await trio.sleep(0.01)
            told += session.outbox.take().decode()
    return told


@asynccontextmanager
async def running_server(config: Config) -> AsyncIterator[int]:
    """A server that stops when the block ends (to restart one on the same file)."""
    async with trio.open_nursery() as nursery:
        port = await nursery.start(functools.partial(serve, config, rules=rule_book()))
        yield port
        nursery.cancel_scope.cancel()


@asynccontextmanager
async def running_web_server(config: Config) -> AsyncIterator[tuple[int, int]]:
    """As ``running_server``, with its web face (``config``'s ``http_port``, 0: a free
    one): the game port and the web port."""
    async with trio.open_nursery() as nursery:
        bound: list[int] = []
        serving = functools.partial(serve, config, rules=rule_book(), http_bound=bound.append)
        port = await nursery.start(serving)
        yield port, bound[0]
        nursery.cancel_scope.cancel()


@functools.cache
def _new_store_file(folder: Path) -> bytes:
    """The bytes of a store file as ``open_store`` makes it on a missing path (schema,
    migrations, WAL mode), made once in each test process."""
    path = folder / "new.sqlite3"
    open_store(path).close()  # closed: checkpointed, no -wal or -shm file beside it
    return path.read_bytes()


@pytest.fixture
def db_path(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Path:
    """A new store's file, written as the bytes a first ``open_store`` made in this
    process: each test that serves from it had its schema made anew (some 12 ms of CPU,
    ~290 tests). A test marked ``new_db_file`` gets a path with nothing at it, for the
    server to create (what a server makes of a missing file is what it tests)."""
    path = tmp_path / "deberc.sqlite3"
    if request.node.get_closest_marker("new_db_file") is None:
        made = _new_store_file(tmp_path_factory.getbasetemp())
        # 0600, as the server creates it (server/store/sqlite.py: make_private)
        with os.fdopen(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600), "wb") as out:
            out.write(made)
    return path


@pytest.fixture
def start_server(nursery: trio.Nursery, db_path: Path) -> StartServer:
    async def start(**overrides: Any) -> int:
        # the plugins are loaded once per test process, as once per server process
        config = make_config(db_path, **overrides)
        port: int = await nursery.start(functools.partial(serve, config, rules=rule_book()))
        return port

    return start


@pytest.fixture
def register(db_path: Path) -> Callable[[str, str], Awaitable[None]]:
    """Register a name the way a server's owner does ('deberc-net admin NAME'): in the
    file, not by a first-come login (an admin's name can be had no other way)."""

    async def add(name: str, password: str) -> None:
        def write() -> None:
            store = open_store(db_path)
            try:
                looks_like = set_password(store, name, password)
            finally:
                store.close()
            assert looks_like is None, f"{name} looks like {looks_like}: not registered"

        await trio.to_thread.run_sync(write)

    return add


@pytest.fixture
def register_old(db_path: Path) -> Callable[[str, str], Awaitable[None]]:
    """Register a name as a store from before a rule of names kept it (a look-alike of
    a name registered, one that mixes alphabets): written in, no rule asked."""

    async def add(name: str, password: str) -> None:
        def write() -> None:
            store = open_store(db_path)
            try:
                salt = os.urandom(16)
                assert store.add_account(name, salt, password_hash(password, salt))
            finally:
                store.close()

        await trio.to_thread.run_sync(write)

    return add


@pytest.fixture
async def port(start_server: Callable[..., Awaitable[int]]) -> int:
    return await start_server()


class Connector:
    """Opens clients and closes them all when the test ends."""

    def __init__(self) -> None:
        self.clients: list[LineClient] = []

    def _keep(self, client: LineClient) -> LineClient:
        self.clients.append(client)
        return client

    async def raw(self, port: int, label: str = "", source: str | None = None) -> LineClient:
        return self._keep(await LineClient.connect(port, label, source))

    async def machine(
        self,
        port: int,
        name: str,
        password: str | None = None,
        token: str | None = None,
        source: str | None = None,
    ) -> LineClient:
        return self._keep(await machine_client(port, name, password, token, source))

    async def human(self, port: int, name: str) -> LineClient:
        return self._keep(await human_client(port, name))

    async def aclose(self) -> None:
        await close_all(self.clients)


@pytest.fixture
async def connect() -> AsyncIterator[Connector]:
    connector = Connector()
    yield connector
    await connector.aclose()


@pytest.fixture
def virtual_clock() -> trio.testing.MockClock:
    """Virtual time for clock and away tests (pytest-trio runs a test with a Clock among
    its arguments on that clock); ``jump_when_idle`` moves it. Rate 0: time moves only
    by jumps."""
    return trio.testing.MockClock()


@pytest.fixture
async def jump_when_idle(
    virtual_clock: trio.testing.MockClock, nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When every task waits, jump to the next deadline, so a 300 ms away limit passes at
    once and exactly.

    pytest-trio's ``autojump_clock`` does this without the thread check, and cannot be
    used as it is: the server does its SQLite and account work in worker threads, and a
    task waiting for a thread looks idle, so that clock would jump to a test client's
    timeout while a thread runs. So ``trio.to_thread.run_sync`` and the tables' waits for
    their store writer's thread (``StoreWriter.run``) are wrapped to count the calls in
    flight (the real ones still do the work), and time waits for them.

    Its 1 ms of idleness is no bet on a loaded machine's speed: a thread's step is
    counted, however long it takes, and a loopback socket's bytes are in the peer's
    socket as the send returns (the kernel carries them in the sender's call), so a
    peer task of this process is runnable before the sender waits (test_jump_when_idle.py
    checks all three). What it cannot see is a process of its own (a house bot, a
    server process, PostgreSQL) or a thread started another way (trio.Path's): a
    test that uses one waits for it with no virtual limit, or on a store call (a
    thread)."""
    in_flight = 0

    def counting(wait: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal in_flight
            in_flight += 1
            try:
                return await wait(*args, **kwargs)
            finally:
                in_flight -= 1

        return counted

    monkeypatch.setattr(trio.to_thread, "run_sync", counting(trio.to_thread.run_sync))
    monkeypatch.setattr(StoreWriter, "run", counting(StoreWriter.run))

    async def jump() -> None:
        while True:
            await trio.testing.wait_all_tasks_blocked(cushion=0.001)
            if in_flight:
                continue  # a worker thread runs: not idle, however it looks
            ahead = trio.lowlevel.current_statistics().seconds_to_next_deadline
            if 0 < ahead < math.inf:
                virtual_clock.jump(ahead)

    nursery.start_soon(jump)
