"""A word typed half in Latin, half in Cyrillic letters that look alike is read as the
word it shows (docs/protocol.md §8). A new player's tryout typed 'играю чeрви' (a Latin
e) after the bidding and was told to name a suit, not that the bidding was over."""

from __future__ import annotations

from .client import next_ask, seat_pair
from .conftest import Connector


async def test_a_word_in_two_alphabets_is_read_as_the_word_it_shows(
    port: int, connect: Connector
) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, "2")
    asked = await next_ask(ann, bob)
    assert asked is not None
    ask, bidder = asked
    assert ask["phase"] == "bidding" and ask["legal"] == "pas,igrayu", ask
    await bidder.send(f"pаs seq={ask['seq']}")  # a Cyrillic а: pas, played
    asked = await next_ask(ann, bob)
    assert asked is not None
    ask, bidder = asked
    assert ask["talk"].endswith(":pas") and ask["phase"] == "bidding", ask
    await bidder.send(f"igrayu seq={ask['seq']}")
    await ann.send("ping")
    await ann.expect("ok", cmd="ping")
    for client in (ann, bob):  # a call now, refused for the phase: not 'name a suit'
        await client.send("играю чeрви")  # a Latin e in черви
        error = await client.expect("error")
        assert error == {"code": "wrong-phase", "text": "bidding is over"}, error
