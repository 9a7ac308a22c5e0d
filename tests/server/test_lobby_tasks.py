"""The lobby owns no nursery: it hands the tasks it needs to the spawner it is given, so
a test drives it with commands and decides itself which tasks run."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import pytest
import trio

from deberc_net.protocol.commands import parse_line
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.testing import rule_book

from .conftest import make_config, told_until


@attrs.define
class KeptTasks:
    """A spawner that starts nothing: it keeps what it was asked to start."""

    kept: list[Callable[..., Awaitable[object]]] = attrs.Factory(list)

    def start_soon(
        self, async_fn: Callable[..., Awaitable[object]], *args: object, name: object = None
    ) -> None:
        self.kept.append(async_fn)


async def _say(lobby: Lobby, session: Session, line: str) -> str:
    """What the lobby answers ``session``'s ``line`` with (machine style)."""
    command = parse_line(line)
    await lobby.handle(session, command)
    return session.outbox.take().decode()


async def _seekers(lobby: Lobby, count: int) -> list[Session]:
    """``count`` sessions p0, p1 ... logged in (machine style), each sent 'seek 2'."""
    sessions = [Session(i, Outbox(1 << 16), trio.CancelScope()) for i in range(count)]
    for i, session in enumerate(sessions):
        await _say(lobby, session, "style machine")
        assert f"name=p{i}" in await _say(lobby, session, f"login p{i}")
        assert "ok cmd=seek" in await _say(lobby, session, "seek 2")
    return sessions


async def _run_until_started(tables: list[Table], sessions: list[Session]) -> list[str]:
    """Run ``tables`` until each of ``sessions`` is told its match starts; what each
    was told."""
    told = [""] * len(sessions)
    async with trio.open_nursery() as nursery:
        for table in tables:
            nursery.start_soon(table.run)
        with trio.fail_after(30):
            while not all("kind=start" in t for t in told):
                await trio.sleep(0.01)
                for i, session in enumerate(sessions):
                    told[i] += session.outbox.take().decode()
        nursery.cancel_scope.cancel()
    return told


async def test_a_new_table_task_goes_to_the_spawner_and_runs_only_when_started(
    db_path: Path,
) -> None:
    store = open_store(str(db_path), serving=True)
    try:
        tasks = KeptTasks()
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        session = Session(1, Outbox(1 << 16), trio.CancelScope())
        await _say(lobby, session, "style machine")
        assert "name=ann" in await _say(lobby, session, "login ann")
        assert await _say(lobby, session, "new") == ""  # the table answers, once it runs
        table = lobby.tables[1]
        assert session.table is table
        assert tasks.kept == [table.run]
        async with trio.open_nursery() as nursery:  # the test is the server here
            nursery.start_soon(table.run)
            told = ""
            with trio.fail_after(30):  # the table reads the store in a thread as it starts
                while "kind=seated" not in told:
                    await trio.sleep(0.01)
                    told += session.outbox.take().decode()
            nursery.cancel_scope.cancel()
        assert "ok cmd=sit table=1 seat=0" in told
        assert "kind=seated name=ann seat=0" in told
    finally:
        store.close()


async def test_a_burst_of_seekers_is_paired_at_once_not_piled_onto_one_table(
    db_path: Path,
) -> None:
    """Seeks that come before the tables run: each new table's seats are promised to
    the pair it was opened for, so the next seekers open tables of their own (they once
    all went to the first table, whose seats only looked free, and were refused there
    one by one: a storm of refusals as a busy server started)."""
    store = open_store(str(db_path), serving=True)
    try:
        tasks = KeptTasks()
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        sessions = await _seekers(lobby, 6)
        assert sorted(lobby.tables) == [1, 2, 3]
        assert [len(table.inbox) for table in lobby.tables.values()] == [2, 2, 2]
        # the tables run: each seats its pair
        told = await _run_until_started(list(lobby.tables.values()), sessions)
        assert all(t.count("ok cmd=sit") == 1 and "error" not in t for t in told)
        assert [session.table.id for session in sessions if session.table] == [1, 1, 2, 2, 3, 3]
    finally:
        store.close()


@pytest.mark.parametrize("gone", [0, 1])
async def test_a_promised_seat_given_up_goes_to_a_seeker_waiting_for_its_game(
    db_path: Path, gone: int
) -> None:
    """A seeker waits while the only table of its game has its seats promised; when one
    promised seeker is gone before the table seats him, the freed seat goes to the one
    waiting (before, he waited on beside a table with a seat free for his game; and the
    first one gone closed the table, nobody having sat yet: the other seeker was refused
    there, his seek lost)."""
    store = open_store(str(db_path), serving=True)
    try:
        tasks = KeptTasks()
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        sessions = await _seekers(lobby, 3)
        assert sorted(lobby.tables) == [1]  # p0 and p1 promised its seats, p2 waits
        assert lobby.matchmaking.seekers == [sessions[2]]
        sessions[gone].connection.close()  # gone before the table runs
        lobby.disconnected(sessions[gone])
        table = lobby.tables[1]
        staying = [s for s in sessions if s is not sessions[gone]]
        told = await _run_until_started([table], staying)
        assert all("error" not in t for t in told)
        assert [s.table for s in staying] == [table, table] and sessions[gone].table is None
        assert lobby.matchmaking.seekers == []
    finally:
        store.close()


@pytest.mark.parametrize("freed", ["leave", "bot-never-came"])
async def test_a_seat_left_at_a_waiting_table_goes_to_a_seeker_waiting_for_its_game(
    db_path: Path, freed: str
) -> None:
    """A seeker waits while the only table of its game has no seat anyone may take (p0
    and p1 sit, the third seat is held for a house bot on its way); when p1 leaves, his
    seat goes to the one waiting at once (before, he waited on beside a table with a
    seat free for his game); so does the bot's seat when the bot gives up before it
    ever sat (before, that seat stayed free while the seeker waited on)."""
    store = open_store(str(db_path), serving=True)
    try:
        lobby = Lobby(make_config(db_path, house_bots=True), store, KeptTasks(), rule_book())
        sessions = [Session(i, Outbox(1 << 16), trio.CancelScope()) for i in range(3)]
        for i, session in enumerate(sessions):
            await _say(lobby, session, "style machine")
            assert f"name=p{i}" in await _say(lobby, session, f"login p{i}")
        p0, p1, p2 = sessions
        await _say(lobby, p0, "new 3")
        table = lobby.tables[1]
        told = ""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.run)

            await told_until(p0, "ok cmd=sit table=1 seat=0")
            await _say(lobby, p1, "sit 1")
            await told_until(p1, "ok cmd=sit table=1 seat=1")
            await _say(lobby, p0, "bot random")
            with trio.fail_after(30):  # the bot is on its way: seat 2 is kept for it
                while lobby.house.pending(table) != 1:
                    await trio.sleep(0.01)
            assert "ok cmd=seek" in await _say(lobby, p2, "seek 3")
            assert lobby.matchmaking.seekers == [p2] and p2.table is None
            if freed == "leave":
                await _say(lobby, p1, "leave")
            else:  # its process kept failing before it logged in: the house gives up
                (bot,) = lobby.house.at(table)
                lobby.house.give_up(bot)
            told = await told_until(p2, "ok cmd=sit")
            nursery.cancel_scope.cancel()
        seat, left = (1, None) if freed == "leave" else (2, table)
        assert f"ok cmd=sit table=1 seat={seat}" in told
        assert p2.table is table and p1.table is left
        assert lobby.matchmaking.seekers == []
    finally:
        store.close()


async def test_a_seeker_placed_again_during_a_clean_stop_waits_no_more_told_once(
    db_path: Path,
) -> None:
    """p1's seek was promised table 1's last seat, which p2 took first (sitting by
    number): the table places p1 again. The server is stopping meanwhile: no table is
    opened for him and p3, who waited for the same game (before, table 2 opened during
    the stop), and the stop's line is all either is told (p1 got a `shutting-down`
    after it, for a seek answered long before: docs/protocol.md §11.4)."""
    store = open_store(str(db_path), serving=True)
    try:
        lobby = Lobby(make_config(db_path), store, KeptTasks(), rule_book())
        p0, p1, p2, p3 = [Session(i, Outbox(1 << 16), trio.CancelScope()) for i in range(4)]
        for i, session in enumerate((p0, p1, p2, p3)):
            await _say(lobby, session, "style machine")
            assert f"name=p{i}" in await _say(lobby, session, f"login p{i}")
        await _say(lobby, p0, "new 2")
        await _say(lobby, p2, "sit 1")  # not promised: the seek below is promised it too
        assert "ok cmd=seek" in await _say(lobby, p1, "seek 2")
        assert "ok cmd=seek" in await _say(lobby, p3, "seek 2")
        assert lobby.matchmaking.seekers == [p3]
        lobby.shutdown("SIGTERM received")
        table = lobby.tables[1]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.run)
            with trio.fail_after(30):
                while p1 in table.coming or 1 in lobby.tables:  # his Sit, then the Stop
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        stop = ["info server=stopping text=The server is shutting down: SIGTERM received."]
        assert p1.outbox.take().decode().splitlines() == stop
        assert p3.outbox.take().decode().splitlines() == stop
        assert 2 not in lobby.tables and not lobby.matchmaking.seekers
        assert "error code=not-allowed" in await _say(lobby, p3, "unseek")  # none waits
    finally:
        store.close()
