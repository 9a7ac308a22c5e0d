"""Two players leave one match in the same moment (docs/protocol.md §5.5): the first
leave ends it and gives the other his seek back, first in line; the other's 'leave!',
sent before he read that, reaches the table after it. Leaving, he waits for nothing:
a hostile tryout saw him answered 'You leave table N.' and then seated with the next
seeker, who played a match against a seat its player had left. Driven in-process:
both leaves are on the table's queue before it reads the first."""

from __future__ import annotations

from pathlib import Path

import trio

from deberc_net.protocol.commands import parse_line
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

from .conftest import make_config, told_until


async def _say(lobby: Lobby, session: Session, line: str) -> str:
    await lobby.handle(session, parse_line(line))
    return session.outbox.take().decode()


async def test_a_leave_that_crossed_the_others_leave_keeps_no_seek(
    db_path: Path,
    nursery: trio.Nursery,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    store = open_store(str(db_path), serving=True)
    try:
        with trio.fail_after(20):
            lobby = Lobby(make_config(db_path), store, nursery, rule_book())
            names = ("victim", "grief", "third")
            victim, grief, third = [
                Session(i, Outbox(1 << 16), trio.CancelScope(), address=f"10.0.0.{i + 1}")
                for i in range(len(names))
            ]
            for session, name in zip((victim, grief, third), names, strict=True):
                if session is not victim:  # (a person, the human style; the others programs)
                    await _say(lobby, session, "style machine")
                assert name in await _say(lobby, session, f"login {name}")
            await _say(lobby, victim, "seek 2")
            await _say(lobby, grief, "seek 2")
            await told_until(grief, "kind=start")
            # both on the table's queue, the griefer's first
            await lobby.handle(grief, parse_line("leave!"))
            await lobby.handle(victim, parse_line("leave!"))
            await told_until(victim, "You leave table 1.")
            assert victim not in lobby.matchmaking.seekers
            # the next seeker waits for someone else: the victim left
            assert "ok cmd=seek" in await _say(lobby, third, "seek 2")
            await trio.sleep(0.5)  # (virtual: all that half second brings has run)
            assert lobby.matchmaking.seekers == [third]
            assert victim.table is None
    finally:
        store.close()
