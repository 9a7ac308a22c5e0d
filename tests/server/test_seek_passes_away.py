"""A seek does not seat a seeker at a waiting table whose player is away (docs/protocol.md
§5.5): he waits, or meets other seekers at a new table; the table takes seekers again
once its player is back. A newcomer was seated with one who had quit and sat two
minutes in silence before the match began."""

from __future__ import annotations

import trio
from trio.testing import MockClock

from .client import LineClient
from .conftest import Connector


async def _table_with_ann_away(port: int, connect: Connector) -> tuple[str, LineClient, str]:
    """ann opens a two-player table and drops: the table, a watcher (bob), ann's token."""
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    token = ann.token
    bob = await connect.machine(port, "bob")
    await bob.send(f"observe {table}")
    await bob.expect("ok", cmd="observe")
    await ann.aclose()
    await bob.expect("event", kind="away", name="ann")
    assert token is not None
    return table, bob, token


async def test_a_seeker_waits_rather_than_sit_with_an_away_player(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    table, _, token = await _table_with_ann_away(port, connect)
    cat = await connect.machine(port, "cat")
    await cat.send("seek 2")
    await cat.expect("ok", cmd="seek")
    await cat.send("ping")  # no seat came with the seek's reply
    await cat.expect("ok", cmd="ping")
    assert not any(x.startswith("ok cmd=sit") for x in cat.lines), cat.lines
    again = await connect.machine(port, "ann", token=token)  # back: the seeker sits
    await again.expect("event", kind="back", name="ann")
    assert (await cat.expect("ok", cmd="sit"))["table"] == table
    assert (await again.expect("event", kind="start"))["players"] == "ann,cat"


async def test_seekers_meet_at_a_new_table_beside_one_whose_player_is_away(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    table, _, _ = await _table_with_ann_away(port, connect)
    cat = await connect.machine(port, "cat")
    dan = await connect.machine(port, "dan")
    await cat.send("seek 2")
    await cat.expect("ok", cmd="seek")
    await dan.send("seek 2")
    await dan.expect("ok", cmd="seek")
    seated = await dan.expect("ok", cmd="sit")
    assert seated["table"] != table and seated["seats"] == "cat,dan"
    assert (await cat.expect("ok", cmd="sit"))["table"] == seated["table"]


async def test_a_seeker_sits_at_once_at_the_table_of_one_present_not_the_away_one(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    away_table, _, _ = await _table_with_ann_away(port, connect)
    eve = await connect.machine(port, "eve")
    await eve.send("new 2")
    table = (await eve.expect("ok", cmd="sit"))["table"]
    assert int(table) > int(away_table)  # the older table is the away one
    cat = await connect.machine(port, "cat")
    await cat.send("seek 2")
    await cat.expect("ok", cmd="seek")
    assert (await cat.expect("ok", cmd="sit"))["table"] == table
    with trio.fail_after(5):
        await eve.expect("event", kind="start")


async def test_one_who_sits_beside_an_away_player_is_told_who_and_for_how_long(
    port: int, connect: Connector, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """'sit N' still seats him there (he chose the table): its reply says who is away
    and how long the seat is held (docs/protocol.md §5.4), in either style."""
    bob = await connect.machine(port, "bob")
    await bob.send("new 4")
    table = (await bob.expect("ok", cmd="sit"))["table"]
    ann = await connect.machine(port, "ann")
    await ann.send(f"sit {table}")
    await bob.expect("event", kind="seated", name="ann")
    await ann.aclose()
    await bob.expect("event", kind="away", name="ann")
    await trio.sleep(20)
    dan = await connect.machine(port, "dan")
    await dan.send(f"sit {table}")
    said = (await dan.expect("ok", cmd="sit"))["text"]
    assert said == (
        f"You sit at table {table}, seat 2. At the table: bob (seat 0),"
        " ann (seat 1, away: the seat is held 100 s more)."
    )
    await dan.send("leave")
    await dan.expect("ok", cmd="leave")
    eve = await connect.human(port, "eve")
    await eve.send("lang ru")
    await eve.send(f"sit {table}")
    lines = [await eve.read_until(lambda x: x.startswith(f"Вы за столом {table}, место"))]
    while not lines[-1].endswith("."):  # wrapped for the terminal
        lines.append(await eve.read_until(lambda _: True))
    assert " ".join(x.strip() for x in lines).endswith(
        "ann (место 1, нет связи: место держится ещё 100 с)."
    ), lines
