"""What a table does with an ``Away`` it is told (serve --workers tells some twice, or
late; docs/scaling.md): a second away of a seat already away neither restarts its
limit nor is told again; an away of one session of a player (``Away.went``: the
stand-in of a worker taken for dead) does not mark his seat away if, by the time the
table reads it, he is back at it on another session, live ("A worker's death"); an
away of the name alone still does. A lobby in the test's process, no sockets."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import attrs
import trio

from deberc_net.protocol.commands import parse_line
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.server.table_messages import Away
from deberc_net.testing import rule_book

from .conftest import make_config, told_until


@attrs.frozen
class Playing:
    lobby: Lobby
    table: Table
    ann: Session
    bob: Session
    ann_token: str


@asynccontextmanager
async def ann_and_bob_playing(tmp_path: Path) -> AsyncIterator[Playing]:
    """ann opened a two-seat table, bob sat: their match has started."""
    config = make_config(tmp_path / "away.sqlite3")
    store = open_store(config.db, serving=True)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rule_book())
            lobby.table_numbers.fill()
            ann, bob = (Session(n, Outbox(1 << 16), trio.CancelScope()) for n in (1, 2))
            for session, line in (
                (ann, "style machine"),
                (ann, "login ann"),
                (bob, "style machine"),
                (bob, "login bob"),
                (ann, "new 2"),
            ):
                await lobby.handle(session, parse_line(line))
            told = await told_until(ann, "ok cmd=sit")
            token = told.split("token=")[1].split()[0]
            [table] = lobby.tables.values()
            await lobby.handle(bob, parse_line(f"sit {table.id}"))
            await told_until(bob, "kind=start")
            yield Playing(lobby, table, ann, bob, token)
            nursery.cancel_scope.cancel()
    finally:
        store.close()


async def test_a_second_away_neither_restarts_the_limit_nor_is_told_again(
    tmp_path: Path, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    # (his worker, and the other that took his worker for dead and then heard it again)
    async with ann_and_bob_playing(tmp_path) as playing:
        table, bob = playing.table, playing.bob
        table.post(Away("ann"))
        await told_until(bob, "kind=away")
        since = dict(table.clocks.away_since)
        await trio.sleep(0.5)  # (virtual)
        table.post(Away("ann"))  # the second word of it
        # read by the table once it tells ann of bob's away posted after it (its
        # messages are read in order), not after a wait a loaded machine may outlast
        table.post(Away("bob"))
        await told_until(playing.ann, "kind=away name=bob")
        assert "kind=away name=ann" not in bob.outbox.take().decode()
        assert {s: t for s, t in table.clocks.away_since.items() if s in since} == since


async def test_an_away_of_a_session_replaced_at_the_seat_marks_no_away(
    tmp_path: Path,
) -> None:
    async with ann_and_bob_playing(tmp_path) as playing:
        table, ann, bob = playing.table, playing.ann, playing.bob
        again = Session(3, Outbox(1 << 16), trio.CancelScope())
        await playing.lobby.handle(again, parse_line("style machine"))
        await playing.lobby.handle(again, parse_line(f"login ann token={playing.ann_token}"))
        await told_until(bob, "kind=back name=ann")  # back, on another connection
        table.post(Away("ann", went=ann))  # the first connection's loss, told late
        table.post(Away("bob", went=bob))  # (bob's own: the table has read the above)
        assert "kind=away name=ann" not in await told_until(again, "kind=away name=bob")
        assert list(table.clocks.away_since) == [1]  # bob's seat alone
        table.post(Away("ann"))  # the name's: whoever holds it
        await told_until(again, "kind=away name=ann")
