"""'rules' is built once a rule set and kept (docs/security.md §2): a hostile tryout
(s29) sent it from 50 connections at their allowance and the server, rebuilding the
whole list each time, served an honest player's calls in half a second."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from deberc_net.plugins.manager import summary_for
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.server import help as H

from .client import LineClient, fields
from .conftest import Connector


async def told(client: LineClient, line: str) -> list[str]:
    """The texts of the 'rules' lines answering ``line`` (a 'ping' after it marks
    their end)."""
    await client.send(line)
    await client.send("ping")
    texts = []
    while (said := await client.read_until(lambda _: True)) != "ok cmd=ping text=pong":
        tag, values = fields(said)
        if tag == "rules":
            texts.append(str(values["text"]))
    return texts


async def test_the_rules_texts_are_built_once_and_tell_each_table_its_own_number(
    port: int, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[str] = []

    def counted(name: str, build: Callable[..., Any]) -> Callable[..., Any]:
        def count(*args: Any, **kwargs: Any) -> Any:
            built.append(name)
            return build(*args, **kwargs)

        return count

    monkeypatch.setattr(H, "summary_for", counted("list", summary_for))
    say = phrase

    def clock_counted(key: Msg, **values: Any) -> Any:
        if key is Msg.RULES_CLOCK:  # (a table's clock line: once a table's text)
            built.append("table")
        return say(key, **values)

    monkeypatch.setattr(H, "phrase", clock_counted)
    ann, bob = await connect.machine(port, "ann"), await connect.machine(port, "bob")
    lists = [await told(client, "rules") for client in (ann, bob, ann)]
    assert lists[0] == lists[1] == lists[2] and len(lists[0]) > 10
    assert built and set(built) == {"list"}  # one build: a summary per rule, once
    built.clear()
    tables = []
    for client in (ann, bob):
        await client.send("new 2 to-301")
        tables.append((await client.expect("ok", cmd="sit"))["table"])
    for client, table in [(ann, tables[0]), (bob, tables[1]), (ann, tables[1])]:
        first, *rest = await told(client, f"rules {table}")
        assert re.match(rf"Table {table}: moscow for 2 players", first), first
        assert rest[0].startswith("to-301: ")
    assert built == ["table"]  # the two tables play one rule set
