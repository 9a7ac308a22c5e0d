"""Seekers kept apart (docs/protocol.md §5.5, server/kept_apart.py) are looked at again
when what keeps them apart ends: once at each end, by one task at a time, however the
ends come (a kept seek goes first in line, so the newest leaver's, latest end stands
before the older ones), and only those it may concern are placed again. Before, each
look spawned another waiting task for every later end it met in the queue: eight
seekers kept apart, waiting for their games, cost 36 looks at every seeker, and the
tasks and looks grew with the square of them. Driven in-process: the lobby's spawner
counts the tasks it is given (tables are not run: a pair that meets is promised a
table's seats), and every placing of a seeker is noted with its time."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio
import trio.testing

from deberc_net.protocol.commands import parse_line
from deberc_net.server import matchmaking
from deberc_net.server.kept_apart import Left
from deberc_net.server.lobby import Lobby
from deberc_net.server.matchmaking import GameSettings, Matchmaking
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.testing import rule_book

from .conftest import make_config

VICTIMS = 8  # seekers kept apart, each waiting for a game of his own
OTHERS = 12  # seekers nobody left, each waiting for a game of his own
APART_S = 600.0
OPTIONS = ("commitment", "table-penalties", "to-301", "to-1001", "perezdacha", "posled-20")
GAMES = [f"seek 2 {v} {o}" for v, o in itertools.product(("kharkov", "moscow"), OPTIONS)]
GAMES += [f"seek 2 kharkov {o} bide-penalty" for o in OPTIONS]
GAMES += [f"seek 2 kharkov {o} ski-penalty" for o in OPTIONS]
PAIR_GAME = "seek 2 moscow"


@attrs.define
class CountedTasks:
    """A spawner that runs in ``nursery`` the tasks that are no table's, counting them
    (those alive at once too); a table's task is not run."""

    nursery: trio.Nursery
    started: int = 0
    alive: int = 0
    most_alive: int = 0

    def start_soon(
        self, async_fn: Callable[..., Awaitable[object]], *args: object, name: object = None
    ) -> None:
        if isinstance(getattr(async_fn, "__self__", None), Table):
            return

        async def counted() -> None:
            self.alive += 1
            self.most_alive = max(self.most_alive, self.alive)
            try:
                await async_fn(*args)
            finally:
                self.alive -= 1

        self.started += 1
        self.nursery.start_soon(counted)


@attrs.define
class KeptTasks:
    """A spawner that starts nothing (the tables' tasks are not run)."""

    kept: list[object] = attrs.Factory(list)

    def start_soon(
        self, async_fn: Callable[..., Awaitable[object]], *args: object, name: object = None
    ) -> None:
        self.kept.append(async_fn)


async def _logged_in(lobby: Lobby, number: int, name: str) -> Session:
    session = Session(number, Outbox(1 << 16), trio.CancelScope(), address=f"10.0.0.{number}")
    for line in ("style machine", f"login {name}"):
        await lobby.handle(session, parse_line(line))
    session.outbox.take()
    return session


async def _seeks(lobby: Lobby, session: Session, line: str) -> None:
    await lobby.handle(session, parse_line(line))
    assert "ok cmd=seek" in session.outbox.take().decode(), line


@pytest.mark.timeout(60)
async def test_seekers_kept_apart_are_looked_at_once_at_each_end(
    db_path: Path,
    nursery: trio.Nursery,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    placed: list[tuple[float, str]] = []  # (when, whom) each placing of a seeker
    place = Matchmaking.place

    def noted(self: Matchmaking, session: Session, settings: GameSettings, **how: Any) -> Any:
        placed.append((trio.current_time(), session.name or "?"))
        return place(self, session, settings, **how)

    monkeypatch.setattr(Matchmaking, "place", noted)
    store = open_store(str(db_path), serving=True)
    try:
        tasks = CountedTasks(nursery)
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        start = trio.current_time()
        ends = []
        # each left a while after the one before: his end is later, and his kept seek
        # stood before theirs in the queue
        for i in range(VICTIMS):
            victim = await _logged_in(lobby, i + 1, f"victim{i}")
            end = start + APART_S - 10 * i
            victim.left_by = (Left(f"grief{i}", "10.9.9.9", end),)
            ends.append(end)
            await _seeks(lobby, victim, GAMES[i])
        for i in range(OTHERS):
            other = await _logged_in(lobby, 100 + i, f"other{i}")
            await _seeks(lobby, other, GAMES[VICTIMS + i])
        # and two who may not meet for a shorter while, come after: an earlier end
        ann = await _logged_in(lobby, 200, "ann")
        bob = await _logged_in(lobby, 201, "bob")
        meet = start + APART_S / 2
        ann.left_by = (Left("bob", "10.0.0.201", meet),)
        await _seeks(lobby, ann, PAIR_GAME)
        await _seeks(lobby, bob, PAIR_GAME)
        assert not lobby.tables and len(lobby.matchmaking.seekers) == VICTIMS + OTHERS + 2
        assert trio.current_time() == start
        placed.clear()

        with trio.fail_after(2 * APART_S):  # (virtual time)
            await trio.sleep(APART_S + 60)

        # ann and bob met at their end, not later: a table's seats promised to them
        [table] = lobby.tables.values()
        assert [s.name for s in table.coming] == ["ann", "bob"]
        # one look at each end: each seeker it may concern placed once, no one else
        looks: dict[float, list[str]] = {}
        for at, name in placed:
            looks.setdefault(at, []).append(name)
        victims = [f"victim{i}" for i in range(VICTIMS)]
        assert sorted(looks) == [meet, *sorted(ends)], sorted(looks)
        assert looks[meet] == [*victims, "ann", "bob"] or looks[meet] == [*victims, "ann"]
        for end in ends:
            assert looks[end] == victims, (end, looks[end])
        assert tasks.most_alive == 1 and tasks.started <= 2, (tasks.started, tasks.most_alive)
    finally:
        store.close()


async def test_a_seek_looks_at_the_waiting_tables_up_to_the_one_it_takes(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seek takes the oldest waiting table of its game that keeps nobody apart from
    him, and looks no further: 'seek' (and the placing after it) read every waiting
    table's game, all of them, at each seek, once tables were checked for those kept
    apart (500 waiting tables: 3.3 ms a seek, against 0.4 ms before and after)."""
    looked: list[int] = []  # each waiting table whose game a seek read
    settings_of = matchmaking.table_settings

    def noted(table: Table) -> GameSettings:
        looked.append(table.id)
        return settings_of(table)

    store = open_store(str(db_path), serving=True)
    try:
        lobby = Lobby(make_config(db_path), store, KeptTasks(), rule_book())
        openers = [await _logged_in(lobby, 10 + i, f"opener{i}") for i in range(20)]
        for opener in openers:
            await lobby.handle(opener, parse_line("new 2"))
        victim = await _logged_in(lobby, 1, "victim")
        now = trio.current_time()  # the first two tables' openers left him before
        victim.left_by = (Left("opener0", None, now + APART_S), Left("opener1", None, now + 60))
        monkeypatch.setattr(matchmaking, "table_settings", noted)
        await _seeks(lobby, victim, "seek 2")
        first = min(lobby.tables)
        taken = [t.id for t in lobby.tables.values() if victim in t.coming]
        assert taken == [first + 2]  # the third: the oldest he may take
        assert len(looked) <= 6 and set(looked) <= {first, first + 1, first + 2}, looked
    finally:
        store.close()


@pytest.mark.timeout(60)
async def test_a_look_in_a_stops_grace_tells_the_seekers_nothing_more(
    db_path: Path,
    nursery: trio.Nursery,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """ann and bob wait for one game, kept apart for a while. SIGTERM's stop begins (its
    grace a minute here), and their look comes due in it: each had been sent an unasked
    `shutting-down` refusal after the stop's line. The stop's line is all they are told,
    and no seek waits through the stop (docs/protocol.md §11.4)."""
    store = open_store(str(db_path), serving=True)
    try:
        tasks = CountedTasks(nursery)
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        ann = await _logged_in(lobby, 1, "ann")
        bob = await _logged_in(lobby, 2, "bob")
        meet = trio.current_time() + 30
        ann.left_by = (Left("bob", "10.0.0.2", meet),)
        await _seeks(lobby, ann, PAIR_GAME)
        await _seeks(lobby, bob, PAIR_GAME)
        assert lobby.matchmaking.looking is not None  # the look, due at their end
        lobby.shutdown("SIGTERM received")
        with trio.fail_after(120):  # (virtual time)
            await trio.sleep(60)
        stop = ["info server=stopping text=The server is shutting down: SIGTERM received."]
        assert ann.outbox.take().decode().splitlines() == stop
        assert bob.outbox.take().decode().splitlines() == stop
        assert not lobby.tables and not lobby.matchmaking.seekers
    finally:
        store.close()
