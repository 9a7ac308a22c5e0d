"""The pages in English and Russian (docs/web.md, "Languages"): chosen by ?lang=, kept
by a cookie, else the browser's Accept-Language; the JSON API as it was."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deberc_net.protocol.lang import Lang
from deberc_net.server.web import words
from deberc_net.server.web.choice import from_accept_language, switch_href
from deberc_net.server.web.words import SCRIPT, WORDS, W
from tests.server.client import a_whole_match
from tests.server.conftest import Connector

from .conftest import WebServer

WEB = Path(words.__file__).parent
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
StartWeb = Callable[..., Any]


def test_every_page_word_has_both_languages_and_every_one_is_used() -> None:
    assert set(WORDS) == set(W)
    for key, (english, russian) in WORDS.items():
        assert english.strip() and russian.strip(), key
        assert CYRILLIC.search(russian) or key == W.BREAKS, key  # («{name}: ломаю 6»)
        # the same placeholders in both
        assert set(re.findall(r"\{\w+\}", english)) == set(re.findall(r"\{\w+\}", russian)), key
    templates = "".join(p.read_text() for p in (WEB / "templates").glob("*.html"))
    named = set(re.findall(r"""\bw\(["']([a-z-]+)["']""", templates))
    assert named <= {w.value for w in W}, named - {w.value for w in W}
    # the web's code, and the catalogue's but its words themselves
    code = "".join(p.read_text() for p in WEB.glob("*.py") if p.name != "words.py")
    catalogue = (WEB / "words.py").read_text()
    before, rest = catalogue.split("WORDS: dict[W, tuple[str, str]] = {", 1)
    code += before + rest.split("\n}\n", 1)[1]
    in_code = set(re.findall(r"\bW\.([A-Z_]+)", code)) | {w.name for w in SCRIPT.values()}
    in_code |= {w.name for w in words.OVER_WORDS.values()}
    unused = {w for w in W if w.value not in named and w.name not in in_code}
    assert not unused


def test_the_live_scripts_english_is_the_catalogues() -> None:
    """table.js says English in its own words (an English page hands it none): the
    catalogue's English for each of its names."""
    script = (WEB / "static" / "table.js").read_text()
    defaults = script.split("const WORDS = Object.assign({", 1)[1].split("}, SAID", 1)[0]
    told = dict(re.findall(r'(\w+): "([^"]*)"', defaults))
    assert told == {name: WORDS[key][0] for name, key in SCRIPT.items()}


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("", Lang.EN),
        ("ru", Lang.RU),
        ("ru-RU,ru;q=0.9,en;q=0.8", Lang.RU),
        ("uk-UA", Lang.RU),
        ("be", Lang.RU),
        ("en-US,en;q=0.9,ru;q=0.8", Lang.EN),
        ("de-DE,ru;q=0.5", Lang.RU),  # the first the pages have
        ("de-DE,fr;q=0.5", Lang.EN),
        ("en;q=0.5,uk;q=0.7", Lang.RU),  # by weight, not order
        ("ru;q=0,en", Lang.EN),  # q=0: not acceptable
        ("ru;q=x", Lang.EN),
        # a q that is no qvalue (RFC 9110 §12.4.2: 0 to 1, three decimals at most)
        # leaves its entry out: q=5 was the strongest weight of all
        ("en;q=0.9,ru;q=5", Lang.EN),
        ("ru;q=1.5,en;q=0.1", Lang.EN),
        ("en;q=0.5,ru;q=inf", Lang.EN),
        ("en;q=0.5,uk;q=1e0", Lang.EN),
        ("en;q=0.5,ru;q=0.0001", Lang.EN),
        ("en;q=0.5,ru;q=-1", Lang.EN),
        ("en;q=0.5,ru;q=1.000", Lang.RU),  # the longest 1 there is
        ("en;q=0.5,ru;Q=0.75", Lang.RU),
    ],
)
def test_accept_language_picks_the_page_language(header: str, lang: Lang) -> None:
    assert from_accept_language(header) == lang


def test_the_switch_link_stays_on_this_site() -> None:
    assert switch_href("/games/m1", Lang.RU) == "/games/m1?lang=ru"
    assert switch_href("//elsewhere.example/x", Lang.EN) == "/elsewhere.example/x?lang=en"
    assert switch_href('/players/"a b', Lang.RU) == "/players/%22a%20b?lang=ru"


async def test_pages_speak_the_chosen_language_and_the_api_does_not_change(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web(match_seed="languages")
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await a_whole_match(ann, bob, "2 short")
    cat = await connect.machine(web.port, "cat")
    await cat.send("new 2")
    table = (await cat.expect("ok", cmd="sit"))["table"]
    russian = {"Accept-Language": "ru-RU,ru;q=0.9"}

    # Accept-Language: Russian, no cookie set (nothing chosen)
    status, told, body = await web.ask("GET", "/", russian)
    page = body.decode()
    assert status == 200 and '<html lang="ru">' in page and "<h1>Открытые столы</h1>" in page
    assert "ждёт игроков" in page and "(свободно)" in page
    assert '<a class="lang" href="/?lang=en" hreflang="en" lang="en">English</a>' in page
    assert "set-cookie" not in told
    assert "Accept-Language" in told["vary"]

    # the link chooses, and the cookie remembers it
    status, told, body = await web.ask("GET", f"/table/{table}?lang=ru")
    assert status == 200 and "<h1>Стол " in body.decode() and "Ждём игроков" in body.decode()
    cookie = told["set-cookie"]
    assert cookie.startswith("lang=ru;") and "SameSite=lax" in cookie and "Path=/" in cookie
    _, told, body = await web.ask("GET", "/games/m1", {"Cookie": "lang=ru"})
    replay = body.decode()
    assert '<html lang="ru">' in replay and "set-cookie" not in told
    assert "<h1>Партия m1 " in replay and "<h2>Раздача 1</h2>" in replay
    assert "Партия окончена: " in replay and "Итоговый счёт" in replay
    assert "Разговор: " in replay and ("пас" in replay or "играю" in replay)
    # every card in the Russian human style: В Д К Т, never J Q K A
    faces = re.findall(r'data-card="(10|[789JQKA])[shdc]"[^>]*>([^<]*)<', replay)
    assert faces and all(
        shown[:-1] == dict(zip("JQKA", "ВДКТ", strict=True)).get(rank, rank)
        for rank, shown in faces
    )
    assert not re.search(r">(Match|Deal|Dealer|Trump|Outcome|Talk)\b", replay)
    # the link's choice wins over the cookie and the browser, and is remembered
    _, told, body = await web.ask("GET", "/games/m1?lang=en", {"Cookie": "lang=ru", **russian})
    assert '<html lang="en">' in body.decode() and "<h1>Match m1 " in body.decode()
    assert told["set-cookie"].startswith("lang=en;")
    # a weight above 1 is no weight (RFC 9110): English, the only language weighed
    _, _, body = await web.ask("GET", "/", {"Accept-Language": "en;q=0.9, ru;q=5"})
    assert '<html lang="en">' in body.decode()
    # a language the pages do not have is no choice: the browser's stands
    _, told, body = await web.ask("GET", "/?lang=de", russian)
    assert '<html lang="ru">' in body.decode() and "set-cookie" not in told

    # English by default, with the switch to Russian that keeps the path
    _, _, body = await web.ask("GET", "/games/m1")
    assert '<a class="lang" href="/games/m1?lang=ru" hreflang="ru" lang="ru">Русский</a>' in (
        body.decode()
    )
    assert not CYRILLIC.search(body.decode().replace("Русский", ""))

    # not found: the page in Russian, the JSON's words as they were
    status, _, body = await web.ask("GET", "/nope", russian)
    assert status == 404 and "<h1>Не найдено</h1><p>Нет страницы /nope.</p>" in body.decode()
    status, _, body = await web.ask("GET", "/games/m404", russian)
    assert status == 404 and "Нет законченной партии m404." in body.decode()
    status, _, body = await web.ask("GET", "//elsewhere.example", russian)
    assert status == 404 and 'href="/elsewhere.example?lang=en"' in body.decode()
    for path in ("/api/games/m1", "/api/tables", "/api/players/ann", "/api/nope", "/api"):
        plain = await web.ask("GET", path)
        asked = await web.ask("GET", path + "?lang=ru", {"Cookie": "lang=ru", **russian})
        assert asked[2] == plain[2] and asked[0] == plain[0], path
        assert "set-cookie" not in asked[1]
    assert json.loads((await web.ask("GET", "/api/nope", russian))[2]) == {
        "error": "no page /api/nope"
    }
