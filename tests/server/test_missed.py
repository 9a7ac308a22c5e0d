"""What a player missed while away is told at his next login (docs/protocol.md §12;
server/missed.py): his seat at a waiting table freed at the away limit, his match lost
by his absence, or ended otherwise. Only to the name's owner (a guest's token, a
registered name's password), once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
import trio
from trio.testing import MockClock

from deberc_net.protocol.messages import Msg, phrase
from deberc_net.server.cluster.node import Present
from deberc_net.server.lobby import Lobby
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.testing import build_ruleset, rule_book

from .client import LineClient, infos_so_far
from .conftest import Connector, make_config

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]

SEAT = (
    "While you were away, your seat at table {table} was freed: a seat is held 3 s for a"
    " player away, then it is free for another."
)


async def test_a_guest_back_after_his_seat_was_freed_is_told_once(
    start_server: StartServer, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    port = await start_server(away_limit_ms=3_000)
    bob = await connect.machine(port, "bob")
    await bob.send("new 3")
    table = (await bob.expect("ok", cmd="sit"))["table"]
    ann = await connect.machine(port, "ann")
    await ann.send(f"sit {table}")
    await bob.expect("event", kind="seated", name="ann")
    await ann.aclose()
    await bob.expect("event", kind="left", name="ann")  # at the away limit
    stranger = await connect.machine(port, "ann")  # the name is free: another guest's now
    assert await infos_so_far(stranger) == []  # not his to hear
    await stranger.send("quit")
    await stranger.wait_closed()
    again = await connect.machine(port, "ann", token=ann.token)
    assert await infos_so_far(again) == [SEAT.format(table=table)]
    await again.send("quit")
    await again.wait_closed()
    # his own token again (again's is a new one: it would be refused the notice anyway)
    once = await connect.machine(port, "ann", token=ann.token)
    assert await infos_so_far(once) == []  # told once: gone


async def test_a_match_lost_or_ended_while_away_is_told_at_the_next_login(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(away_limit_ms=3_000)
    await register("ann", "pw")
    ann = await connect.machine(port, "ann", "pw")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    start = await bob.expect("event", kind="start")
    await ann.aclose()
    end = await bob.expect("event", kind="match-end")
    assert end["reason"] == "away"
    back = await connect.machine(port, "ann", "pw")
    assert await infos_so_far(back) == [
        f"While you were away, your match {start['match']} at table {table} was lost by"
        " forfeit: you were away longer than 3 s. 'games' lists it."
    ]
    # bob was there: nothing for him; and a match ended by the other side's leaving
    await back.send("new 2")
    table = (await back.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    start = await bob.expect("event", kind="start")
    await bob.aclose()
    await back.expect("event", kind="away", name="bob")
    await back.send("leave")
    await back.send("leave")  # (a running match's 'leave' asks again first)
    assert (await back.expect("event", kind="match-end"))["reason"] == "left"
    bob_again = await connect.machine(port, "bob", token=bob.token)
    assert await infos_so_far(bob_again) == [
        f"While you were away, your match {start['match']} at table {table} ended: 'games'"
        " says how."
    ]


async def test_a_guest_of_another_worker_is_not_kept_as_a_registered_name(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """serve --workers: the table's worker holds no token of a guest whose connection was
    another worker's (its node knows it). Kept with none, the notice went to whoever
    logged the name in with a password (registered since: not the guest), and never to
    the guest with his token."""
    config = make_config(tmp_path / "m.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        guest = Present("bob", 1, True, "tok", online=False)
        published: list[tuple[Any, ...]] = []  # what the other workers are told
        lobby.node = cast(
            Any,
            SimpleNamespace(elsewhere=lambda name: guest, missed=lambda *a: published.append(a)),
        )
        table = Table(7, build_ruleset(2, "moscow", ()), lobby, config, 7)
        table.seats = ["ann", "bob"]
        table.keep_missed(1, phrase(Msg.MISSED_SEAT, table=7, seconds=3))
        assert lobby.missed.take("bob", False, None) is None  # a password's login: not his
        assert lobby.missed.take("bob", True, "other") is None
        assert lobby.missed.take("bob", True, "tok") is not None
        assert [(name, token) for name, _, token in published] == [("bob", "tok")]
        guest = Present("bob", 1, True, None, online=False)  # his token unknown: kept for none
        table.keep_missed(1, phrase(Msg.MISSED_SEAT, table=7, seconds=3))
        assert lobby.missed.take("bob", False, None) is None
    finally:
        store.close()


async def test_a_lone_player_back_after_his_waiting_table_closed_is_told_why(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """Alone at a waiting table, gleb drops: with nobody there it closes after
    empty_table_ms (10 s), long before his away limit; back, he is told (a tryout: he
    found no table and no word of it)."""
    gleb = await connect.machine(port, "gleb")
    await gleb.send("new 2")
    table = (await gleb.expect("ok", cmd="sit"))["table"]
    await gleb.aclose()
    eve = await connect.machine(port, "eve")
    await trio.sleep(11)  # (virtual)
    await eve.send("tables")
    assert (await eve.expect("tables"))["count"] == "0"
    back = await connect.machine(port, "gleb", token=gleb.token)
    assert await infos_so_far(back) == [
        f"While you were away, table {table} closed: nobody was left at it for 10 s."
    ]


async def test_state_after_a_forfeit_while_away_and_after_watching_says_the_match_is_over(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A tryout, s47: ann, back after her match was lost by her absence, was told so at
    her login, but her 'state' said only "you sit at no table and observe none", where
    bob's said the match is over and what shows it; a watcher who saw it end, the same
    bare line. Each is told that match is over, for as long as a rematch may be asked."""
    port = await start_server(away_limit_ms=3_000)
    await register("ann", "pw")
    ann = await connect.machine(port, "ann", "pw")
    bob = await connect.machine(port, "bob")
    eve = await connect.machine(port, "eve")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("event", kind="start")
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await ann.aclose()
    assert (await bob.expect("event", kind="match-end"))["reason"] == "away"
    await eve.expect("event", kind="match-end")
    back = await connect.machine(port, "ann", "pw")
    assert (await infos_so_far(back))[0].startswith("While you were away, your match")
    hint = "('last', 'sheet' and 'history' show it)"
    for person, whose in (
        (back, "your match at table"),
        (bob, "your match at table"),
        (eve, "the match you watched at table"),
    ):
        await person.send("state")
        refused = await person.expect("error", code="not-seated")
        assert refused["text"] == (
            f"you sit at no table and observe none: {whose} {table} is over {hint}"
        ), refused
    await back.send("sheet")  # as it says
    await back.expect("sheet")
    await eve.send("history")
    await eve.expect("history")
    await trio.sleep(61)  # past the rematch's 60 s: the plain line again
    for person in (back, eve):
        await person.send("state")
        refused = await person.expect("error", code="not-seated")
        assert refused["text"] == "you sit at no table and observe none", refused


async def test_a_player_who_forfeited_away_may_take_the_rematch_his_opponent_is_told_of(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A tryout, s47, asked whether bob's "'rematch' within 60 s plays again" was wrong
    with ann gone by the away limit: it is right. Her absence is no disconnect during
    the offer (that calls it off, docs/protocol.md §5.16): back within its 60 s, her
    'rematch' is taken, and with bob's the rematch starts."""
    port = await start_server(away_limit_ms=30_000)
    await register("ann", "pw")
    ann = await connect.machine(port, "ann", "pw")
    bob = await connect.human(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="start")
    await ann.aclose()
    reminder = await bob.read_until(lambda line: "rematch" in line, timeout=100)
    assert reminder == "'rematch' within 60 s plays again with the same players."
    back = await connect.machine(port, "ann", "pw")
    assert (await infos_so_far(back))[0].startswith("While you were away, your match")
    await back.send("rematch")
    assert (await back.expect("ok", cmd="rematch"))["waiting"] == "bob"
    await bob.send("rematch")
    seated = await back.expect("ok", cmd="sit")
    assert seated["table"] != table
    await back.expect("event", kind="start", players="bob,ann")


async def _forfeited_away(
    start_server: StartServer, connect: Connector, register: Register
) -> tuple[int, int, LineClient]:
    """ann's match with bob lost by her absence (away limit 30 s): the port, the table,
    and bob (human style, told the rematch is on offer)."""
    port = await start_server(away_limit_ms=30_000)
    await register("ann", "pw")
    table, bob, reminder = await _lost_by_absence(
        port, await connect.machine(port, "ann", "pw"), connect
    )
    assert reminder == "'rematch' within 60 s plays again with the same players."
    return port, table, bob


async def _lost_by_absence(
    port: int, ann: LineClient, connect: Connector
) -> tuple[int, LineClient, str]:
    """ann's table, human bob seated at it, and ann gone till her away limit lost her
    the match: the table, bob, and bob's line telling him the rematch is on offer."""
    bob = await connect.human(port, "bob")
    await ann.send("new 2")
    table = int((await ann.expect("ok", cmd="sit"))["table"])
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="start")
    await ann.aclose()
    return table, bob, await bob.read_until(lambda line: "rematch" in line, timeout=100)


@pytest.mark.parametrize(
    ("lang", "offered", "pending"),
    [
        (
            "en",
            "'rematch' within 40 s plays again with the same players.",
            "Rematch of table {table} asked by bob, waiting for ann: 'rematch' to agree.",
        ),
        (
            "ru",
            "Реванш: наберите rematch в течение 40 с — сыграете снова тем же составом.",
            "Реванш за столом {table} просят: bob; ждём: ann. Согласны — наберите rematch.",
        ),
    ],
)
async def test_a_player_back_after_an_away_forfeit_is_told_the_rematch_on_offer(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
    lang: str,
    offered: str,
    pending: str,
) -> None:
    """Back within the offer's 60 s, a person was told his match was lost, and not that
    its rematch stands for him (docs/protocol.md §5.16): he could only find out by
    typing 'rematch' (s47). Told at his login, with the seconds left, and that bob asked."""
    port, table, bob = await _forfeited_away(start_server, connect, register)
    virtual_clock.jump(20)
    await bob.send("rematch")
    await bob.read_until(lambda line: line.startswith("You ask for a rematch"))
    ann = await connect.raw(port, "ann")
    await ann.send(f"login ann pw lang={lang}")
    assert await ann.read_until(lambda line: "rematch" in line, timeout=5) == offered
    assert await ann.read_until(lambda line: True) == pending.format(table=table)
    await ann.send("rematch")
    await ann.read_until(lambda line: str(table + 1) in line, timeout=5)


async def test_a_program_back_after_an_away_forfeit_is_told_no_offer_nobody_asked(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A program hears of an offer nobody asked from match-end's rematch_s= (§5.16),
    which she missed: no line is made up for it at her login (none of the sentence)."""
    port, _, _ = await _forfeited_away(start_server, connect, register)
    quiet = await connect.machine(port, "ann", "pw")
    assert [x for x in await infos_so_far(quiet) if "rematch" in x] == []
    assert not [x for x in quiet.lines if x.startswith("rematch ")]
    await quiet.aclose()  # (which calls the offer off: she left)


async def test_a_program_back_after_an_away_forfeit_gets_the_rematch_line_it_missed(
    start_server: StartServer,
    connect: Connector,
    register: Register,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A program is told an offer's state by the 'rematch' line (docs/protocol.md
    §5.16): the one bob's ask sent while ann was away comes at her login."""
    port, table, bob = await _forfeited_away(start_server, connect, register)
    await bob.send("rematch")
    await bob.read_until(lambda line: line.startswith("You ask for a rematch"))
    ann = await connect.machine(port, "ann", "pw")
    told = await ann.expect("rematch")
    assert told == {
        "table": str(table),
        "asked": "bob",
        "waiting": "ann",
        "off": "-",
        "by": "-",
        "text": f"Rematch of table {table} asked by bob, waiting for ann: 'rematch' to agree.",
    }


async def _guest_forfeited(start_server: StartServer, connect: Connector) -> tuple[int, str]:
    """Guest ann's match with bob lost by her absence: the port, and her resume token."""
    port = await start_server(away_limit_ms=30_000)
    ann = await connect.machine(port, "ann")
    assert ann.token is not None
    await _lost_by_absence(port, ann, connect)
    return port, ann.token


async def test_a_guest_back_with_his_token_is_told_his_rematch_on_offer(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port, token = await _guest_forfeited(start_server, connect)
    owner = await connect.raw(port, "ann")
    await owner.send(f"login ann token={token}")
    offered = await owner.read_until(lambda line: "rematch" in line, timeout=5)
    assert offered == "'rematch' within 60 s plays again with the same players."


async def test_one_who_took_a_guests_free_name_is_not_told_its_rematch_on_offer(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A guest's name is anyone's once he has gone: one who takes it is not told its
    rematch is on offer, as he is not told what its owner missed."""
    port, _ = await _guest_forfeited(start_server, connect)
    stranger = await connect.raw(port, "stranger")
    await stranger.send("login ann")
    await stranger.read_until(lambda line: line.startswith("Hello, ann"))
    await stranger.send("ping")
    await stranger.read_until(lambda line: line == "pong")
    assert [x for x in stranger.lines if "rematch" in x] == []


@pytest.mark.parametrize("goes", ["leaves", "sits elsewhere"])
async def test_one_who_took_a_guests_free_name_cannot_call_its_rematch_off(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
    goes: str,
) -> None:
    """The offer was made to the guest who was away, not to whoever takes his free name
    next (s47's notes): the stranger's leaving, or his sitting at another table, called
    it off as its owner's would. Now the owner, back with his token, takes it up."""
    port, token = await _guest_forfeited(start_server, connect)
    bob = connect.clients[1]
    await bob.send("rematch")
    await bob.read_until(lambda line: line.startswith("You ask for a rematch"))
    stranger = await connect.machine(port, "ann")
    if goes == "leaves":
        await stranger.aclose()
    else:
        await stranger.send("new 2")
        await stranger.expect("ok", cmd="sit")
        await stranger.send("leave")
        await stranger.expect("ok", cmd="leave")
        await stranger.aclose()
    await bob.send("ping")
    assert await bob.read_until(lambda line: line == "pong" or "rematch" in line) == "pong"
    owner = await connect.machine(port, "ann", token=token)
    await owner.send("rematch")
    assert (await owner.expect("ok", cmd="rematch"))["waiting"] == ""
    await owner.expect("ok", cmd="sit")


async def test_one_who_took_a_guests_free_name_may_not_take_its_rematch(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """Nor is the stranger told the others' asks, nor may he agree for the owner (it
    would seat him at the rematch in the owner's place)."""
    port, _ = await _guest_forfeited(start_server, connect)
    bob = connect.clients[1]
    stranger = await connect.machine(port, "ann")
    await bob.send("rematch")
    await bob.read_until(lambda line: line.startswith("You ask for a rematch"))
    await stranger.send("rematch")
    assert await stranger.expect("error") == {
        "code": "not-allowed",
        "text": "no rematch is on offer for you: one is asked within 60 s of your match's end",
    }
    assert not [x for x in stranger.lines if x.startswith("rematch ")]
    await bob.send("ping")
    assert await bob.read_until(lambda line: line == "pong" or "rematch" in line) == "pong"
