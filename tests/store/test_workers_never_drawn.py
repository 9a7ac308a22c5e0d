"""A table number no server ever drew, under ``serve --workers`` (server/cluster/looks.py):
refused at once, not after LOOK_S spent looking for a copy that cannot come (a client
sending ``observe 999999`` in a loop held one of LOOKS_MOST looks half a second a line,
each line of his waiting for the one before). A number drawn (by any worker) and not a
table here yet is still looked for. The store's highest drawn number on both backends;
the looks on a virtual clock, the store's reads counted; the refusal on a real cluster."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any, cast

import pytest
import structlog.testing
import trio
import trio.testing

from deberc_net.server.cluster.looks import LOOK_S, Looks
from deberc_net.server.store import open_store
from tests.server.client import LineClient, close_all

from .workers import SharedWorkers, until_listed

if TYPE_CHECKING:
    from deberc_net.server.lobby import Lobby

DRAWN = 40  # the store's highest table number in the looks' tests


class _Store:
    """The store's highest table number, read as a worker reads it (in a thread),
    counted; ``fails``: the database away."""

    def __init__(self, fails: bool = False) -> None:
        self.highest = DRAWN
        self.fails = fails
        self.reads = 0

    def highest_table_number(self) -> int:
        self.reads += 1
        if self.fails:
            raise OSError("the database is away")
        return self.highest


def _lobby(store: _Store, own_highest: int = 8) -> Lobby:
    """A worker's lobby as the looks see it: no table known, another worker heard, its
    own numbers drawn up to ``own_highest``."""
    lobby = types.SimpleNamespace(
        tables={},
        node=types.SimpleNamespace(heard={2: object()}),
        table_numbers=types.SimpleNamespace(highest=own_highest),
        store=store,
    )
    return cast("Lobby", lobby)


async def test_numbers_never_drawn_are_refused_at_once_and_a_flood_costs_a_read_or_two(
    autojump_clock: trio.testing.MockClock,
) -> None:
    store = _Store()
    lobby, looks = _lobby(store), Looks()
    refused: list[float] = []

    async def look(number: int) -> None:
        started = trio.current_time()
        assert await looks.table_soon(lobby, number) is None
        refused.append(trio.current_time() - started)

    async with trio.open_nursery() as nursery:
        for number in range(999_900, 999_950):  # a flood, many sessions at once
            nursery.start_soon(look, number)
    # before: each waited LOOK_S (0.5 s), none below
    assert refused == [0.0] * 50, refused
    assert 1 <= store.reads <= 2, store.reads
    assert looks.waits == {}
    for _ in range(5):  # one client's loop: a read a line, none waits
        await look(999_999)
    assert refused[-5:] == [0.0] * 5 and store.reads <= 7


async def test_a_number_drawn_and_not_here_yet_is_still_looked_for(
    autojump_clock: trio.testing.MockClock,
) -> None:
    store = _Store()
    lobby, looks = _lobby(store), Looks()
    started = trio.current_time()
    assert await looks.table_soon(lobby, DRAWN) is None  # drawn elsewhere: may come
    assert trio.current_time() - started == pytest.approx(LOOK_S)
    assert store.reads == 1
    # another worker draws more; a number below its own highest is looked for unread
    store.highest = DRAWN + 32
    started = trio.current_time()
    assert await looks.table_soon(lobby, DRAWN + 20) is None
    assert trio.current_time() - started == pytest.approx(LOOK_S)
    assert store.reads == 2
    assert await looks.table_soon(lobby, 7) is None  # below its own draws: no read
    assert store.reads == 2


async def test_a_copy_come_while_the_store_was_read_is_taken_at_once(
    autojump_clock: trio.testing.MockClock,
) -> None:
    store = _Store()
    lobby, looks = _lobby(store), Looks()
    copy: Any = object()  # (a table, to the looks)
    read = store.highest_table_number

    def read_as_the_copy_comes() -> int:
        lobby.tables[DRAWN] = copy  # (as node.py's _table_copy would, meanwhile)
        return read()

    store.highest_table_number = read_as_the_copy_comes  # type: ignore[method-assign]
    started = trio.current_time()
    assert await looks.table_soon(lobby, DRAWN) is copy
    assert trio.current_time() == started  # not after LOOK_S, waiting for what came


async def test_a_store_that_does_not_answer_leaves_the_look_as_it_was(
    autojump_clock: trio.testing.MockClock,
) -> None:
    store = _Store(fails=True)
    lobby, looks = _lobby(store), Looks()
    with structlog.testing.capture_logs() as logs:
        started = trio.current_time()
        assert await looks.table_soon(lobby, 999_999) is None
    assert trio.current_time() - started == pytest.approx(LOOK_S)
    (failed,) = [e for e in logs if e["event"] == "table_numbers_failed"]
    assert failed["reading"] is True and failed["log_level"] == "error"


def test_the_highest_table_number_drawn_on_a_database(store_db: str) -> None:
    first = open_store(store_db)
    try:
        assert first.highest_table_number() == 0
        drawn = first.new_table_numbers(5)
        assert first.highest_table_number() == drawn[-1]
        second = open_store(store_db)  # another server (a worker) on the database
        try:
            more = second.new_table_numbers(32)
            assert first.highest_table_number() == more[-1] > drawn[-1]
        finally:
            second.close()
    finally:
        first.close()


@pytest.mark.timeout(100)
async def test_a_never_drawn_number_is_refused_on_a_cluster_and_a_new_one_found(
    shared_workers: SharedWorkers,
) -> None:
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(60):
        try:
            lea = await workers.connect(0, "lea")
            max_ = await workers.connect(1, "max")
            opened += [lea, max_]
            await until_listed(lea, "who", "max")
            for command in ("observe 999999", "sit 999998", "rules 999997"):
                await max_.send(command)
                refused = await max_.expect("error", code="unknown-table")
                assert "there is no table 99999" in refused["text"], refused
            # a table opened on worker 0, named on worker 1 at once: looked for, found
            await lea.send("new 2")
            table = (await lea.expect("ok", cmd="sit"))["table"]
            await max_.send(f"observe {table}")
            await max_.expect("ok", cmd="observe", table=table)
        finally:
            await close_all(opened)
