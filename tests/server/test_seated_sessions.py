"""A table keeps its seats' sessions between events (Table._seated_sessions), looked up
again after a seat is taken or left and after any login or logout here (the lobby's
``Online`` counts them); each such change, and the changes it does not keep (a style,
a ``tell=``, a watcher), shows at once in who is told what."""

from __future__ import annotations

import functools
import random
from typing import cast

import trio

from deberc_net.protocol.render import Style
from deberc_net.server.lobby import Online
from deberc_net.server.session import Outbox, Session

from .client import fields, is_event, play_machine, random_legal, seat_pair
from .conftest import Connector


def test_online_counts_each_change() -> None:
    online = Online()
    session = cast(Session, object())  # (only kept, never used)
    counts = []
    online["ann"] = session
    counts.append(online.changes)
    online.setdefault("bob", session)
    counts.append(online.changes)
    online.pop("bob")
    counts.append(online.changes)
    online.update(carl=session)
    counts.append(online.changes)
    online |= {"dave": session}
    counts.append(online.changes)
    online.popitem()
    counts.append(online.changes)
    del online["ann"]
    counts.append(online.changes)
    online.clear()
    counts.append(online.changes)
    assert counts == list(range(1, 9)) and online == {}
    assert online.get("ann") is None and "ann" not in online and online.changes == 8


async def test_a_seat_left_then_taken_tells_the_sitter_not_the_leaver(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    carl = await connect.machine(port, "carl")
    dave = await connect.machine(port, "dave")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await ann.expect("event", kind="seated", name="bob")  # the seats looked up, kept
    await bob.send("leave")
    await bob.expect("ok", cmd="leave")
    await ann.expect("event", kind="left", name="bob")
    await carl.send(f"sit {table}")
    await carl.expect("ok", cmd="sit")
    await ann.expect("event", kind="seated", name="carl")
    await dave.send(f"sit {table}")
    await dave.expect("ok", cmd="sit")
    await ann.expect("event", kind="seated", name="dave")
    for player in (ann, carl, dave):  # the match starts for the three seated now
        await player.read_until(lambda x: x.startswith(("ask ", "state ")))
    told_bob = [x for x in await bob.caught_up() if f"table={table}" in x]
    assert told_bob == []  # not one line of the table he left


async def test_a_style_and_tell_changed_mid_match_show_at_once(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    rng = random.Random(5)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(functools.partial(play_machine, bob, random.Random(6), timeout=20))
        # ann plays in the machine style until asked twice, then turns human
        for _ in range(2):
            ask = fields(await ann.read_until(lambda x: x.startswith("ask ")))[1]
            await ann.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
        ask = fields(await ann.read_until(lambda x: x.startswith("ask ")))[1]
        await ann.send("style human")
        await ann.read_until(lambda x: x.startswith("Style human"))
        start = len(ann.lines)
        await ann.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
        prompt = await ann.read_until(lambda x: x.startswith("Your call"))
        told = ann.lines[start:]
        assert prompt and not any(x.startswith(("event ", "ask ")) for x in told), told
        # back to the machine style, told only its asks: no event line, asks still
        await ann.send("style machine tell=asks")
        await ann.take(lambda x: x.startswith("ok ") and "cmd=style" in x)
        await ann.send("state")
        asks = 0
        start = len(ann.lines)
        while asks < 3:
            line = await ann.read_until(lambda x: x.startswith(("ask ", "state ")))
            tag, ask = fields(line)
            if tag == "ask":
                asks += 1
                await ann.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
        told = ann.lines[start:]
        assert not any(x.startswith("event ") for x in told), told
        await ann.send("style machine")  # every line again, to the match's end
        await ann.take(lambda x: x.startswith("ok ") and "cmd=style" in x)
        end = await play_machine(ann, rng, timeout=10)
    assert is_event(end, "match-end")


async def test_a_watcher_is_told_while_watching_and_not_after(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    carl = await connect.machine(port, "carl")
    table, _, _ = await seat_pair(ann, bob)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(6))
        nursery.start_soon(play_machine, bob, random.Random(7))
        await carl.send(f"observe {table}")
        await carl.expect("ok", cmd="observe")
        await bob.seen(lambda x: is_event(x, "observer") and "name=carl watching=1" in x)
        for _ in range(3):  # the play goes on, and carl sees it
            await carl.read_until(lambda x: is_event(x, "card") or is_event(x, "call"))
        await carl.send(f"unobserve {table}")
        await carl.expect("ok", cmd="unobserve")
        await bob.seen(lambda x: is_event(x, "observer") and "name=carl watching=0" in x)
        stopped = len(carl.lines)
        seen = len(bob.lines)
        with trio.fail_after(30):  # bob is told three more lines: carl none of them
            while len(bob.lines) < seen + 3:
                await trio.sleep(0.01)
        await carl.caught_up()  # (lines of the table sent him with bob's would be in)
        assert [x for x in carl.lines[stopped:] if f"table={table}" in x] == []
        nursery.cancel_scope.cancel()


def test_sessions_share_the_style_text_they_chose() -> None:
    """'style machine' sets the style's one text, not a copy of it per connection (an
    idle connection's bytes, docs/performance.md); the style reads as chosen."""
    ann, bob = (Session(n, Outbox(1 << 16), trio.CancelScope()) for n in (1, 2))
    for style in (Style.MACHINE, Style.HUMAN):
        ann.style, bob.style = str(style), str(style)
        assert ann.style == bob.style == style
        assert ann.style is bob.style
        assert type(ann.style) is str
    ann.style = "anything else"  # (no other style gets here: kept as it came)
    assert ann.style == "anything else"
