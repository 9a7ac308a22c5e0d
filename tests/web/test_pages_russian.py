"""Every page in Russian (docs/web.md, "Languages"): a player's page and the ladders'
pages leave no English word but the names, the numbers and what is typed as it is."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from clients.client import Bot
from deberc_net.ladder import report
from deberc_net.protocol.lang import RU_MATCH_REASONS, Lang
from deberc_net.server.web.words import end_words_in
from tests.ladder.helpers import RAND, RAND2, ladder, summary

from .conftest import WebServer

StartWeb = Callable[..., Any]
RUSSIAN = {"Accept-Language": "ru"}
# never translated on any page: the site's and the links' names, the other language's,
# the JSON's, the ratings' method, the zone (docs/web.md, "Languages")
ALWAYS = {"deberc", "net", "API", "English", "JSON", "openskill", "UTC"}


def latin_words(page: str) -> set[str]:
    """The Latin words a person reads on ``page``: its text and its plots' labels (the
    tags' names and attributes, the style and the scripts are not read)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    text = html.unescape(re.sub(r"<[^>]*>", " ", body))
    return set(re.findall(r"[A-Za-z][A-Za-z0-9]*", text)) - ALWAYS


async def test_a_players_page_in_russian(start_web: StartWeb) -> None:
    web: WebServer = await start_web()
    rng = random.Random(11)

    def choose(view: Any) -> str:
        call: str = rng.choice(view.legal)
        return call

    for _ in range(2):  # two rated matches of two registered players: the plot too
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                for name in ("ann", "bob"):
                    bot = Bot(choose, name, port=web.port, password=f"pw-{name}-1")
                    bot.seek, bot.games = "2 short", 1
                    nursery.start_soon(bot.run)
    status, _, body = await web.ask("GET", "/players/ann", RUSSIAN)
    page = body.decode()
    assert status == 200 and '<html lang="ru">' in page
    assert 'id="tally">Побед <strong>' in page and "в последних 2 партиях." in page
    assert "<h2>Рейтинги</h2>" in page and "<th>Игроков</th><th>Рейтинг</th>" in page
    assert "<h2>Партии</h2>" in page and "<th>Окончена (UTC)</th>" in page
    assert 'data-name="moscow на двоих"' in page and "<title>Рейтинг: ann</title>" in page
    # each match's result and why it ended, as the replay says it in Russian
    results = re.findall(r'<tr class="(won|lost|drawn|stopped)">(.*?)</tr>', page, re.DOTALL)
    assert len(results) == 2
    said = {"won": "победа", "lost": "поражение", "drawn": "ничья", "stopped": "прервана"}
    for result, row in results:
        cells = re.findall(r"<td>(.*?)</td>", row)
        assert cells[4] == said[result]
        assert cells[5] in {end_words_in(r, None, Lang.RU) for r in RU_MATCH_REASONS}
    # what is left in Latin letters: the names, the variant and its options (as the
    # replay heads a match), the match ids, 'bot ВИД rated'
    left = latin_words(page) - {"ann", "bob", "moscow", "short", "bot", "rated"}
    assert {w for w in left if not re.fullmatch(r"m[0-9]+", w)} == set()

    # the English page as it was: every word English, the plot's labels too
    _, _, body = await web.ask("GET", "/players/ann")
    assert "Won <strong>" in body.decode() and 'data-name="moscow for 2 players"' in body.decode()
    assert not re.search(r"[а-яё]", body.decode().replace("Русский", ""), re.IGNORECASE)


async def test_the_ladders_pages_in_russian(start_web: StartWeb, db_path: Path) -> None:
    web: WebServer = await start_web()
    _, _, body = await web.ask("GET", "/ladders", RUSSIAN)
    page = body.decode()
    assert "<h1>Турниры ботов</h1>" in page and "На базе этого сервера ещё не было турниров" in page
    assert latin_words(page) - {"deberc", "ladder", "run", "db"} == set()

    done = await trio.to_thread.run_sync(
        lambda: ladder(
            db_path.parent,
            *("--bot", RAND, "--bot", RAND2, "--deals", "2", "--seed", "w1"),
            *("--sprt", "0,20,0.05,0.05", "--json"),
            db=db_path,
        )
    )
    data = summary(done)
    bots = set(data["bots"])
    _, _, body = await web.ask("GET", "/ladders", RUSSIAN)
    page = body.decode()
    assert "<th>Бот</th><th>Рейтинг</th>" in page and "<h2>Турниры</h2>" in page
    assert f"<td>{data['variant']} на двоих</td>" in page  # as /top names a game
    assert "Рейтинги ведутся по имени бота" in page
    verdict = {data["sprt"]["verdict"] or "нет решения"}
    assert latin_words(page) - bots - {data["variant"], "SPRT"} - verdict == set()

    _, _, body = await web.ask("GET", "/ladders/1", RUSSIAN)
    page = body.decode()
    assert "<h1>Турнир 1 <small>начат " in page and "<h2>Пары (первый против второго)</h2>" in page
    for pair in data["pairs"]:  # the figures as the text report says them, its words Russian
        told = report.elo_told(pair).replace(
            "(margin: too few deals)", "(погрешность: слишком мало раздач)"
        )
        assert (
            f"<td>{pair['a']} — {pair['b']}</td>" in page and f'<td class="elo">{told}</td>' in page
        )
    assert "<title>Турнир 1: Elo по сыгранным партиям</title>" in page
    assert 'id="sprt">SPRT elo0=0.0 elo1=20.0 α=0.05 β=0.05: LLR ' in page and ", пар: " in page
    # what is left in Latin letters: the bots, the variant, the schedule, the figures'
    # names, the SPRT's verdict (H0, H1) and its lines, the match ids
    kept = {"SPRT", "LLR", "LOS", "Elo", "elo0", "elo1", "H0", "H1", "round", "robin"}
    # and the client library's methods the bot-faults table names (a bot author's code)
    page = re.sub(r"\b(choose|pick|on_event|on_board)\b", "", page)
    left = latin_words(page) - bots - {data["variant"], data["seed"]} - kept
    assert {w for w in left if not re.fullmatch(r"m[0-9]+", w)} == set(), left


async def test_a_pages_plain_text_errors_in_russian(
    start_web: StartWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """405 and 500 on a page's path are plain text in the page's language; the JSON's
    under /api are as documented (docs/web.md)."""
    web: WebServer = await start_web()
    status, told, body = await web.ask("POST", "/table/1", RUSSIAN)
    assert (status, body.decode()) == (405, "Этот метод здесь не принимается")
    assert told["content-type"].startswith("text/plain") and told["allow"]
    assert (await web.ask("POST", "/table/1"))[2] == b"Method Not Allowed"

    def broken(lobby: Any) -> list[Any]:
        raise RuntimeError("broken for the test")

    monkeypatch.setattr("deberc_net.server.web.views.open_tables", broken)
    status, _, body = await web.ask("GET", "/?lang=ru")
    assert (status, body.decode()) == (500, "Внутренняя ошибка сервера")
    assert (await web.ask("GET", "/"))[2] == b"Internal Server Error"
    status, _, body = await web.ask("GET", "/api/tables", RUSSIAN)
    assert (status, json.loads(body)) == (500, {"error": "internal error"})
