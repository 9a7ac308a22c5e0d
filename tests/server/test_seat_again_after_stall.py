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
import pytest
import trio
import trio.testing

from deberc_net.game.match import Match
from deberc_net.protocol.commands import parse_line
from deberc_net.protocol.events import TableState
from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.bus import channel
from deberc_net.server.cluster.node import Node
from deberc_net.server.cluster.payloads import table_for_bus, tables_messages
from deberc_net.server.lobby import Lobby
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.testing import build_ruleset, rule_book

from .client import fields
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
    token: str = ""  # cal's, a guest's

    async def send(self, line: str, who: Session | None = None) -> None:
        await self.lobby.handle(who or self.cal, parse_line(line))

    async def say(self, line: str, who: Session | None = None) -> str:
        """What cal (or ``who``) is told for ``line`` (an answer waited for, 5 s at most)."""
        session = who or self.cal
        await self.send(line, session)
        with trio.fail_after(5):
            while not session.outbox.queued_bytes:
                await trio.sleep(0.01)
        return session.outbox.take().decode()

    async def connect(self, number: int, login: str) -> tuple[Session, str]:
        """A new connection here, and what its ``login`` line is answered."""
        session = Session(number, Outbox(1 << 16), trio.CancelScope())
        await self.say("style machine", session)
        return session, await self.say(login, session)

    def after_s(self, setting: str) -> float:
        """Just past a setting of milliseconds, in seconds."""
        milliseconds: int = getattr(self.lobby.config, setting)
        return milliseconds / 1000 + 1

    def quit(self) -> None:
        """cal's connection closes."""
        self.cal.close()
        self.lobby.disconnected(self.cal)

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
        """What this worker has posted to the owner's tables (its bus not opened: all
        of it, in order)."""
        return [m for _, m in self.node.bus.waiting() if m["k"] == "post"]

    def owner_silent(self) -> None:
        """The owner is taken for dead (silent past server_dead_ms): cal is told table 7
        closed."""
        self.node.forget_the_silent(trio.current_time() + self.after_s("server_dead_ms"))
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
            here = Here(lobby, node, Session(0, Outbox(1), trio.CancelScope()), owners_lobby)
            here.cal, welcome = await here.connect(5, "login cal")
            assert "name=cal" in welcome
            here.token = fields(welcome.splitlines()[0])[1]["token"]
            cal = here.cal
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
        # his seat taken back, which shows him the table (a Back even if this copy
        # says he is not away: the owner's Away may be newer than what it told)
        assert [(m["m"], m["s"]) for m in here.posted()[-1:]] == [("back", here.cal.id)]
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


async def test_one_back_on_a_new_connection_meanwhile_is_seated_on_it(tmp_path: Path) -> None:
    # a review: the seat was remembered for his old connection, which closed; the new
    # one was never seated, and his match was lost by timeouts
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        here.quit()
        again, welcome = await here.connect(6, f"login cal token={here.token}")
        assert "name=cal" in welcome, welcome
        here.node.hear(here.told())
        assert KEPT in again.outbox.take().decode()
        assert again.table is here.lobby.tables[TABLE] and again.seat == 0
        assert [(m["m"], m["s"]) for m in here.posted()[-1:]] == [("back", again.id)]


async def test_a_guest_gone_meanwhile_keeps_his_name_and_his_seat_waits_for_him(
    tmp_path: Path,
) -> None:
    # a review: his token was dropped with his connection (no table to come back to,
    # it seemed), so anyone's 'login cal' took his name, and the seat with it
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        here.quit()
        [left] = [m for _, m in here.node.bus.waiting() if m["k"] == "left"]
        assert (left["token"], left.get("held")) == (here.token, True)  # the others keep it
        _, refused = await here.connect(6, "login cal")
        assert refused.startswith("error "), refused
        here.node.hear(here.told())
        away = here.posted()[-1]  # his seat held for his login, as after a drop
        assert (away["table"], away["m"], away["name"]) == (TABLE, "away", "cal"), away
        back, welcome = await here.connect(7, f"login cal token={here.token}")
        assert "name=cal" in welcome, welcome
        assert back.table is here.lobby.tables[TABLE]  # as after any disconnect


async def test_a_seat_never_told_again_is_given_up_after_an_away_limit(
    tmp_path: Path,
) -> None:
    # its owner dead for good (a host gone, no worker started in its place): the guest's
    # name was held for that seat for ever
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        here.quit()
        here.node.forget_the_silent(trio.current_time() + here.after_s("server_dead_ms"))
        _, refused = await here.connect(6, "login cal")
        assert refused.startswith("error "), refused  # held still
        here.node.forget_the_silent(trio.current_time() + here.after_s("away_limit_ms"))
        _, welcome = await here.connect(7, "login cal")
        assert "name=cal" in welcome, welcome  # anyone's again
        assert not here.node.seat_held_elsewhere("cal")


async def test_a_guest_gone_at_another_worker_meanwhile_keeps_his_name_here_too(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    # a review: his worker kept his token, but a third worker, whose copy of the table
    # was dropped too, let anyone's 'login dan' in, and the table told again seated him
    async with seated_across(tmp_path) as here:
        gone = {"k": "left", "w": 333, "name": "dan", "token": "dans-token", "held": True}
        here.node.hear(gone)
        _, refused = await here.connect(6, "login dan")
        assert refused.startswith("error "), refused
        _, welcome = await here.connect(7, "login dan token=dans-token")
        assert "name=dan" in welcome, welcome
        here.node.hear(gone | {"name": "eve", "token": "eves-token"})
        await trio.sleep(here.after_s("away_limit_ms"))  # his seat given up there by then
        _, welcome = await here.connect(8, "login eve")
        assert "name=eve" in welcome, welcome


async def test_one_who_logged_in_at_a_third_worker_meanwhile_is_seated_there(
    tmp_path: Path,
) -> None:
    # left out before (docs/scaling.md): the seat was this worker's memory, so the
    # third worker, which he logged in at, never seated him and his match was lost by
    # timeouts; now this worker hands the held seat over and posts no Away
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        here.quit()
        here.node.hear(
            {"k": "in", "w": 333, "name": "cal", "guest": True, "token": here.token, "s": 9}
        )
        [handed] = [(to, m) for to, m in here.node.bus.waiting() if m["k"] == "held"]
        assert handed[0] == channel(333)
        assert (handed[1]["name"], handed[1]["owner"], handed[1]["table"]) == ("cal", OWNER, 7)
        assert 0 <= handed[1]["age"] < 5
        assert not here.node.seat_held_elsewhere("cal")
        here.posted()
        here.node.hear(here.told())
        assert [m for m in here.posted() if m["m"] == "away"] == []  # the third worker's


@pytest.mark.parametrize("told_first", [False, True], ids=["held-then-told", "told-then-held"])
async def test_a_seat_handed_over_by_another_worker_is_taken_when_its_table_is_told(
    tmp_path: Path, told_first: bool
) -> None:
    # the third worker's side: dora logged in here while her seat at table 7 was held
    # at worker 333 (its owner taken for dead there and here); handed over once the
    # table is told again already, it is taken at once
    async with seated_across(tmp_path) as here:
        here.owner_silent()
        dora, welcome = await here.connect(6, "login dora")
        assert "name=dora" in welcome, welcome
        if told_first:
            here.node.hear(here.told())
            assert dora.table is None  # nothing held here for her yet
        held = {"k": "held", "w": 333, "name": "dora", "owner": OWNER, "table": TABLE}
        here.node.hear(held | {"age": 0.5})
        if not told_first:
            assert here.node.seat_held_elsewhere("dora") and dora.table is None
            here.node.hear(here.told())
        assert KEPT in dora.outbox.take().decode()
        assert dora.table is here.lobby.tables[TABLE] and dora.seat == 1
        assert [(m["m"], m["s"]) for m in here.posted() if m["s"] == dora.id][-1:] == [
            ("back", dora.id)
        ]


async def test_this_workers_own_stall_counts_against_no_line_waiting_nor_seat_held(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """This worker stopped (SIGSTOP, its machine paused) past server_dead_ms, then past
    the away limit: its look at the living, late by that, moves what counts time. A
    line of cal's waiting for the owner's answer is still waited for (it was let go as
    unanswered, the owner never waited for again), and the seat held for him once the
    owner went silent is still held (it was given up). The real stall of both workers:
    tests/store/test_workers_own_stall.py."""
    async with seated_across(tmp_path) as here:
        node = here.node
        await here.send("state")  # a table line: its answer comes from the owner
        waiting = set(node.awaited)
        assert waiting
        node.stall.looked, node.stall.look_s = trio.current_time(), 1.0  # as its look runs
        autojump_clock.jump(here.after_s("server_dead_ms"))  # stopped: nothing ran
        node.stall.check()  # (a table's clock, or the look, as it runs again)
        node.forget_the_silent(trio.current_time())
        assert set(node.awaited) == waiting and OWNER in node.heard
        here.owner_silent()  # now it is: cal told his table closed, his seat held
        node.stall.looked = trio.current_time()
        autojump_clock.jump(here.after_s("away_limit_ms"))
        node.stall.check()
        node.forget_the_silent(trio.current_time())
        assert node.seat_held_elsewhere("cal")
        here.node.hear(here.told())  # and the owner, living, seats him again
        assert KEPT in here.cal.outbox.take().decode()
