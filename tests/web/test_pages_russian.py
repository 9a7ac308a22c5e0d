"""Every page in Russian (docs/web.md, "Languages"): a player's page and the ladders'
pages leave no English word but the names, the numbers and what is typed as it is."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import Any

import trio

from clients.client import Bot
from deberc_net.protocol.lang import RU_MATCH_REASONS, Lang
from deberc_net.server.web.words import end_words_in

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
        return rng.choice(view.legal)

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
    assert 'data-name="moscow, игроков: 2"' in page and "<title>Рейтинг: ann</title>" in page
    # each match's result and why it ended, as the replay says it in Russian
    results = re.findall(r'<tr class="(won|lost|drawn|stopped)">(.*?)</tr>', page, re.DOTALL)
    assert len(results) == 2
    said = {"won": "победа", "lost": "поражение", "drawn": "ничья", "stopped": "прервана"}
    for result, row in results:
        cells = re.findall(r"<td>(.*?)</td>", row)
        assert cells[4] == said[result]
        assert cells[5] in {end_words_in(r, None, Lang.RU) for r in RU_MATCH_REASONS}
    # what is left in Latin letters: the names, the variant, the match ids, 'bot ВИД rated'
    left = latin_words(page) - {"ann", "bob", "moscow", "bot", "rated"}
    assert {w for w in left if not re.fullmatch(r"m[0-9]+", w)} == set()

    # the English page as it was: every word English, the plot's labels too
    _, _, body = await web.ask("GET", "/players/ann")
    assert "Won <strong>" in body.decode() and 'data-name="moscow, 2 players"' in body.decode()
    assert not re.search(r"[а-яё]", body.decode().replace("Русский", ""), re.IGNORECASE)
