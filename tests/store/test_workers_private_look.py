"""Another's private table under ``serve --workers`` is, to a stranger, a number no table
has in time as well as in bytes (docs/protocol.md §5.3; server/cluster/looks.py): its
'sit', 'observe' and 'rules' (and the web's /api/tables/T) went at once, a number drawn
and not known here after LOOK_S looking for its copy, so the answer's time told that a
hidden table was there (0.2 ms against 501 ms on a real ``serve --workers 2``, a hostile
pass, s45). Now both take the same look: the same read of the store, the same wait, on
a virtual clock; the hidden table's own copies (a changed table is told every
SNAPSHOT_S) neither end nor shorten it."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any, cast

import pytest
import trio
import trio.testing

from deberc_net.protocol.commands import Command
from deberc_net.server.cluster.looks import (
    LOOK_S,
    SNAPSHOT_S,
    Looks,
    handled_after_look,
    table_looked_up,
    unknown_named,
)
from tests.server.client import LineClient, close_all

from .workers import SharedWorkers, until_listed

if TYPE_CHECKING:
    from deberc_net.server.lobby import Lobby
    from deberc_net.server.session import Session

DRAWN = 40  # the store's highest table number
HIDDEN = 30  # ann's private table, another worker's, its copy known here
PUBLIC = 31  # a public table known here
NONE = 32  # drawn, no table (closed, or one whose copy never came)


class _Store:
    def __init__(self) -> None:
        self.reads = 0

    def highest_table_number(self) -> int:
        self.reads += 1
        return DRAWN


def _table(number: int, private: bool) -> Any:
    return types.SimpleNamespace(id=number, private=private, board=None)


def _lobby(store: _Store) -> tuple[Lobby, Looks]:
    """A worker's lobby as the looks see it: ann's private table and a public one known,
    another worker heard, its own numbers drawn up to 8; eve may not see the private."""
    looks = Looks()
    tables = {HIDDEN: _table(HIDDEN, True), PUBLIC: _table(PUBLIC, False)}
    lobby = types.SimpleNamespace(
        tables=tables,
        node=types.SimpleNamespace(heard={2: object()}, looks=looks),
        table_numbers=types.SimpleNamespace(highest=8),
        store=store,
        hidden_from=lambda table, session: table.private,
    )
    return cast("Lobby", lobby), looks


def _eve() -> Session:
    """eve, a stranger to ann's table, seated nowhere; her lines' answers and their
    times (the lobby's handler, once the look is over: ``handled_after_look``)."""
    eve = types.SimpleNamespace(
        table=None,
        observing=set(),
        connection=types.SimpleNamespace(closed=False),
        answered=[],
        request_handled=lambda: None,
    )
    return cast("Session", eve)


def _handlers(lobby: Lobby) -> None:
    async def handled(session: Any, item: Command) -> None:
        session.answered.append((item.name, trio.current_time()))

    lobby.handlers = dict.fromkeys(("sit", "observe", "rules"), handled)


@pytest.mark.parametrize("command", ["sit", "observe", "rules"])
async def test_the_hidden_tables_look_takes_the_missing_numbers_path(
    autojump_clock: trio.testing.MockClock, command: str
) -> None:
    path = []
    for number in (NONE, HIDDEN):  # each on a worker as it was (none read yet)
        store = _Store()
        lobby, looks = _lobby(store)
        _handlers(lobby)
        eve: Any = _eve()
        reads, started = store.reads, trio.current_time()
        item = Command(command, (str(number),))
        looked = unknown_named(lobby, eve, item)
        if looked is None:  # (answered at once: Lobby.handle)
            await lobby.handlers[command](eve, item)
        else:
            await handled_after_look(lobby, eve, item, looked)
        ((_, answered),) = eve.answered[-1:]
        path.append((looked, answered - started, store.reads - reads))
    # each: looked for, answered after one read of the store and LOOK_S (before: the
    # hidden one at once, unread: (None, 0.0, 0))
    assert path == [(NONE, pytest.approx(LOOK_S), 1), (HIDDEN, pytest.approx(LOOK_S), 1)]
    assert looks.waits == {}
    assert unknown_named(lobby, eve, Command(command, (str(PUBLIC),))) is None  # at once


async def test_the_private_tables_copies_do_not_end_its_look(
    autojump_clock: trio.testing.MockClock,
) -> None:
    store = _Store()
    lobby, looks = _lobby(store)
    # (its number below this worker's own draws: no read in a thread, during which the
    # virtual clock would run on to the sleeps below)
    lobby.table_numbers.highest = DRAWN  # type: ignore[misc]
    hidden = lobby.tables.pop(HIDDEN)
    took: dict[str, float] = {}

    async def look(label: str) -> None:
        started = trio.current_time()
        found = await table_looked_up(lobby, HIDDEN)
        took[label] = trio.current_time() - started
        assert found is None  # (the web: 404)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(look, "not come yet")
        await trio.sleep(SNAPSHOT_S / 2)
        lobby.tables[HIDDEN] = hidden  # its copy comes meanwhile (node.py _table_copy)
        looks.came(HIDDEN)
        nursery.start_soon(look, "known")
        for _ in range(3):  # changed, told again every SNAPSHOT_S
            await trio.sleep(SNAPSHOT_S / 2)
            looks.came(HIDDEN)
    # before: the first answered as its copy came (LOOK_S / 4), the second at once
    assert took == {"not come yet": pytest.approx(LOOK_S), "known": pytest.approx(LOOK_S)}
    assert looks.waits == {} and store.reads == 0


async def test_the_webs_look_at_a_private_table_is_a_missing_numbers(
    autojump_clock: trio.testing.MockClock,
) -> None:
    took: list[tuple[Any, float, int]] = []
    for number in (NONE, HIDDEN):  # each on a worker as it was (none read yet)
        store = _Store()
        lobby, _ = _lobby(store)
        reads = store.reads
        started = trio.current_time()
        found = await table_looked_up(lobby, number)
        took.append((found, trio.current_time() - started, store.reads - reads))
    # before: the private table at once, unread, then 404 as no table's
    missing: Any = (None, pytest.approx(LOOK_S), 1)
    assert took == [missing, missing], took


async def test_the_webs_look_at_a_ladders_board_is_a_missing_numbers(
    autojump_clock: trio.testing.MockClock,
) -> None:
    # a ladder's board, public but never shown on the web (docs/web.md), as a private
    # table: before, found at once and then 404, where a number of none waited LOOK_S
    took: list[tuple[Any, float, int]] = []
    for number in (NONE, PUBLIC):
        store = _Store()
        lobby, _ = _lobby(store)
        lobby.tables[PUBLIC].board = "b1"
        started = trio.current_time()
        found = await table_looked_up(lobby, number)
        took.append((found, trio.current_time() - started, store.reads))
    missing: Any = (None, pytest.approx(LOOK_S), 1)
    assert took == [missing, missing], took


async def _refused_after_the_look(
    workers: SharedWorkers, worker: int, name: str, line: str, opened: list[LineClient]
) -> str:
    """``name``, a stranger at ``worker``, sends ``line`` naming a table: its refusal,
    which comes after the look, not at once (before: at once for the hidden table)."""
    asker = await workers.connect(worker, name)
    opened.append(asker)
    await asker.send(line)
    assert await asker.drain(0.1) == [], line
    await asker.expect("error", code="unknown-table")
    return asker.lines[asker.pos - 1]


@pytest.mark.timeout(100)
async def test_on_a_cluster_a_stranger_is_answered_after_the_look_byte_for_byte(
    shared_workers: SharedWorkers,
) -> None:
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(60):
        try:
            lea = await workers.connect(0, "leah")
            opened.append(lea)
            await lea.send("new 2 private")
            table = int((await lea.expect("ok", cmd="sit"))["table"])
            drawn = table + 1  # (drawn by lea's worker, in its block: no table has it)
            asked = [
                (worker, command, number)
                for worker in (0, 1)  # the table's worker, the other
                for command in ("sit", "observe", "rules")
                for number in (table, drawn)
            ]
            for worker, name in ((0, "eve"), (1, "evan")):
                eve = await workers.connect(worker, name)
                opened.append(eve)
                await until_listed(eve, "who", "leah")
            # each line of a stranger of its own, all at once: a look is LOOK_S of real
            # time, and one stranger's twelve one after another were most of the test
            said: dict[tuple[int, str, int], str] = {}

            async def ask(n: int, worker: int, command: str, number: int) -> None:
                line = f"{command} {number}"
                refused = await _refused_after_the_look(workers, worker, f"eve{n}", line, opened)
                said[worker, command, number] = refused.replace(str(number), "T")

            async with trio.open_nursery() as nursery:
                for n, (worker, command, number) in enumerate(asked):
                    nursery.start_soon(ask, n, worker, command, number)
            for worker, command, _ in asked:
                assert said[worker, command, table] == said[worker, command, drawn], said
        finally:
            await close_all(opened)
