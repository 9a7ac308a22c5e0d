"""A client's word quoted back in a refusal is cut at 40 characters, '…' after them (a
hostile tryout: a word of 1000 letters came back whole, as many bytes as were sent), in
English and in Russian, in the lobby and at a table."""

from __future__ import annotations

import pytest
import trio

from .client import fields
from .conftest import Connector

LONG = "x" * 900
CUT = "x" * 40 + "…"


def _text(line: str) -> str:
    return fields(line)[1].get("text", line)


@pytest.mark.timeout(60)
async def test_a_long_word_is_said_back_cut(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    said = {
        LONG: f"'{CUT}' is not a command, and you sit at no table. Type 'help'.",
        f"help {LONG}": f"no command '{CUT}'; 'help' lists them, 'calls' lists the table calls",
        f"bot {LONG}": f"no bot '{CUT}'",
        f"new {LONG}": f"unknown option '{CUT}': PLAYERS is a number",
        f"new 2 {LONG}": f"unknown option '{CUT}'; variants:",
        f"seek 2 {LONG}": f"unknown option '{CUT}'; variants:",
    }
    with trio.fail_after(20):
        for line, told in said.items():
            await ann.send(line)
            got = await ann.read_until(lambda x: x.startswith(("error ", "help ")))
            assert _text(got).startswith(told), got
            assert LONG not in got and len(got) < 1000
    # in Russian (a person's screen), the same
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await vera.read_until(lambda x: "русск" in x.lower())
    asked = ((LONG, "Ошибка (unknown-command): «"), (f"help {LONG}", "нет команды «"))
    with trio.fail_after(20):  # (lines wrapped at 80 columns: the quote begins one)
        for line, told in asked:
            await vera.send(line)

            def telling(x: str, told: str = told) -> bool:
                return told in x

            got = await vera.read_until(telling)
            assert f"«{CUT}»" in got, got
    assert LONG[:100] not in "".join(vera.lines)


@pytest.mark.timeout(60)
async def test_a_long_call_at_a_table_is_said_back_cut(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    told = {
        LONG: f"not a table call: '{CUT}'",
        f"pas {LONG}": f"not a table call: 'pas {CUT[:36]}…'",
        f"igrayu {LONG}": f"name a suit: igrayu s|h|d|c (got 'igrayu {CUT[:33]}…')",
    }
    with trio.fail_after(20):
        for line, said in told.items():
            await ann.send(line)
            got = await ann.expect("error", code="unknown-command")
            assert got["text"].startswith(said), got
            assert LONG not in got["text"] and len(got["text"]) < 200
