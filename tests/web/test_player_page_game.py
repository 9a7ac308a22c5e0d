"""A player's page names each rating's game as 'top' and 'finger' do (docs/web.md):
a tryout read «moscow, игроков: 3» at three as a count beside his matches', and the
count is the game's: for 3 players, на троих; for 4, на четверых."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
import trio

from clients.client import Bot

from .conftest import WebServer

StartWeb = Callable[..., Any]
NAMES = ("ann", "bob", "cat", "dan")
SAID = {
    3: ("moscow for 3 players", "moscow на троих"),
    4: ("moscow for 4 players", "moscow на четверых"),
}


@pytest.mark.parametrize("players", [3, 4])
async def test_a_players_page_names_the_game_of_three_or_four(
    start_web: StartWeb, players: int
) -> None:
    web: WebServer = await start_web()
    rng = random.Random(players)

    def choose(view: Any) -> str:
        call: str = rng.choice(view.legal)
        return call

    with trio.fail_after(60):  # one rated match of registered players, one deal
        async with trio.open_nursery() as nursery:
            for name in NAMES[:players]:
                bot = Bot(choose, name, port=web.port, password=f"pw-{name}-1")
                bot.seek, bot.games = f"{players} short" if players == 3 else "4", 1
                nursery.start_soon(bot.run)
    _, _, body = await web.ask("GET", "/api/players/ann")
    api = json.loads(body)
    assert [r["players"] for r in api["ratings"]] == [players]
    assert {p["players"] for p in api["rating_history"]} == {players}
    english, russian = SAID[players]
    _, _, body = await web.ask("GET", "/players/ann")
    assert f'data-name="{english}"' in body.decode()
    _, _, body = await web.ask("GET", "/players/ann", {"Accept-Language": "ru"})
    page = body.decode()
    assert f'data-name="{russian}"' in page and "игроков: " not in page
