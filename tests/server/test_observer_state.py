"""An observer's 'state' spends the lists allowance, per connection and per address (a
hostile tryout: 100-300 observers each asking it at the flood limit held two thirds of
a core; its answer is a long line); a seated player's is free, a bot's own view."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import trio

from .client import fields
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


def _answers(lines: list[str]) -> list[str]:
    """Each line's tag, an error's code after it; events (others coming, calls) left out."""
    said = []
    for line in lines:
        tag, f = fields(line)
        if tag != "event":
            said.append(f"{tag} {f['code']}" if tag == "error" else tag)
    return said


@pytest.mark.timeout(60)
async def test_an_observers_state_spends_the_lists_allowance(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(
        lists_burst=2, lists_per_s=0.001, lists_per_address_burst=3, lists_per_address_per_s=0.001
    )
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    cat = await connect.machine(port, "cat", source="127.0.0.2")
    dan = await connect.machine(port, "dan", source="127.0.0.2")
    with trio.fail_after(20):
        for watcher in (cat, dan):
            await watcher.send(f"observe {table}")
            await watcher.expect("ok", cmd="observe")
            await watcher.expect("state")  # observing tells the view, and costs nothing
        mark = cat.pos
        await cat.send_raw(b"state\nstate\nstate\nping\n")
        await cat.expect("ok", cmd="ping")
        said = cat.lines[mark : cat.pos]
        assert _answers(said) == ["state", "state", "error slow-down", "ok"], said
        refused = fields(next(x for x in said if x.startswith("error ")))[1]
        seconds = -(-int(refused.pop("wait_ms")) // 1000)
        assert refused == {
            "code": "slow-down",
            "text": f"too many 'state' at once: wait {seconds} s",
        }
        # the address's 3: dan has one left of it, not his own 2
        mark = dan.pos
        await dan.send_raw(b"state\nstate\nping\n")
        await dan.expect("ok", cmd="ping")
        assert _answers(dan.lines[mark : dan.pos]) == ["state", "error slow-down", "ok"]
        # a seated player's view is his own: never refused (a bot asks it after a stale
        # answer, and for the out-of-turn calls)
        for player in (ann, bob):
            mark = player.pos
            await player.send_raw(b"state\n" * 6 + b"ping\n")
            await player.expect("ok", cmd="ping")
            views = _answers(player.lines[mark : player.pos])
            assert len([t for t in views if t in ("ask", "state")]) >= 6, views
            assert not [t for t in views if t.startswith("error")], views
