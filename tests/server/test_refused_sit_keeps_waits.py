"""A 'sit' that is refused changes nothing: the seek and the rematch offer its player
waits on stay (a tryout typed 'sit 99' while seeking, and later after his match, and
lost both, told nothing until 'unseek' and 'rematch' said he had none)."""

from __future__ import annotations

import random

import trio

from .client import LineClient, play_machine
from .conftest import Connector, StartServer


async def _play_one(ann: LineClient, bob: LineClient) -> str:
    """A one-deal match of ann and bob at a new table; its table id."""
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(1))
        nursery.start_soon(play_machine, bob, random.Random(2))
    return table


async def _refused_sits(who: LineClient, playing: str, waiting: str) -> None:
    """'sit' refused each way the lobby can tell: no such table, a table already
    playing, a seat taken, a seat past the table's."""
    for line, code in (
        ("sit 99", "unknown-table"),
        (f"sit {playing}", "table-full"),
        (f"sit {waiting} 0", "seat-taken"),
        (f"sit {waiting} 7", "bad-argument"),
        ("sit x", "bad-argument"),
    ):
        await who.send(line)
        assert (await who.expect("error"))["code"] == code, line


async def _tables(port: int, connect: Connector) -> tuple[str, str]:
    """A table playing (cat v dan) and one waiting with eve at seat 0."""
    cat = await connect.machine(port, "cat")
    dan = await connect.machine(port, "dan")
    eve = await connect.machine(port, "eve")
    await cat.send("new 2")
    playing = (await cat.expect("ok", cmd="sit"))["table"]
    await dan.send(f"sit {playing}")
    await dan.expect("ok", cmd="sit")
    await eve.send("new 2")
    waiting = (await eve.expect("ok", cmd="sit"))["table"]
    return playing, waiting


async def test_a_refused_sit_keeps_the_seek(port: int, connect: Connector) -> None:
    playing, waiting = await _tables(port, connect)
    ann = await connect.machine(port, "ann")
    await ann.send("seek 3 kharkov")
    await ann.expect("ok", cmd="seek")
    await _refused_sits(ann, playing, waiting)
    await ann.send("unseek")  # he still waited
    await ann.expect("ok", cmd="unseek")


async def test_a_refused_sit_keeps_the_rematch_offer(port: int, connect: Connector) -> None:
    playing, waiting = await _tables(port, connect)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    await ann.send("rematch")
    await ann.expect("ok", cmd="rematch")
    await _refused_sits(bob, playing, waiting)
    assert not [x for x in ann.lines if x.startswith("rematch ") and " off=elsewhere" in x]
    await bob.send("rematch")  # the offer stands: both asked, it starts
    await bob.expect("ok", cmd="rematch", waiting="")
    sat = await bob.expect("ok", cmd="sit")
    assert sat["table"] != table


async def test_a_sit_that_seats_still_ends_the_seek(port: int, connect: Connector) -> None:
    _, waiting = await _tables(port, connect)
    ann = await connect.machine(port, "ann")
    await ann.send("seek 3 kharkov")
    await ann.expect("ok", cmd="seek")
    await ann.send(f"sit {waiting}")
    await ann.expect("ok", cmd="sit")
    await ann.send("leave!")
    await ann.expect("ok", cmd="leave")
    await ann.send("unseek")
    assert (await ann.expect("error"))["code"] == "not-allowed"


async def test_a_new_refused_as_busy_keeps_the_seek(
    start_server: StartServer, connect: Connector
) -> None:
    """The server's cap of tables reached, 'new' is refused 'busy': the seek its player
    made stays (free_to_sit ended it before the cap was checked)."""
    port = await start_server(max_tables=1)
    cat = await connect.machine(port, "cat")
    await cat.send("new 2")
    await cat.expect("ok", cmd="sit")
    ann = await connect.machine(port, "ann")
    await ann.send("seek 3 kharkov")
    await ann.expect("ok", cmd="seek")
    await ann.send("new 2")
    assert (await ann.expect("error"))["code"] == "busy"
    await ann.send("unseek")
    await ann.expect("ok", cmd="unseek")


async def test_a_seek_refused_as_busy_keeps_the_seek_before_it(
    start_server: StartServer, connect: Connector
) -> None:
    """The server's cap of tables reached, a 'seek' that would open one is refused
    'busy' and is not recorded: the seek its player waited on before stays, with its
    place (free_to_sit ended it before the cap was checked)."""
    port = await start_server(max_tables=1)
    cat = await connect.machine(port, "cat")
    await cat.send("new 3")  # the one table the cap allows
    await cat.expect("ok", cmd="sit")
    dan = await connect.machine(port, "dan")
    await dan.send("seek 2 kharkov")
    await dan.expect("ok", cmd="seek")
    ann = await connect.machine(port, "ann")
    await ann.send("seek 4")
    await ann.expect("ok", cmd="seek")
    await ann.send("seek 2 kharkov")  # with dan's it would open a table: none may open
    assert (await ann.expect("error"))["code"] == "busy"
    await ann.send("unseek")  # he still waited for his 4-player game
    await ann.expect("ok", cmd="unseek")
    await dan.send("unseek")  # and dan for his, alone
    await dan.expect("ok", cmd="unseek")


async def test_a_seek_refused_as_busy_keeps_the_rematch_offer(
    start_server: StartServer, connect: Connector
) -> None:
    """A rematch offer stands through its player's 'seek' refused 'busy'."""
    port = await start_server(max_tables=2)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table = await _play_one(ann, bob)
    await ann.send("rematch")
    await ann.expect("ok", cmd="rematch")
    cat = await connect.machine(port, "cat")
    eve = await connect.machine(port, "eve")
    for opener in (cat, eve):  # the cap reached
        await opener.send("new 3")
        await opener.expect("ok", cmd="sit")
    dan = await connect.machine(port, "dan")
    await dan.send("seek 2 kharkov")
    await dan.expect("ok", cmd="seek")
    await bob.send("seek 2 kharkov")
    assert (await bob.expect("error"))["code"] == "busy"
    await eve.send("leave!")  # a table's room again, for the rematch
    await eve.expect("ok", cmd="leave")
    await bob.send("rematch")  # the offer stands: both asked, it starts
    await bob.expect("ok", cmd="rematch", waiting="")
    sat = await bob.expect("ok", cmd="sit")
    assert sat["table"] != table
    assert not [x for x in ann.lines if x.startswith("rematch ") and " off=elsewhere" in x]
