"""A person whose match another left before its first deal ended keeps his seek, first
in line (docs/protocol.md §5.5), and may be matched again at once, before he has read
the match's end. His 'seek' of that game then (typed at once, or a client's that
seeks after every match) keeps the seat on its way to him at a new table of it, as a
'seek' of the game he waits for keeps his place. Before, he was put in the queue again
with his seat on its way: seated there and waiting too, the next seeker was paired
with him and his seat there refused. Driven in-process: the new table's task runs
only when the test says, so the seek comes before the seat, as on a busy server."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import attrs
import pytest
import trio
import trio.testing

from deberc_net.protocol.commands import parse_line
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

from .conftest import make_config, told_until


@attrs.define
class FirstTableRuns:
    """A spawner that runs the first table's task (and any other task) in ``nursery``
    and keeps the later tables' tasks for the test to start."""

    nursery: trio.Nursery
    tables: int = 0
    kept: list[Callable[[], Awaitable[object]]] = attrs.Factory(list)

    def start_soon(
        self, async_fn: Callable[..., Awaitable[object]], *args: object, name: object = None
    ) -> None:
        if getattr(async_fn, "__name__", "") == "run" and not args:
            self.tables += 1
            if self.tables > 1:
                self.kept.append(async_fn)
                return
        self.nursery.start_soon(async_fn, *args)


async def _say(lobby: Lobby, session: Session, line: str) -> str:
    await lobby.handle(session, parse_line(line))
    return session.outbox.take().decode()


async def _a_seat_on_its_way(lobby: Lobby, tasks: FirstTableRuns, count: int) -> list[Session]:
    """``count`` players logged in, the first (victim) a person, the others programs:
    grief leaves the victim's match at once, and the victim's kept seek pairs him with
    honest (who waits) at a new table whose task has not run: his seat is on its way.
    The players: victim, grief, honest, then third, fourth, … ."""
    names = ["victim", "grief", "honest", "third", "fourth"][:count]
    players = [
        Session(i, Outbox(1 << 16), trio.CancelScope(), address=f"10.0.0.{i + 1}")
        for i in range(count)
    ]
    for session, name in zip(players, names, strict=True):
        if session is not players[0]:  # (a person, the human style; the others programs)
            await _say(lobby, session, "style machine")
        assert name in await _say(lobby, session, f"login {name}")
    victim, grief, honest = players[:3]
    assert "Waiting for a moscow game for 2 players." in await _say(lobby, victim, "seek 2")
    await _say(lobby, grief, "seek 2")
    await told_until(grief, "kind=start")
    assert "ok cmd=seek" in await _say(lobby, honest, "seek 2")  # he waits
    await _say(lobby, grief, "leave!")
    # the match is over: the victim's kept seek pairs him with honest at once
    await told_until(victim, "grief left before the first deal ended: you still wait")
    assert len(tasks.kept) == 1  # the new table's task, not run yet
    return players


async def test_a_seek_on_the_way_to_a_seat_of_that_game_keeps_the_seat(
    db_path: Path, nursery: trio.Nursery
) -> None:
    store = open_store(str(db_path), serving=True)
    try:
        tasks = FirstTableRuns(nursery)
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        victim, _, honest, third = await _a_seat_on_its_way(lobby, tasks, 4)
        [kept] = tasks.kept  # the new table's task, not run yet: his seat is on its way
        assert lobby.matchmaking.seekers == []
        # he seeks again: his seat stays his, he is not queued again
        answer = await _say(lobby, victim, "seek 2")
        assert answer.strip() == "Waiting for a moscow game for 2 players.", answer
        assert lobby.matchmaking.seekers == []
        nursery.start_soon(kept)
        await told_until(victim, "You sit at table 2, seat 0.")
        await told_until(honest, "ok cmd=sit table=2 seat=1")
        # the next seeker waits for someone else: the victim is nobody's to pair now
        assert "ok cmd=seek" in await _say(lobby, third, "seek 2")
        assert lobby.matchmaking.seekers == [third]
        assert len(tasks.kept) == 1 and "Error" not in victim.outbox.take().decode()
    finally:
        store.close()


async def test_a_seek_of_another_game_gives_up_the_seat_on_its_way(
    db_path: Path, nursery: trio.Nursery
) -> None:
    """A second 'seek' replaces the first (docs/protocol.md §5.5), a seat on its way
    included: his kept seek met someone at once, and before its seat came he sought
    another game. Before, he was queued for that game and seated at the first table
    too; now that seat is given up (the other there waits for another player) and he
    waits only for the game he sought last."""
    store = open_store(str(db_path), serving=True)
    try:
        tasks = FirstTableRuns(nursery)
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        victim, _, honest, third, fourth = await _a_seat_on_its_way(lobby, tasks, 5)
        [kept] = tasks.kept  # table 2: his seat there is on its way
        answer = await _say(lobby, victim, "seek 2 to-301")
        assert answer.strip() == "Waiting for a moscow game for 2 players (to-301).", answer
        assert lobby.matchmaking.seekers == [victim]
        nursery.start_soon(kept)  # the seat on its way comes to nothing: honest waits
        await told_until(honest, "ok cmd=sit table=2")
        await trio.testing.wait_all_tasks_blocked()  # (a sleep passed however slow)
        assert "table 2" not in victim.outbox.take().decode()
        # the game he sought last pairs him (table 3), and honest's table takes the next
        assert "ok cmd=seek" in await _say(lobby, third, "seek 2 to-301")
        [_, later] = tasks.kept
        nursery.start_soon(later)
        assert "You sit at table 3, seat 0." in await told_until(victim, "You sit at table 3")
        await told_until(third, "ok cmd=sit table=3 seat=1")
        assert "ok cmd=seek" in await _say(lobby, fourth, "seek 2")
        await told_until(fourth, "ok cmd=sit table=2 seat=")
        assert lobby.matchmaking.seekers == []
        assert "error" not in victim.outbox.take().decode()
    finally:
        store.close()


@pytest.mark.parametrize("word", ["unseek", "leave"])
async def test_an_unseek_gives_up_the_seat_on_its_way(
    word: str, db_path: Path, nursery: trio.Nursery
) -> None:
    """'unseek' with a seat on its way (his kept seek met honest at once, its seat not
    handled yet) was refused 'you are not seeking', and he was seated all the same:
    the seat is given up now, and honest waits for another player. 'leave' while
    seeking unseeks so too (it was refused 'you sit at no table', not-seated)."""
    store = open_store(str(db_path), serving=True)
    try:
        tasks = FirstTableRuns(nursery)
        lobby = Lobby(make_config(db_path), store, tasks, rule_book())
        victim, _, honest, third = await _a_seat_on_its_way(lobby, tasks, 4)
        [kept] = tasks.kept  # table 2: his seat there is on its way
        answer = await _say(lobby, victim, word)
        assert answer.strip() == "You no longer wait for a game.", answer
        nursery.start_soon(kept)  # the seat on its way comes to nothing: honest waits
        await told_until(honest, "ok cmd=sit table=2")
        await trio.testing.wait_all_tasks_blocked()  # (a sleep passed however slow)
        assert "table 2" not in victim.outbox.take().decode()
        assert "ok cmd=seek" in await _say(lobby, third, "seek 2")
        await told_until(third, "ok cmd=sit table=2 seat=")  # the seat he gave up
    finally:
        store.close()
