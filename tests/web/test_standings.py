"""The standings page, /top and /api/top (docs/web.md): the places, ratings and records
'top' tells on the game port, paged as 'top' pages them; a player's page says each of
his ratings' places as 'finger' does. A real server, real rated matches."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
import trio

from clients.client import Bot
from tests.server.client import LineClient
from tests.server.conftest import Connector

from .conftest import WebServer

StartWeb = Callable[..., Any]
NAMES = ("ann", "bob", "cat", "dan")
RUSSIAN = {"Accept-Language": "ru"}


async def rated_matches(web: WebServer) -> None:
    """Four registered players, two rated matches of Moscow for two at once."""
    rng = random.Random(5)

    def choose(view: Any) -> str:
        call: str = rng.choice(view.legal)
        return call

    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            for name in NAMES:
                bot = Bot(choose, name, port=web.port, password=f"pw-{name}-1")
                bot.seek, bot.games = "2 short", 1
                nursery.start_soon(bot.run)


async def told_top(eve: LineClient, asked: str) -> list[dict[str, str]]:
    """The rated lines of ``asked`` ('top moscow 2 2') on the game port."""
    await eve.send(asked)
    head = await eve.expect("top")
    return [await eve.expect("rated") for _ in range(int(head["count"]))]


@pytest.mark.timeout(90)
async def test_the_standings_are_tops_paged_as_top_pages_them(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web(page_size=3)
    await rated_matches(web)
    eve = await connect.machine(web.port, "eve")
    told = await told_top(eve, "top moscow 2 1") + await told_top(eve, "top moscow 2 2")
    assert len(told) == 4
    shown = []
    for number in (1, 2):
        status, body = await web.get(f"/api/top?variant=moscow&players=2&page={number}")
        assert status == 200
        answer = json.loads(body)
        assert (answer["total"], answer["page"], answer["pages"]) == (4, number, 2)
        shown += answer["ratings"]
    assert answer["games"] == [{"variant": "moscow", "players": 2, "rated": 4}]
    keys = ("rank", "name", "games", "wins", "losses", "draws")
    assert [{k: str(r[k]) for k in keys} for r in shown] == [{k: t[k] for k in keys} for t in told]
    assert [f"{r['rating']:.3f}" for r in shown] == [t["rating"] for t in told]
    # the page without a game: the club's, the one with the most rated (as 'top' for
    # one rated in none), its first page as the JSON's
    status, body = await web.get("/top")
    assert status == 200
    page = body.decode()
    assert "Standings: moscow for 2 players (4 rated)." in page
    assert "Places 1–3 of 4 (page 1 of 2)." in page
    assert 'href="/top?variant=moscow&amp;players=2&amp;page=2"' in page
    rows = re.findall(
        r'<tr><td class="place">(\d+)</td><td><a href="/players/(\w+)">\w+</a></td>'
        r'<td class="rating">([-\d.]+)</td>',
        page,
    )
    assert rows == [(t["rank"], t["name"], f"{float(t['rating']):.1f}") for t in told[:3]]
    status, body = await web.get("/top?variant=moscow&players=2&page=2")
    assert status == 200 and "Places 4–4 of 4 (page 2 of 2)." in body.decode()
    assert f'href="/players/{told[3]["name"]}"' in body.decode()
    # '/' links it (the header)
    status, body = await web.get("/")
    assert status == 200 and b'<a href="/top">Standings</a>' in body
    # a player's page says each rating's place as 'finger' does
    for name in NAMES:
        await eve.send(f"finger {name}")
        await eve.expect("finger")
        fingered = await eve.expect("rated")
        status, body = await web.get(f"/api/players/{name}")
        assert json.loads(body)["ranks"] == [int(fingered["rank"])]
        status, body = await web.get(f"/players/{name}")
        assert f'<td class="place">#{fingered["rank"]}</td>' in body.decode()
        status, body = await web.get(f"/players/{name}", RUSSIAN)
        assert f'<td class="place">{fingered["rank"]}</td>' in body.decode()
    # in Russian no English word is left but the names, the variant and the links' own
    status, body = await web.get("/top?page=2", RUSSIAN)
    page = body.decode()
    assert status == 200 and "Места 4–4 из 4 (страница 2 из 2)." in page
    assert "Рейтинг: moscow на двоих (в рейтинге: 4)." in page
    text = html.unescape(re.sub(r"<[^>]*>", " ", re.sub(r"<script\b.*?</script>", " ", page)))
    latin = set(re.findall(r"[A-Za-z][A-Za-z0-9]*", text))
    assert latin - {"deberc", "net", "API", "English", "JSON", "moscow", told[3]["name"]} == set()


@pytest.mark.timeout(30)
async def test_another_game_a_bad_game_or_page_is_refused_clearly(start_web: StartWeb) -> None:
    web: WebServer = await start_web()
    status, body = await web.get("/top?variant=Kharkiv&players=3")  # as 'top' reads it
    assert status == 200
    # a tryout (s46) read "(0 rated): nobody yet." after many guests' matches: the count
    # said twice, and not why (a guest is never rated; a password registers a name)
    page = body.decode()
    assert "Standings: kharkov for 3 players (nobody rated yet)." in page
    assert "(0 rated)" not in page
    assert (
        '<p id="how-rated">A match is rated when registered players play it at a public'
        " table; a guest, who logs in without a password, is never rated, nor a match"
        " with one. A name is registered by logging in with a password on the game port:"
        " <code>login NAME PASSWORD</code>.</p>"
    ) in page
    status, body = await web.get("/top?variant=Kharkiv&players=3", RUSSIAN)
    page = body.decode()
    assert "Рейтинг: kharkov на троих (в рейтинге пока никого)." in page
    assert "в рейтинге: 0" not in page
    assert "гость, вошедший без пароля, в рейтинг не идёт" in page
    status, body = await web.get("/api/top?players=4")  # moscow, as 'top 4'
    assert status == 200
    assert json.loads(body) == {
        "variant": "moscow", "players": 4, "total": 0, "page": 1, "pages": 1,
        "ratings": [], "games": [],
    }  # fmt: skip
    for asked in ("variant=nope", "players=5", "variant=moscow&players=x"):
        status, body = await web.get(f"/api/top?{asked}")
        assert status == 400
        assert json.loads(body)["error"].startswith("no such game: ?variant= a variant (")
        status, body = await web.get(f"/top?{asked}", RUSSIAN)
        assert status == 400 and "Нет такой игры: ?variant=" in body.decode()
    # Tertz for three or four is no game (it said "nobody yet", as for one not played),
    # said as 'top tertz 3' says it ('?players= 2, 3 or 4' named the 3 it refused)
    status, body = await web.get("/api/top?variant=tertz&players=3")
    assert status == 400
    assert json.loads(body)["error"] == "no such game: tertz is for 2 players, not 3"
    status, body = await web.get(f"/top?variant={quote('терц')}&players=4", RUSSIAN)
    assert status == 400 and "Нет такой игры: tertz — для 2 игроков, а не для 4" in body.decode()
    for asked in ("page=2", "page=0", "page=x"):
        status, body = await web.get(f"/api/top?{asked}")
        assert (status, json.loads(body)) == (
            400,
            {"error": "no such page: ?page=N, N from 1 to 1"},
        )
    status, body = await web.get("/top", RUSSIAN)
    page = body.decode()
    assert status == 200 and "<h1>Рейтинг игроков</h1>" in page
    assert "Рейтинг: moscow на двоих (в рейтинге пока никого)." in page
