"""A table call's ``seq=N`` with more digits than ``int()`` reads (a server whose
``max_line`` lets such a line in): the line was read by raising, and its connection
dropped as an internal error (a review, s44). It is no request number, as ``seq=٤``
is not (docs/protocol.md §7); leading zeros are no digits of the number."""

from __future__ import annotations

import pytest
import trio

from deberc_net.protocol.commands import SEQ_DIGITS, TableCallText, parse_line
from tests.server.client import close_all, machine_client, next_ask, seat_pair

from .conftest import StartServer


def test_a_number_too_long_is_no_request_number() -> None:
    too_long = "Kc seq=" + "1" * 5000
    assert parse_line(too_long) == TableCallText(too_long)
    assert parse_line("Kc seq=" + "9" * SEQ_DIGITS) == TableCallText("Kc", int("9" * SEQ_DIGITS))
    assert parse_line("Kc seq=" + "0" * 5000 + "8") == TableCallText("Kc", 8)


@pytest.mark.timeout(30)
async def test_a_call_with_a_seq_too_long_is_refused_and_the_player_stays(
    start_server: StartServer,
) -> None:
    with trio.fail_after(20):
        port = await start_server(max_line=8192)
        ann, bob = await machine_client(port, "ann"), await machine_client(port, "bob")
        try:
            await seat_pair(ann, bob)
            asked = await next_ask(ann, bob)
            assert asked is not None
            ask, seat = asked
            card = ask["legal"].split(",")[0]
            await seat.send(f"{card} seq=" + "7" * 5000)
            refused = await seat.expect("error")  # (its text shortened: not 5000 digits)
            assert refused["code"] == "unknown-command", refused
            assert len(refused["text"]) < 200
            # still seated and heard: the request stands, answered with its seq=
            await seat.send(f"{card} seq=" + "0" * 5000 + ask["seq"])
            took = await seat.read_until(lambda x: x.startswith("event ") and " auto=0" in x)
            assert f"={card} " in took, took  # its call, or its card
        finally:
            await close_all([ann, bob])
