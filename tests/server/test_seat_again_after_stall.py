"""``serve --workers``: a player seated at another worker's table, told it closed when
its owner went silent, is seated again as soon as the owner tells the table again
(docs/scaling.md). One worker's node in-process, hearing what the owner's bus messages
would say; the real stall of a worker process is tests/store/test_workers_stall_seat.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import attrs
import trio

from deberc_net.game.match import Match
from deberc_net.protocol.commands import parse_line
from deberc_net.protocol.events import TableState
from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.node import Node
from deberc_net.server.cluster.payloads import table_for_bus, tables_messages
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.testing import build_ruleset, rule_book

from .conftest import make_config

OWNER = 222  # the other worker, which holds table 7
TABLE = 7
KEPT = "Table 7 plays on after all"


@attrs.define
class Here:
    """This worker's lobby and node, cal logged in here and seated at table 7."""

    lobby: Lobby
    node: Node
    cal: Session
    owners_lobby: Lobby  # the owner's side, only to describe its table as it would

    async def send(self, line: str) -> None:
        await self.lobby.handle(self.cal, parse_line(line))

    async def say(self, line: str) -> str:
        """What cal is told for ``line`` (a table's answer waited for, 5 s at most)."""
        await self.send(line)
        with trio.fail_after(5):
            while not self.cal.outbox.queued_bytes:
                await trio.sleep(0.01)
        return self.cal.outbox.take().decode()

    def told(self, *, away: tuple[int, ...] = ()) -> dict[str, Any]:
        """The owner's 'tables' message for table 7, its match playing with cal in seat 0."""
        rules = build_ruleset(2, "moscow", ())
        config = self.owners_lobby.config
        table = Table(TABLE, rules, self.owners_lobby, config, TABLE)
        table.seats = ["cal", "dora"]
        table.match = Match(rules, seed="s", names=("cal", "dora"), match_id="m7")
        table.state = TableState.PLAYING
        for seat in away:
            table.clocks.away(seat, trio.current_time())
        described = table_for_bus(table, config.away_limit_ms)
        return {**tables_messages([described], [])[0], "w": OWNER}

    def posted(self) -> list[dict[str, Any]]:
        """What this worker has posted to the owner's tables since last asked."""
        return [m for _, m in self.node.bus.waiting() if m["k"] == "post"]

    def owner_silent(self) -> None:
        """The owner is taken for gone: cal is told table 7 closed."""
        self.node.hear({"k": "bye", "w": OWNER})
        told = self.cal.outbox.take().decode()
        assert "Table 7 closes" in told and self.cal.table is None, told


@asynccontextmanager
async def seated_across(tmp_path: Path) -> AsyncIterator[Here]:
    config = make_config(tmp_path / "here.sqlite3")
    store = open_store(config.db)
    owners_store = open_store(str(tmp_path / "owner.sqlite3"))
    try:
        async with trio.open_nursery() as nursery:  # its tables' tasks end before the stores
            lobby = Lobby(config, store, nursery, rule_book())
            lobby.node = node = Node(lobby, WorkerPlace(0, 2), 111)
            owners_lobby = Lobby(config, owners_store, nursery, rule_book())
            cal = Session(5, Outbox(1 << 16), trio.CancelScope())
            here = Here(lobby, node, cal, owners_lobby)
            await here.say("style machine")
            assert "name=cal" in await here.say("login cal")
            opened = here.told()
            node.hear(opened)
            await here.send(f"sit {TABLE}")  # goes to the owner, which seats him:
            seated = {"table": TABLE, "info": opened["open"][0], "seat": 0}
            node.hear({"k": "placed", "w": OWNER, "s": cal.id} | seated)
            assert cal.table is lobby.tables[TABLE] and cal.seat == 0
            yield here
            nursery.cancel_scope.cancel()
    finally:
        store.close()
        owners_store.close()


async def test_he_is_seated_again_and_shown_his_table_once_it_is_told_again(
    tmp_path: Path,
) -> None:
    # a tryout: his seat came back only with his next table call, and 'leave', 'sheet',
    # 'history', 'bot' went on refusing him meanwhile ('you sit at no table')
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        assert "you sit at no table" in await here.say("history")
        here.posted()
        here.node.hear(here.told())  # it lives: its match plays on with cal seated
        assert KEPT in here.cal.outbox.take().decode()
        assert here.cal.table is here.lobby.tables[TABLE] and here.cal.seat == 0
        assert [m["m"] for m in here.posted()[-1:]] == ["state"]  # his table shown
        await here.send("history")
        assert here.posted()[-1]["m"] == "history"


async def test_a_seek_made_meanwhile_is_withdrawn_and_no_new_table_opens(tmp_path: Path) -> None:
    # a review: the seek made while told closed lived on, and the matchmaker later tried
    # to seat him elsewhere; 'new' was not refused while the table still seated him
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        assert "ok cmd=seek" in await here.say("seek 2")
        assert here.lobby.matchmaking.is_seeking(here.cal)
        here.node.hear(here.told())
        assert KEPT in here.cal.outbox.take().decode()
        assert not here.lobby.matchmaking.is_seeking(here.cal)
        refused = await here.say("new 2")
        assert refused.startswith("error code=already-seated"), refused
        assert here.cal.table is here.lobby.tables[TABLE]


async def test_a_seat_the_owner_held_as_away_is_taken_back_as_by_a_login(tmp_path: Path) -> None:
    # both took the other for dead: the owner holds cal's seat as away, his clock for
    # the away limit; he is back there at once, not refused
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        here.posted()
        here.node.hear(here.told(away=(0,)))
        assert KEPT in here.cal.outbox.take().decode()
        assert here.cal.table is here.lobby.tables[TABLE]
        assert [m["m"] for m in here.posted()[-1:]] == ["back"]


async def test_one_who_sat_down_elsewhere_meanwhile_stays_there(tmp_path: Path) -> None:
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        assert "ok cmd=sit table=" in await here.say("new 2")  # (new answers as sit)
        elsewhere = here.cal.table
        assert elsewhere is not None and elsewhere.id != TABLE
        here.node.hear(here.told())
        assert KEPT not in here.cal.outbox.take().decode()
        assert here.cal.table is elsewhere
