"""A word typed half in Latin, half in Cyrillic letters that look alike is read as the
word it shows (docs/protocol.md §8). A new player's tryout typed 'играю чeрви' (a Latin
e) after the bidding and was told to name a suit, not that the bidding was over."""

from __future__ import annotations

from .client import help_texts, next_ask, seat_pair
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
    # (and chetyre-semerki before them, in the rare deal that gives the seat four sevens)
    assert ask["phase"] == "bidding" and ask["legal"].endswith("pas,igrayu"), ask
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
        assert error["code"] == "wrong-phase", error
        assert error["text"].startswith("bidding is over: it is the play now, "), error


async def test_help_reads_a_word_in_two_alphabets_as_a_table_call_does(
    port: int, connect: Connector
) -> None:
    """A tryout (s40): 'help чeрви' (a Latin e) answered 'no command' though a table
    call reads the same word as 'черви'; 'help pаs' (a Cyrillic а) was already read."""
    ann = await connect.machine(port, "ann")
    for lobby_or_table in ("lobby", "table"):
        plain = await help_texts(ann, "help черви")
        assert plain and not plain[0].startswith("no command"), plain
        assert await help_texts(ann, "help чeрви") == plain  # a Latin e in черви
        assert await help_texts(ann, "help pаs") == await help_texts(ann, "help pas")
        if lobby_or_table == "lobby":
            await ann.send("new 2")
            await ann.expect("ok", cmd="sit")
