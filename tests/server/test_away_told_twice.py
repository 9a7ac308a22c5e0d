"""A table told a player is away twice (serve --workers: his worker, and the other that
took his worker for dead and then heard it again) holds his seat from the first: the
away limit runs on, and the others are told once (docs/scaling.md)."""

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


async def test_a_second_away_neither_restarts_the_limit_nor_is_told_again(
    tmp_path: Path,
) -> None:
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
            await told_until(ann, "ok cmd=sit")
            [table] = lobby.tables.values()
            await lobby.handle(bob, parse_line(f"sit {table.id}"))
            await told_until(bob, "kind=start")
            table.post(Away("ann"))
            await told_until(bob, "kind=away")
            since = dict(table.clocks.away_since)
            await trio.sleep(0.5)
            table.post(Away("ann"))  # the second word of it
            await trio.sleep(0.2)
            assert "kind=away" not in bob.outbox.take().decode()
            assert table.clocks.away_since == since
            nursery.cancel_scope.cancel()
    finally:
        store.close()
