"""'history' at a ladder's board (docs/protocol.md §5.5a): its players' records are held
until the board's release, since its deck is played again in the other seatings. The
history of a finished Tertz deal must then not tell what only the held record tells:
the opponent's draws (with them, the seat's nine dealt cards of the next seating)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import trio

from .client import block, fields, play_machine, second_deal_first_trick
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]


async def test_a_boards_history_tells_no_draws_before_its_release(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"])
    await register("boss", "pw")
    boss = await connect.machine(port, "boss", "pw")
    pa, pb = await connect.machine(port, "pa"), await connect.machine(port, "pb")
    for player in (pa, pb):
        await player.send("seek reserved")
    await boss.send("reserve 2 tertz seats=pa,pb seed=b1 deals=2 board=k1 watch=ends")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, pa, random.Random(1), second_deal_first_trick())
            nursery.start_soon(play_machine, pb, random.Random(2), second_deal_first_trick())
        assert not [x for x in pa.lines if x.startswith("record ")]  # held, as ever
        told = [fields(x) for x in await block(pa, "history") if x.startswith("history")]
    deal1 = next(f for tag, f in told if tag == "history-deal" and f["deal"] == "1")
    assert deal1["broken"] != "-"  # the break was spoken to both: public
    tricks1 = [f for tag, f in told if tag == "history-trick" and f["deal"] == "1"]
    assert len(tricks1) == int(deal1["tricks"]) > 0
    assert not [f for f in tricks1 if "draws" in f], tricks1[0]
    # an admin watching the board is sent its records: its history tells the draws
    await boss.send(f"observe {table}")
    await boss.expect("ok", cmd="observe")
    with trio.fail_after(30):
        watched = [fields(x) for x in await block(boss, "history") if x.startswith("history")]
    seen1 = [f for tag, f in watched if tag == "history-trick" and f["deal"] == "1"]
    assert len(seen1) == len(tricks1) and all("draws" in f for f in seen1)
