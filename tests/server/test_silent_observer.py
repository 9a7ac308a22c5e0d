"""A silent observer (docs/settings.md idle_timeout_ms): not idle while the match he
watches is played, idle from its end; and after it 'sheet' and 'history' tell him that
match, as they tell a player his last one (docs/protocol.md)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import trio
import trio.testing

from .client import LineClient, fields, is_event, play_machine
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

IDLE_S = 60
THINK_S = 8  # each call: within the bot clock (10.5 s), and the match lasts minutes


async def _play_slowly(client: LineClient, rng: random.Random) -> None:
    """Answer each ask at random after THINK_S, until the match ends."""
    while True:
        line = await client.read_until(lambda _: True, 120)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "match-end"):
            return
        if tag == "ask":
            await trio.sleep(THINK_S)
            await client.send(f"{rng.choice(f['legal'].split(','))} seq={f['seq']}")


async def test_a_silent_observer_stays_while_his_match_is_played_and_may_ask_its_sheet(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server(idle_timeout_ms=IDLE_S * 1000)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    kib = await connect.machine(port, "kib")
    await ann.send("new 2 moscow to-301")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await kib.send(f"observe {table}")  # and then not a word
    await kib.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    began = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_play_slowly, ann, random.Random(1))
        nursery.start_soon(_play_slowly, bob, random.Random(2))
    ended = trio.current_time()
    assert ended - began > 3 * IDLE_S  # the observer said nothing all along
    end = await kib.expect("event", kind="match-end", timeout=10)
    assert not [x for x in kib.lines if "idle-timeout" in x]

    # the match he watched is his 'sheet' and 'history' now (he played none)
    deals = [fields(x)[1] for x in kib.lines if is_event(x, "deal-end")]
    await kib.send("sheet")
    head = await kib.expect("sheet", timeout=10)
    assert (head["table"], head["deals"]) == (table, str(len(deals)))
    assert [(await kib.expect("sheet-deal", timeout=10))["totals"] for _ in deals] == [
        d["totals"] for d in deals
    ]
    assert deals[-1]["totals"] == end["totals"]
    await kib.send("history")
    assert (await kib.expect("history", timeout=10))["table"] == table

    # idle again once the match is over: the limit counts from its end (and his lines)
    quiet = trio.current_time()
    await kib.expect("error", code="idle-timeout", timeout=2 * IDLE_S)
    await kib.wait_closed(timeout=10)
    assert IDLE_S <= trio.current_time() - quiet < IDLE_S + 5


async def test_a_human_observer_is_told_the_match_id_at_its_end(
    start_server: StartServer, connect: Connector
) -> None:
    """The 'Game over' line names the match (the id of its replay, /games/ID, and of
    'games'); a kibitzer has no other way to it."""
    port = await start_server()
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    hugo = await connect.human(port, "hugo")
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await hugo.send(f"observe {table}")
    await hugo.read_until(lambda x: x.startswith("You observe"))
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    match = (await ann.expect("event", kind="start"))["match"]
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(3))
            nursery.start_soon(play_machine, bob, random.Random(4))
    over = await hugo.read_until(lambda x: x.startswith("Game over:"))
    assert over.endswith(f"Match {match}."), over
