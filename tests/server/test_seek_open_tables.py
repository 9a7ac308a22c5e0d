"""Matchmaking and tables opened with 'new': a seeker of exactly that game sits there."""

from __future__ import annotations

from .client import fields, is_event
from .conftest import Connector


async def test_a_seeker_sits_at_a_waiting_table_of_its_game(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cat = await connect.machine(port, "cat")
    await ann.send("new 2 to-301")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await cat.send("seek 2")  # another game (no to-301): it waits
    await cat.expect("ok", cmd="seek")
    await bob.send("seek 2 moscow to-301")
    await bob.expect("ok", cmd="seek")
    assert (await bob.expect("ok", cmd="sit"))["table"] == table
    start = fields(await ann.read_until(lambda x: is_event(x, "start")))[1]
    assert start["players"] == "ann,bob"
    await cat.send("unseek")  # still waiting, seated nowhere
    await cat.expect("ok", cmd="unseek")


async def test_a_new_table_seats_the_seekers_of_its_game(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cat = await connect.machine(port, "cat")
    await bob.send("seek 3")
    await bob.expect("ok", cmd="seek")
    await cat.send("seek 3 kharkov")
    await cat.expect("ok", cmd="seek")
    await ann.send("new 2 private")  # private: nobody is brought to it
    await ann.expect("ok", cmd="sit")
    await ann.send("leave")
    await ann.expect("ok", cmd="leave")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    assert (await bob.expect("ok", cmd="sit"))["table"] == table
    await ann.send("tables")
    listed = await ann.expect("table", id=table)
    assert listed["seats"] == "ann,bob,-"  # cat seeks another variant: not brought
    await cat.send("unseek")
    await cat.expect("ok", cmd="unseek")


async def test_two_seekers_for_one_free_seat_one_sits_and_one_waits(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cat = await connect.machine(port, "cat")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send("seek 2")
    await cat.send("seek 2")
    assert (await bob.expect("ok", cmd="sit"))["table"] == table
    await cat.expect("ok", cmd="seek")
    await cat.send("unseek")  # refused the taken seat, it waits again: no error
    await cat.expect("ok", cmd="unseek")
    assert not any(line.startswith("error") for line in cat.lines)
