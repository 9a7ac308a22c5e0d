"""A third-party rule's call, typed in its own spoken words at a real table.

examples/perezdacha is installed by ``make test``: its call ``perezdacha`` gets the
words ``пересдача`` and ``redeal`` through ``deberc_call_aliases``.
"""

from __future__ import annotations

import json
from typing import Any

import trio

from .client import LineClient, fields, is_event, seat_pair
from .conftest import Connector


async def answer_until_redeal(client: LineClient, word: str) -> dict[str, Any]:
    """Order when asked, say ``word`` when perezdacha is legal, else the first legal
    call; the deal's record once it ends. Any error fails the test."""
    while True:
        line = await client.read_until(lambda _: True)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if tag == "record":
            record: dict[str, Any] = json.loads(f["text"])
            return record
        if tag == "ask":
            legal = f["legal"].split(",")
            call = word if "perezdacha" in legal else "igrayu" if "igrayu" in legal else legal[0]
            await client.send(f"{call} seq={f['seq']}")


async def test_a_plugins_call_is_heard_in_its_words(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, "2 perezdacha")
    records: dict[str, dict[str, Any]] = {}

    async def run(client: LineClient) -> None:
        records[client.label] = await answer_until_redeal(client, "пересдача")

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run, ann)
            nursery.start_soon(run, bob)
    record = records["ann"]
    assert record == records["bob"]
    assert record["outcome"] == "redeal" and record["options"] == ["perezdacha"]
    # broadcast and recorded in canonical form, whatever was typed
    assert [c["call"] for c in record["calls"]][-1] == "perezdacha"
    assert any(is_event(line, "call") and "perezdacha" in line for line in ann.lines)


async def test_its_outcome_is_said_in_its_russian_words(port: int, connect: Connector) -> None:
    """A plugin's own outcome ('redeal') in the Russian it gives (``RuleInfo.outcomes_ru``):
    a Russian kibitzer was told «Раздача 1: redeal.»."""
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    table, _, _ = await seat_pair(ann, bob, "2 perezdacha")
    kibitzer = await connect.human(port, "vera")
    await kibitzer.send("lang ru")
    await kibitzer.send(f"observe {table}")
    await kibitzer.read_until(lambda line: line.startswith("Вы смотрите"))

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(answer_until_redeal, ann, "perezdacha")
            nursery.start_soon(answer_until_redeal, bob, "perezdacha")
    said = await kibitzer.read_until(lambda line: line.startswith("Раздача 1: "))
    assert said.startswith("Раздача 1: пересдача по просьбе."), said


async def test_its_words_are_no_call_at_other_tables(port: int, connect: Connector) -> None:
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await seat_pair(ann, bob, "2")
    errors: list[dict[str, str]] = []

    async def say_it_when_asked(client: LineClient, done: trio.CancelScope) -> None:
        ask = await client.expect("ask")
        await client.send(f"пересдача seq={ask['seq']}")
        errors.append(await client.expect("error"))
        done.cancel()  # the other seat is never asked: nobody has acted

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(say_it_when_asked, ann, nursery.cancel_scope)
            nursery.start_soon(say_it_when_asked, bob, nursery.cancel_scope)
    assert [e["code"] for e in errors] == ["unknown-command"]
