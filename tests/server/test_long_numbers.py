"""A command's number with more digits than ``int()`` reads (4,300), on a server whose
``max_line`` lets such a line in (up to 64 KiB): 'who', 'tables', 'sit', 'observe',
'unobserve', 'rules', 'top', 'new', 'seek', 'help' and 'bot search' each answered
``internal`` and logged a traceback (a hostile pass, s45). It is a number past every
table, page, count and level, refused as one of 1,000 digits is (docs/protocol.md §4),
its word said back cut."""

from __future__ import annotations

import pytest
import trio

from deberc_net.protocol.commands import PAST_ANY_NUMBER, SEQ_DIGITS, number_word
from tests.server.client import close_all, machine_client

from .conftest import StartServer

LONG = "9" * 5000


def test_a_number_past_what_int_reads_is_past_any_number() -> None:
    assert number_word(LONG) == PAST_ANY_NUMBER > int("9" * SEQ_DIGITS)
    assert number_word("0" * 5000 + "12") == 12  # leading zeros are no digits of it
    assert number_word("9" * SEQ_DIGITS) == int("9" * SEQ_DIGITS)
    assert number_word("٣") is None and number_word("") is None


@pytest.mark.timeout(30)
async def test_commands_given_a_number_too_long_refuse_it_as_any_other(
    start_server: StartServer,
) -> None:
    with trio.fail_after(20):
        port = await start_server(max_line=8192)
        ann, bob = await machine_client(port, "ann"), await machine_client(port, "bob")
        try:
            for line, code in [
                (f"who {LONG}", "bad-argument"),
                (f"tables {LONG}", "bad-argument"),
                (f"sit {LONG}", "unknown-table"),
                (f"sit 1 {LONG}", "unknown-table"),
                (f"observe {LONG}", "unknown-table"),
                (f"unobserve {LONG}", "unknown-table"),
                (f"rules {LONG}", "unknown-table"),
                (f"top {LONG}", "bad-argument"),
                (f"top moscow 2 {LONG}", "bad-argument"),
                (f"top moscow {LONG}", "bad-argument"),
                (f"new {LONG}", "bad-rules"),
                (f"seek {LONG}", "bad-rules"),
            ]:
                await ann.send(line)
                refused = await ann.expect("error")
                assert refused["code"] == code, (line[:20], refused)
                assert len(refused["text"]) < 300, line[:20]  # the word cut, not echoed
            await ann.send(f"help {LONG}")
            assert "no command" in (await ann.expect("help"))["text"]
            await ann.send("new 2")
            await ann.expect("ok", cmd="sit")
            await ann.send(f"bot search {LONG}")
            assert (await ann.expect("error"))["code"] == "bad-argument"
            await ann.send("who " + "0" * 5000 + "1")  # page 1, and nobody else noticed
            assert (await ann.expect("who"))["names"] == "ann,bob"
            await bob.send("ping")
            await bob.expect("ok", cmd="ping")
        finally:
            await close_all([ann, bob])
