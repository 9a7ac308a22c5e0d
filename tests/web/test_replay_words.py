"""The replay page as a person reads it (docs/web.md, /games/ID): four players headed
as their pairs (on /players/NAME too), each hand sorted as the human style sorts it, the
talk spoken as the human style writes it, each trick as its history writes one."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from pathlib import Path

import trio

from deberc_net.game.calls import PLAY, from_record
from deberc_net.game.cards import parse_card
from deberc_net.protocol.lang import spoken_call
from tests.server.client import play_machine
from tests.server.conftest import Connector

from .servers import web_server
from .tricks import deal_tricks

NAMES = ("ann", "bob", "cat", "dan")
LINK = '<a href="/players/{}">{}</a>'
HANDS = re.compile(r'<table class="hands"><tbody>(.*?)</tbody></table>', re.S)
TALK = re.compile(r'<p class="talk">Talk: (.*?)</p>', re.S)


async def test_a_four_player_replay_reads_as_the_human_style_writes(
    db_path: Path, connect: Connector
) -> None:
    with trio.fail_after(60):
        async with web_server(db_path) as web:
            clients = []
            for name in NAMES:  # seats in the order they come: ann 0, bob 1, cat 2, dan 3
                client = await connect.machine(web.port, name)
                await client.send("seek 4 moscow to-301")
                await client.expect("ok")
                clients.append(client)
            async with trio.open_nursery() as nursery:
                for seed, client in enumerate(clients):
                    nursery.start_soon(play_machine, client, random.Random(seed))
            status, body = await web.get("/api/games/m1")
            assert status == 200
            game = json.loads(body)
            players = game["players"]
            status, body = await web.get("/games/m1")
            page = body.decode()
            assert status == 200
            link = [LINK.format(p, p) for p in players]
            pairs = (
                f'<span class="pair">{link[0]} and {link[2]}</span> v '
                f'<span class="pair">{link[1]} and {link[3]}</span>'
            )
            assert pairs in page
            hands = HANDS.findall(page)
            talks = iter(TALK.findall(page))
            assert len(hands) == len(game["deals"])
            for shown, record in zip(hands, game["deals"], strict=True):
                for row in re.findall(r"<td>(.*?)</td>", shown):
                    cards = [parse_card(c) for c in re.findall(r'data-card="(\w+)"', row)]
                    assert cards == sorted(cards)  # ♠ ♥ ♦ ♣, each 7 … A
                said = [
                    spoken_call(from_record(e).token())
                    for e in record["calls"]
                    if e["call"] != PLAY and "penalty" not in e
                ]
                if said:
                    talk = re.findall(r"<span>\w+: (.*?)</span>", next(talks))
                    # (a call said after the first trick names its trick: a later bella)
                    talk = [re.sub(r" \(trick \d+\)$", "", t) for t in talk]
                    # the cards a 'pokazyvayu' showed follow it (docs/web.md)
                    assert all(
                        talk[at - 1] == "pokazyvayu"
                        for at, text in enumerate(talk)
                        if text.startswith("shows ")
                    )
                    assert [t for t in talk if not t.startswith("shows ")] == said
            # each trick as a card player reads it: who played each card, who took it
            tricks = TRICKS.findall(page)
            for shown, record in zip(tricks, game["deals"], strict=True):
                said = [words(li) for li in re.findall(r"<li>(.*?)</li>", shown, re.S)]
                assert said == deal_tricks(players, record)
            status, body = await web.get(f"/players/{players[0]}")
            assert status == 200 and pairs in body.decode()


def words(html: str) -> str:
    """What a reader reads of a bit of the page: its text, tags left out."""
    return unescape(re.sub(r"<[^>]+>", "", html)).strip()


TRICKS = re.compile(r'<ol class="tricks">(.*?)</ol>', re.S)
DRAW = re.compile(r'(\w+) draws <span class="card suit-\w" data-card="(\w+)"')


async def test_a_tertz_replay_shows_the_break_the_draws_and_the_talon(
    db_path: Path, connect: Connector
) -> None:
    """/games/ID of a Tertz match: who broke the deck and by how many, after each trick
    who drew which card and the talon left, as the record says (tryout s13)."""
    with trio.fail_after(60):
        async with web_server(db_path) as web:
            clients = []
            for name in NAMES[:2]:
                client = await connect.machine(web.port, name)
                await client.send("seek 2 tertz to-301")
                await client.expect("ok")
                clients.append(client)
            async with trio.open_nursery() as nursery:
                for seed, client in enumerate(clients):
                    nursery.start_soon(play_machine, client, random.Random(seed))
            game = json.loads((await web.get("/api/games/m1"))[1])
            page = (await web.get("/games/m1"))[1].decode()
    players = game["players"]
    tricks = TRICKS.findall(page)
    assert len(tricks) == len(game["deals"]) and page.count("Talon <span") == len(tricks)
    for shown, record in zip(tricks, game["deals"], strict=True):
        drawn = [[players.index(name), c] for name, c in DRAW.findall(shown)]
        assert drawn == record["draws"]
        talons = [int(n) for n in re.findall(r'talon <span class="talon">(\d+)</span>', shown)]
        assert talons == list(range(12, 12 - 2 * len(talons), -2))
        first = record["tricks"][0]
        loser = players[1 - first["winner"]]
        assert f"{loser} breaks the deck: lomayu {record['talon_broken']}" in shown
