"""A Tertz break the clock made (the loser of the first trick let the prompt run out)
is marked as the clock's, as the table said it live (`clocky: lomayu 1 (by the
clock)`) and the web replay shows it: in 'history' and 'state' in the human style, in
English and Russian, and in the machine style's `history-deal` as `broken_auto=1`
(docs/protocol.md §5.17; a tryout, s49)."""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable

import pytest
import trio
import trio.testing

from clients.play.replies import history_text
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.wire import parse_line

from .client import LineClient, fields, is_event
from .conftest import Connector

PONG = ("pong", "ok cmd=ping text=pong")
CARD = re.compile(r"(?:10|[789JQKA])[shdc]")


async def _until_clock_break(client: LineClient, broke: dict[str, str]) -> None:
    """Answer every ask with its first card (or the first call), but never a break:
    return once the clock has made it (its call event, auto=1)."""
    while True:
        line = await client.read_until(lambda _: True, 30)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "call") and f["call"].startswith("lomayu-"):
            broke.update(f)
            return
        if tag == "ask":
            legal = f["legal"].split(",")
            if any(c.startswith("lomayu-") for c in legal):
                continue  # the clock answers this one
            call = next((c for c in legal if CARD.fullmatch(c)), legal[0])
            await client.send(f"{call} seq={f['seq']}")


def _watches(name: str, line: str) -> bool:
    """Whether ``line`` says ``name`` watches the table (either language)."""
    return line.startswith(f"{name} ")


async def _answer(client: LineClient, command: str) -> list[str]:
    """The lines that come before the answer to a ``ping`` sent after ``command``
    (replies come in order), in either language."""
    await client.send(command)
    await client.send("ping")
    said: list[str] = []
    while (line := await client.read_until(lambda _: True)) not in (
        "pong",
        "ok cmd=ping text=pong",
    ):
        said.append(line)
    return said


@pytest.mark.timeout(60)
async def test_history_and_state_mark_a_break_the_clock_made(
    start_server: Callable[..., Awaitable[int]],
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    # on virtual time: the clock's 2 s for the break was most of the test, waited for real
    port = await start_server(bot_clock_ms=2000)
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    eve = await connect.human(port, "eve")
    vera = await connect.human(port, "vera")
    await vera.send("lang ru")
    await ann.send("new 2 tertz")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    for watcher in (eve, vera):  # watching from the match's start
        await watcher.send(f"observe {table}")
        await watcher.read_until(functools.partial(_watches, watcher.label))
    broke: dict[str, str] = {}
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            await bob.send(f"sit {table}")
            nursery.start_soon(_until_clock_break, ann, broke)
            nursery.start_soon(_until_clock_break, bob, {})
    assert broke["auto"] == "1", broke
    n = int(broke["call"].removeprefix("lomayu-"))
    name = ("ann", "bob")[int(broke["seat"])]
    with trio.fail_after(20):
        raw = await _answer(ann, "history")
        told = await _answer(eve, "history")
        told_ru = await _answer(vera, "history")
        state = await _answer(eve, "state")
        state_ru = await _answer(vera, "state")
    deal = next(fields(x)[1] for x in raw if x.startswith("history-deal "))
    assert (deal["broken"], deal["broken_auto"]) == (str(n), "1"), raw
    assert raw[-1].startswith("history-trick ")  # (appended to the deal's line: §1)
    assert f"      {name} breaks the deck: lomayu {n} (by the clock)" in told, told
    assert f"      {name}: ломаю {n} (по часам)" in told_ru, told_ru
    assert f"Talk: {name} lomayu {n} (by the clock)" in state, state
    assert f"Разговор: {name} ломаю {n} (по часам)" in state_ru, state_ru
    # the terminal client reads the machine lines back as the human style says them
    head = next(i for i, x in enumerate(raw) if x.startswith("history "))
    shown = history_text([parse_line(x) for x in raw[head:]], ["ann", "bob"])
    assert f"      {name} breaks the deck: lomayu {n} (by the clock)" in shown, shown
    shown_ru = history_text([parse_line(x) for x in raw[head:]], ["ann", "bob"], lang=Lang.RU)
    assert f"      {name}: ломаю {n} (по часам)" in shown_ru, shown_ru
