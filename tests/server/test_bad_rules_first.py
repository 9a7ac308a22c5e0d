"""A 'new' or 'seek' whose rules are wrong is refused for them first, and changes
nothing: it was refused 'slow-down' after too many seats left (its rules refused only
once sent again, when the wait was over), and before its rules were read it had ended
the player's seek and called his rematch offer off."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest
import trio

from .client import play_machine
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


@pytest.mark.timeout(60)
async def test_bad_rules_are_said_before_a_slow_down(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(seat_churn_burst=1, seat_churn_per_s=0.001)
    ann = await connect.machine(port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    await ann.send("leave")  # her one seat given up at a waiting table
    await ann.expect("ok", cmd="leave")
    with trio.fail_after(30):
        for line in ("new 2 bogus-option", "new two", "new 2 kharkov moscow", "seek 2 bogus"):
            await ann.send(line)
            assert (await ann.expect("error"))["code"] == "bad-rules", line
        await ann.send("new 2")  # well formed: the wait, as before
        assert (await ann.expect("error"))["code"] == "slow-down"


@pytest.mark.timeout(60)
async def test_bad_rules_keep_a_seek_and_a_rematch_offer(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    cat = await connect.machine(port, "cat")
    with trio.fail_after(20):
        await cat.send("seek 3")
        await cat.expect("ok", cmd="seek")
        for line in ("new 2 bogus", "seek 2 bogus", "seek 3 kharkov moscow"):
            await cat.send(line)
            assert (await cat.expect("error"))["code"] == "bad-rules", line
        await cat.send("unseek")  # still seeking 3 (a bad line ended it)
        await cat.expect("ok", cmd="unseek")

        await ann.send("new 2 short")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(1))
            nursery.start_soon(play_machine, bob, random.Random(2))
        await ann.send("rematch")
        await ann.expect("ok", cmd="rematch")
        await bob.expect("rematch")
        for line in ("new 2 bogus", "seek 2 bogus"):
            await bob.send(line)
            assert (await bob.expect("error"))["code"] == "bad-rules", line
        await bob.send("rematch")  # the offer stands (a bad line called it off)
        await bob.expect("ok", cmd="rematch", waiting="")
        await bob.expect("ok", cmd="sit")
        assert not [x for x in ann.lines if x.startswith("rematch ") and "off=elsewhere" in x]
