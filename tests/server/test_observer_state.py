"""A person's 'state' while observing, in the human style (a board of many lines for a
short line), spends the lists allowance, per connection and per address (a hostile
tryout: 100-300 human-style observers asking it at the flood limit held two thirds of
a core). A machine-style observer's (one line, asked after each event by a watching
program) and a seated player's (his own view, a bot's after a stale answer) are free."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import trio

from .client import LineClient, fields, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
REFUSED = "too many 'state' at once"


async def _told_after(client: LineClient, data: bytes, end: str) -> list[str]:
    """The lines ``client`` is told after sending ``data``, up to one containing ``end``."""
    mark = client.pos
    await client.send_raw(data)
    await client.read_until(lambda x: end in x)
    return client.lines[mark : client.pos]


@pytest.mark.timeout(60)
async def test_a_persons_state_while_observing_spends_the_lists_allowance(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(
        lists_burst=2, lists_per_s=0.001, lists_per_address_burst=3, lists_per_address_per_s=0.001
    )
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob)
    with trio.fail_after(20):
        cat = await connect.human(port, "cat")  # (127.0.0.1, as ann and bob: a person
        await cat.send(f"observe {table}")  # behind the players' address shares theirs)
        await cat.read_until(lambda x: x.startswith("Waiting for"))  # the view: free
        said = await _told_after(cat, b"state\nstate\nstate\nping\n", "pong")
        assert sum(REFUSED in x for x in said) == 1, said
        # a machine-style watcher (a program asking the view after each event) is never
        # refused, nor a seated player (a bot's own view after a stale answer)
        for client in (await connect.machine(port, "dan"), ann, bob):
            if client not in (ann, bob):
                await client.send(f"observe {table}")
                await client.expect("ok", cmd="observe")
            said = await _told_after(client, b"state\n" * 8 + b"ping\n", "cmd=ping")
            views = [fields(x)[0] for x in said]
            assert views.count("state") + views.count("ask") >= 8, said
            assert "error" not in views, said
