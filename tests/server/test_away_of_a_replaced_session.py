"""An away told of one session of a player (``Away.went``: under serve --workers, the
stand-in of a worker taken for dead) does not mark his seat away if, by the time the
table reads it, he is back at it on another session, live (docs/scaling.md, "A
worker's death"); an away of the name alone still does."""

from __future__ import annotations

from pathlib import Path

import trio

from deberc_net.protocol.commands import parse_line
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.server.table_messages import Away
from deberc_net.testing import rule_book

from .conftest import make_config, told_until


async def test_an_away_of_a_session_replaced_at_the_seat_marks_no_away(
    tmp_path: Path,
) -> None:
    config = make_config(tmp_path / "away.sqlite3")
    store = open_store(config.db, serving=True)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rule_book())
            lobby.table_numbers.fill()
            ann, bob, again = (Session(n, Outbox(1 << 16), trio.CancelScope()) for n in (1, 2, 3))
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
            await lobby.handle(again, parse_line("style machine"))
            await lobby.handle(again, parse_line(f"login ann token={token}"))
            await told_until(bob, "kind=back name=ann")  # back, on another connection
            table.post(Away("ann", went=ann))  # the first connection's loss, told late
            table.post(Away("bob", went=bob))  # (bob's own: the table has read the above)
            assert "kind=away name=ann" not in await told_until(again, "kind=away name=bob")
            assert list(table.clocks.away_since) == [1]  # bob's seat alone
            table.post(Away("ann"))  # the name's: whoever holds it
            await told_until(again, "kind=away name=ann")
            nursery.cancel_scope.cancel()
    finally:
        store.close()
