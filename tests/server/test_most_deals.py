"""A match ends after the server's most deals (``max_match_deals``, docs/protocol.md
§9.7), over real TCP: two players passing every deal played 18,000 void deals in 20 s
of one match (hostile tryout, s24), its records, memory, history and replay growing
without end."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from .client import LineClient, fields, is_event, seat_pair
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


async def _pass_every_time(client: LineClient) -> dict[str, str]:
    """Answer every ask with 'pas' until the match ends; the match-end's fields."""
    while True:
        line = await client.read_until(lambda x: x.startswith("ask ") or is_event(x, "match-end"))
        tag, f = fields(line)
        if tag != "ask":
            return f
        await client.send(f"pas seq={f['seq']}")


async def test_a_match_whose_deals_all_void_ends_at_the_servers_most_deals(
    start_server: StartServer, connect: Connector
) -> None:
    port = await start_server(max_match_deals=3)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    ends: list[dict[str, str]] = []

    async def play(client: LineClient) -> None:
        ends.append(await _pass_every_time(client))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, ann)
        nursery.start_soon(play, bob)
    for end in ends:
        assert (end["reason"], end["winner"], end["totals"]) == ("most-deals", "-", "0,0")
    voids = [x for x in ann.lines if is_event(x, "deal-end")]
    assert [fields(x)[1]["outcome"] for x in voids] == ["void"] * 3
    await ann.send("games")
    assert (await ann.expect("game"))["reason"] == "most-deals"
