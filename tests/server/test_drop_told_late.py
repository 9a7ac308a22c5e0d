"""A drop the table reads after the deal it happened in has ended counts in that deal
(docs/protocol.md §5.5): ``Away.at``, the moment the connection dropped, decides, not
the moment the table reads it. They differ when the table is busy as the drop comes
(a clock due goes before a queued message, _messages), which no test over sockets
can arrange on purpose; so here a lobby in the test's process, two sessions matched
by 'seek', deal 1 played to its end, and the away of one told then, dated before that
end. Told with no date (read now), it falls in deal 2: the rule's other side."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from deberc_net.game.calls import PAS, PLAY, SEVENS
from deberc_net.protocol.commands import parse_line
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.server.table_messages import Away, TableCall
from deberc_net.testing import rule_book

from .conftest import make_config, told_until

KEPT = "grief left before the first deal ended"


async def _first_deal_played(table: Table, sessions: dict[int, Session]) -> float:
    """Each seat makes its first card call (or else its first call but a pass or four
    sevens: the deal is played) until deal 1 has ended; the moment before its last
    call was posted."""
    before = trio.current_time()
    while True:
        match = table.match
        assert match is not None and not match.over
        if match.deal.deal_no > 1:
            return before
        seat = match.to_act
        assert seat is not None
        legal = match.legal_calls(seat)
        cards = [c for c in legal if c.name == PLAY]
        call = (cards or [c for c in legal if c.name not in (PAS, SEVENS)])[0]
        before = trio.current_time()
        await trio.sleep(0.01)  # (the table's clock moves on: a later end)
        table.post(TableCall(sessions[seat], call.token(), None))
        await trio.testing.wait_all_tasks_blocked()


async def _told_after_a_drop(tmp_path: Path, dated: bool) -> str:
    """victim and grief, matched by 'seek', play deal 1 out; grief's drop, dated
    before its last call (``dated``) or not, is told once it has ended. What the victim
    is told from then to the end of the match (the away limit 0.3 s later)."""
    config = make_config(tmp_path / "late.sqlite3", away_limit_ms=300)
    store = open_store(config.db, serving=True)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(config, store, nursery, rule_book())
            lobby.table_numbers.fill()
            victim, grief = (Session(n, Outbox(1 << 16), trio.CancelScope()) for n in (1, 2))
            for session, line in (
                (victim, "style machine"),
                (victim, "login victim"),
                (grief, "style machine"),
                (grief, "login grief"),
                (victim, "seek 2"),
                (grief, "seek 2"),
            ):
                await lobby.handle(session, parse_line(line))
            await told_until(victim, "kind=start")
            [table] = lobby.tables.values()
            sessions = {table.seats.index(s.name): s for s in (victim, grief)}
            dropped = await _first_deal_played(table, sessions)
            victim.outbox.take()
            table.post(Away("grief", at=dropped if dated else None))
            told = await told_until(victim, "kind=match-end")
            await lobby.handle(victim, parse_line("ping"))  # (what the end tells comes first)
            told += await told_until(victim, "ok cmd=ping")
            nursery.cancel_scope.cancel()
            return told
    finally:
        store.close()


async def test_a_drop_read_after_the_first_deal_ended_but_dated_in_it_is_in_it(
    tmp_path: Path,
) -> None:
    told = await _told_after_a_drop(tmp_path, dated=True)
    assert "reason=away" in told and KEPT in told, told


async def test_a_drop_read_and_dated_after_the_first_deal_is_not_in_it(
    tmp_path: Path,
) -> None:
    told = await _told_after_a_drop(tmp_path, dated=False)
    assert "reason=away" in told and KEPT not in told, told
