"""/games/ID marks the calls the clock made for a seat (docs/web.md): a reader of a
replay told a player's own call from the clock's by nothing, though the record says
it (``"auto": true``, docs/records.md) and the table said it (``auto=1``, ``(by the
clock)``, docs/protocol.md §11.2)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
import trio
import trio.testing

from deberc_net.game.cards import parse_card
from deberc_net.protocol.lang import ru_card
from deberc_net.protocol.render import pretty_card
from tests.server.client import LineClient, fields, is_event
from tests.server.conftest import Connector

TALK = re.compile(r'<p class="talk">(.*?)</p>', re.S)
TRICKS = re.compile(r'<ol class="tricks">(.*?)</ol>', re.S)
TAG = re.compile(r"<[^>]+>")
CARD = re.compile(r"(?:10|[789JQKA])[shdc]")


def _text(html: str) -> str:
    return unescape(TAG.sub("", html))


def _choice(legal: list[str]) -> str:
    """igrayu when it may (no deal voided by passes), else a card, else the first."""
    if "igrayu" in legal:
        return "igrayu"
    return next((c for c in legal if CARD.fullmatch(c)), legal[0])


async def _play(client: LineClient, silent: dict[str, bool]) -> None:
    """Answer each ask, but let the clock answer the first ask of the bidding and the
    first of the play (whoever gets them); the seat whose card the clock played leaves
    once that trick is taken (the match ends: a forfeit)."""
    seat, leaving = "", False
    while True:
        line = await client.read_until(lambda _: True, 30)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "match-end"):
            return
        if is_event(line, "play") and f.get("auto") == "1":
            leaving = f["seat"] == seat
        elif is_event(line, "trick") and leaving:
            await client.send("leave!")
        elif tag == "ask":
            seat = f["seat"]
            if not silent.get(f["phase"], True):
                silent[f["phase"]] = True  # this one the clock answers
                continue
            await client.send(f"{_choice(f['legal'].split(','))} seq={f['seq']}")


async def _seated(
    start_web: Callable[..., Any], connect: Connector, new: str
) -> tuple[Any, LineClient, LineClient]:
    """A web server whose clock answers in 0.3 s (of the tests' virtual time), ann and
    bob seated at her ``new``."""
    web = await start_web(bot_clock_ms=300)
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send(new)
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    return web, ann, bob


@pytest.mark.timeout(60)
async def test_the_replay_marks_the_calls_the_clock_made(
    start_web: Callable[..., Any],
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    web, ann, bob = await _seated(start_web, connect, "new 2")
    silent = {"bidding": False, "play": False}
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_play, ann, silent)
            nursery.start_soon(_play, bob, silent)
        status, body = await web.get("/api/games/m1")
        assert status == 200
        english = (await web.get("/games/m1"))[1].decode()
        russian = (await web.get("/games/m1", {"Accept-Language": "ru"}))[1].decode()
    record = json.loads(body)["deals"][0]
    players = ("ann", "bob")
    auto = [c for c in record["calls"] if c.get("auto")]  # the machine form says it
    assert [c["call"] for c in auto] == ["pas", "play"], record["calls"]
    said, played = auto
    card = parse_card(played["card"])
    for page, clock, pas, shown in (
        (english, "(by the clock)", "pas", pretty_card(card)),
        (russian, "(по часам)", "пас", ru_card(card)),
    ):
        talk_found, tricks_found = TALK.search(page), TRICKS.search(page)
        assert talk_found and tricks_found, page
        talk = _text(talk_found[1])
        tricks = _text(tricks_found[1])
        assert f"{players[said['seat']]}: {pas} {clock}" in talk, talk
        assert talk.count(clock) == 1  # the others' calls are their own
        # in a trick taken, as the table said it: 'ann plays 7♠ (by the clock)'
        assert f"{players[played['seat']]} {shown} {clock}" in tricks, tricks
        assert tricks.count(clock) == 1, tricks


async def _until_broken_by_the_clock(client: LineClient) -> None:
    """Answer each ask with its first card (or the first call), never a break (the
    clock makes it); once the break is made, ann leaves (the match ends: a forfeit)."""
    while True:
        line = await client.read_until(lambda _: True, 30)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "match-end"):
            return
        if is_event(line, "call") and f["call"].startswith("lomayu-"):
            if client.label == "ann":
                await client.send("leave!")
        elif tag == "ask":
            legal = f["legal"].split(",")
            if any(c.startswith("lomayu-") for c in legal):
                continue  # the clock answers this one
            await client.send(
                f"{next((c for c in legal if CARD.fullmatch(c)), legal[0])} seq={f['seq']}"
            )


@pytest.mark.timeout(60)
async def test_the_replay_marks_a_tertz_break_the_clock_made(
    start_web: Callable[..., Any],
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    # the talk's entry was marked, the trick's 'bob breaks the deck: lomayu 1' not
    # (a tryout, s49): it read as the player's own break
    web, ann, bob = await _seated(start_web, connect, "new 2 tertz")
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_until_broken_by_the_clock, ann)
            nursery.start_soon(_until_broken_by_the_clock, bob)
        status, body = await web.get("/api/games/m1")
        assert status == 200
        english = (await web.get("/games/m1"))[1].decode()
        russian = (await web.get("/games/m1", {"Accept-Language": "ru"}))[1].decode()
    record = json.loads(body)["deals"][0]
    broke = next(c for c in record["calls"] if c["call"].startswith("lomayu-"))
    assert broke.get("auto") is True, record["calls"]
    name, n = ("ann", "bob")[broke["seat"]], record["talon_broken"]
    breaks = re.compile(r'<span class="break">(.*?)</span></span>', re.S)
    for page, said in (
        (english, f"{name} breaks the deck: lomayu {n} (by the clock)"),
        (russian, f"{name}: ломаю {n} (по часам)"),
    ):
        found = breaks.search(page)
        assert found and _text(found[1]).endswith(said), page
