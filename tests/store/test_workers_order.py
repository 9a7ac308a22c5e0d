"""``serve --workers 2``, one start for several checks of what crosses the bus: the
replies to lines a table of another worker answers come in the order of the lines
(docs/protocol.md §2.3)."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event, random_legal

from .workers import SETTINGS, Workers, served_workers, settings_file, until_listed

# 3 s, not quick_death's 1.5: what this checks is that neither worker takes the other
# for dead too soon, and with half the margin it failed once (-n 2, load 20+); not
# SETTINGS' 10 s, which the stall would have to outlast
DEAD_S = 3  # ORDER_SETTINGS' server_dead_ms
ORDER_SETTINGS = (
    SETTINGS.replace("server_dead_ms = 10000\n", f"server_dead_ms = {DEAD_S * 1000}\n")
    + "http_port = 0\n"
)
assert f"server_dead_ms = {DEAD_S * 1000}\n" in ORDER_SETTINGS


async def _logged(workers: Workers, event: str, **want: object) -> None:
    """Wait until a worker logs ``event`` with these fields (a hard limit)."""
    with trio.fail_after(20):
        while not any(
            e.get("event") == event and all(e.get(k) == v for k, v in want.items())
            for e in workers.events
        ):
            await trio.sleep(0.05)


def _server_id(workers: Workers, worker: int) -> object:
    """The server id of worker ``worker`` (its worker_listening line's), by which the
    others' worker_lost lines name it."""
    return next(
        e["server"]
        for e in workers.events
        if e.get("event") == "worker_listening" and e.get("worker") == worker
    )


def _pong(line: str) -> bool:
    tag, said = fields(line)
    return tag == "ok" and said.get("cmd") == "ping"


async def _before_pong(client: LineClient, lines: str, reply: Callable[[str], bool]) -> None:
    """``lines`` then 'ping', sent in one write: a line ``reply`` knows comes before the
    pong (it came after: the table's answer over the bus, the pong at once)."""
    start = client.pos
    await client.send_raw(f"{lines}\nping\n".encode())
    await client.read_until(_pong, 30)
    before = client.lines[start : client.pos - 1]
    assert any(reply(line) for line in before), (lines, before)


async def _replies_in_order(workers: Workers, opened: list[LineClient]) -> None:
    """bob, on worker 1, plays at ann's table on worker 0: 'help', 'state', 'sheet',
    'say', a call, a login taking his seat back and the 'rematch' that completes one
    (with the new table's ok cmd=sit) are each answered before the 'ping' sent right
    behind them."""
    ann = await workers.connect(0, "ann")
    bob = await workers.connect(1, "bob")
    opened += [ann, bob]
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await until_listed(bob, "tables", f"id={table} ")
    await _before_pong(bob, f"sit {table}", lambda x: x.startswith("ok cmd=sit "))
    await _before_pong(bob, "help", lambda x: "'calls' explains every table call" in x)
    await _before_pong(bob, "state", lambda x: fields(x)[0] in ("ask", "state"))
    await _before_pong(bob, "sheet", lambda x: fields(x)[0] == "sheet")
    await _before_pong(bob, "say hi there", lambda x: x.startswith("say ") and "hi there" in x)
    # the first call is bob's or ann's: ann answers hers until bob is asked
    answered = -1  # the seq of ann's last call
    while True:
        await bob.send("state")
        tag, asked = fields(await bob.read_until(lambda x: fields(x)[0] in ("ask", "state")))
        # a state may be older than ann's call (another connection's line), never than
        # an event bob was told before it: the table's lines to him keep their order
        before = bob.lines[: bob.pos - 1]
        told = [int(fields(x)[1]["seq"]) for x in before if x.startswith("event ")]
        assert max(told, default=0) <= int(asked["seq"]), (told, asked)
        if tag == "ask":
            break
        if int(asked["seq"]) <= answered:  # bob's line came before ann's call (a loaded
            await trio.sleep(0.05)  # worker 0 takes what is ready in any order): again
            continue
        ann_ask = fields(await ann.read_until(lambda x: fields(x)[0] == "ask"))[1]
        await ann.send(f"{random_legal(ann_ask, random.Random(1))} seq={ann_ask['seq']}")
        answered = int(ann_ask["seq"])
    seat = asked["seat"]
    call = f"{random_legal(asked, random.Random(2))} seq={asked['seq']}"
    await _before_pong(bob, call, lambda x: is_event(x, "call") and f" seat={seat} " in x)
    # bob's connection drops; he logs in again on worker 1: his state answers the login
    token = bob.token
    await bob.aclose()
    bob = await workers.reach(1, "bob again")
    opened.append(bob)
    await bob.send("style machine")
    await bob.expect("ok", cmd="style")
    back = lambda x: fields(x)[0] in ("ask", "state") and f"table={table} " in x  # noqa: E731
    await _before_pong(bob, f"login bob token={token}", back)
    for _ in range(3):  # (it lost the race now and then, won more often)
        await ann.send("leave!")  # the match ends (a forfeit): both ask for a rematch
        await bob.read_until(lambda x: is_event(x, "match-end"))
        await ann.send("rematch")
        await ann.expect("ok", cmd="rematch")
        await bob.expect("rematch", waiting="bob", timeout=30)
        # bob's completes it: his ok cmd=rematch and then the new table's ok cmd=sit
        # come before the pong (the sit came after it: his 'rematch' was answered over
        # the bus once the new table had opened, before it had seated him)
        start = bob.pos
        await _before_pong(bob, "rematch", lambda x: x.startswith("ok cmd=sit "))
        replies = [fields(x)[1].get("cmd") for x in bob.lines[start:] if x.startswith("ok ")]
        assert replies == ["rematch", "sit", "ping"], bob.lines[start:]
        await ann.expect("ok", cmd="sit", timeout=30)


async def _a_stall_forgets_nothing(workers: Workers, opened: list[LineClient]) -> None:
    """Worker 1 stalls past server_dead_ms (SIGSTOP), then goes on: afterwards each
    worker knows the other's players again, and the guest whose seat worker 0 holds
    for him (his connection gone) keeps it on worker 1 too: nobody takes his name
    (worker 1 forgot him, and a thief took his name and seat there). Worker 1 itself
    forgets nobody: what it was sent meanwhile comes first."""
    cal = await workers.connect(0, "cal")
    gwen = await workers.connect(0, "gwen")
    dora = await workers.connect(1, "dora")
    opened += [cal, gwen, dora]
    await gwen.send("new 2")
    table = (await gwen.expect("ok", cmd="sit"))["table"]
    await gwen.aclose()  # her seat is held, with her token
    await until_listed(dora, "who", "cal")
    await until_listed(dora, "tables", f"id={table} ")
    await dora.send(f"observe {table}")
    await dora.expect("ok", cmd="observe")
    stopped = trio.current_time()
    os.kill(workers.pids[1], signal.SIGSTOP)
    try:
        # worker 0 forgets worker 1, silent past server_dead_ms; and worker 1 is stopped
        # past it too: woken, it last heard worker 0 longer ago than that
        await _logged(workers, "worker_lost", worker=0, lost=_server_id(workers, 1))
        await trio.sleep_until(stopped + DEAD_S + 0.2)
    finally:
        os.kill(workers.pids[1], signal.SIGCONT)
    # the workers have heard each other again (worker 1's watcher, due at once, judged
    # before it answers dora: what worker 0 tells again comes in one notification)
    await until_listed(cal, "who", "dora")
    await until_listed(dora, "who", "cal")
    thief = await workers.reach(1, "thief")
    opened.append(thief)
    await thief.send("style machine")
    await thief.send("login gwen")
    await thief.expect("error", code="name-in-use")
    # worker 1, back, heard worker 0's beats (sent meanwhile) before it judged it: it
    # neither forgot it nor told dora its table closed
    await dora.send("ping")
    await dora.read_until(_pong)
    assert not [x for x in dora.lines if x.startswith("info ") and "closes" in x], dora.lines
    lost = [e for e in workers.events if e.get("event") == "worker_lost"]
    assert [e["worker"] for e in lost] == [0], lost


@pytest.mark.timeout(160)  # its fail_after(120), then its clean-up
async def test_replies_in_order_across_workers(postgres_url: str, tmp_path: Path) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(120):
        async with served_workers(postgres_url, settings_file(tmp_path, ORDER_SETTINGS)) as workers:
            try:
                await _a_stall_forgets_nothing(workers, opened)
                await _replies_in_order(workers, opened)
            finally:
                await close_all(opened)
