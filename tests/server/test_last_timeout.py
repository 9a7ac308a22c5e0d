"""An ``ask`` whose clock running out would forfeit the match says so to a program,
``last_timeout=3`` (docs/protocol.md §6.3, §11.3), as the human style's warning does
to a person (§11.1): the terminal client, a program, could not warn its player of the
timeout that loses (a review, s45). Only that ask (and a repeat of it): not before the
seat's second timeout in a row, nor after a call of its own."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest
import trio
from trio.testing import MockClock

from .client import LineClient, fields, random_legal, seat_pair
from .conftest import Connector


async def answer_every_ask(client: LineClient, rng: random.Random) -> None:
    while True:
        ask = await client.expect("ask", timeout=600)
        await client.send(f"{random_legal(ask, rng)} seq={ask['seq']}")


async def next_ask_or_end(slow: LineClient) -> dict[str, str]:
    """The next ``ask`` to ``slow``, or the match's end (its fields, with ``tag``)."""
    line = await slow.read_until(
        lambda x: x.startswith("ask ") or " kind=match-end " in x, timeout=600
    )
    tag, told = fields(line)
    return {"tag": tag, **told}


@pytest.mark.timeout(60)
async def test_the_ask_whose_timeout_would_lose_the_game_says_so(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    nursery: trio.Nursery,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()  # max_timeouts 3, a program's clock 10 s
    ann = await connect.machine(port, "ann")
    slow = await connect.machine(port, "slow")
    _, _, seat = await seat_pair(ann, slow)
    nursery.start_soon(answer_every_ask, ann, random.Random(1))
    rng = random.Random(2)
    # slow lets two clocks run out, answers the third ask himself, lets two more run
    # out, asks for the sixth again ('state') and lets it run out: the match is lost
    for number, answers in enumerate((False, False, True, False, False, False), 1):
        ask = await next_ask_or_end(slow)
        assert ask["tag"] == "ask", (number, ask)
        last = number in (3, 6)  # after two timeouts in a row
        assert ask.get("last_timeout") == ("3" if last else None), (number, ask)
        if answers:
            await slow.send(f"{random_legal(ask, rng)} seq={ask['seq']}")
        if number == 6:
            await slow.send("state")
            again = await next_ask_or_end(slow)
            assert again["seq"] == ask["seq"] and again["last_timeout"] == "3", again
    end = await next_ask_or_end(slow)
    assert end["tag"] == "event" and end["reason"] == "timeouts", end
    assert end["forfeit"] == str(seat), end
