"""Over a real socket, a bid typed as a sentence ends (``пас.``, ``играю!``) is the
call (docs/protocol.md §8.2; a Russian-speaking tryout, s50)."""

from __future__ import annotations

from .client import next_ask, seat_pair
from .conftest import Connector


async def test_a_bid_with_a_full_stop_or_a_bang_is_the_bid(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob)
    found = await next_ask(ann, bob)
    assert found is not None
    ask, first = found
    assert ask["phase"] == "bidding"
    await first.send("пас.")
    await first.read_until(lambda x: "kind=call" in x and "call=pas" in x)
    found = await next_ask(ann, bob)
    assert found is not None
    ask, second = found
    assert second is not first and "igrayu" in ask["legal"].split(",")
    await second.send("играю!")
    await second.read_until(lambda x: "kind=call" in x and "call=igrayu" in x)
