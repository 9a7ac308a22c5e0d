"""The live table page shows what hangs, as each deal's start tells the players
('Hanging: 70.', «Висит: 70.»), and its deals' list the sheet's note ('hanging 70');
a short game's deals by their winner ('won by bob'), as the table and the replay say
them. Black-box evening s40: a watcher saw the totals but never the points that hung,
and a dave game's deals as 'bide' where the table said 'won by …'."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from selenium import webdriver

from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import hanging_now
from deberc_net.server.web.words import PageWords
from tests.server.conftest import Connector

from .browsing import in_thread, script_result
from .conftest import WebServer
from .plain_play import deals_played, text_of

pytestmark = pytest.mark.timeout(90)

# decks on which both seats, ordering whenever they may and playing their first legal
# card, leave deal 1 of a moscow match hanging (and a dave match's deal 1 is a bide)
HANGING_SEED = "hang-108"
SHORT_SEED = "short-0"


async def test_the_live_page_shows_what_hangs_live_as_served_and_in_russian(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    # a long clock: nobody's call is made for him while the page is read after deal 1
    web: WebServer = await start_web(match_seed=HANGING_SEED, bot_clock_ms=120_000)
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(script_result, browser, "return window.debercLines.length > 0", True)
    assert await in_thread(text_of, browser, "#hanging") == ""
    await bob.send(f"sit {table}")
    end = await deals_played(ann, bob)
    assert end["outcome"] == "hanging", end  # the seed's
    hung = int(end["hanging"])
    assert hung > 0
    said = f"Hanging: {hung}."
    assert said == hanging_now(hung, ()).strip()  # the players' words at the deal's start
    live = "return document.getElementById('hanging').textContent"
    assert await in_thread(script_result, browser, live, said) == said
    row = "return document.querySelector('#deals tbody tr td:nth-child(2)')?.textContent"
    note = f"hanging, hanging {hung}"
    assert await in_thread(script_result, browser, row, note) == note
    # the JSON the page can ask: the sum deal 2 plays for
    status, body = await web.get(f"/api/tables/{table}")
    assert status == 200
    told = json.loads(body)
    assert (told["hanging"], told["hanging_after"]) == (hung, [])
    # as served, and read again from the socket's first state line, in Russian
    try:
        await in_thread(browser.get, web.url(f"/table/{table}?lang=ru"))
        await in_thread(script_result, browser, "return document.body.dataset.live", "open")
        assert await in_thread(text_of, browser, "#hanging") == f"Висит: {hung}."
        cell = await in_thread(text_of, browser, "#deals tbody tr td:nth-child(2)")
        assert cell == f"висит, висит {hung}"
    finally:  # the language's cookie: the session's next pages in theirs
        await in_thread(browser.delete_all_cookies)


async def test_a_short_games_deals_are_said_by_their_winner_in_both_languages(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    # (a dave match here is one deal: its table closes with it, so each page is live;
    # the server's seed deals both matches alike)
    web: WebServer = await start_web(match_seed=SHORT_SEED, bot_clock_ms=120_000)
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    row = "return document.querySelector('#deals tbody tr td:nth-child(2)')?.textContent"
    try:
        for lang, word in (("en", "won by {}"), ("ru", "победитель — {}")):
            await ann.send("new 2 moscow dave")
            table = (await ann.expect("ok", cmd="sit"))["table"]
            await in_thread(browser.get, web.url(f"/table/{table}?lang={lang}"))
            await in_thread(script_result, browser, "return window.debercLines.length > 0", True)
            await bob.send(f"sit {table}")
            end = await deals_played(ann, bob)
            assert end["outcome"] in ("made", "bide"), end  # not a bide's word, but who won
            written = [int(v) for v in end["written"].split(",")]
            said = word.format(["ann", "bob"][written.index(max(written))])
            assert await in_thread(script_result, browser, row, said) == said
    finally:  # the language's cookie: the session's next pages in theirs
        await in_thread(browser.delete_all_cookies)


def test_both_sums_of_hanging_separate_are_said_as_the_players_read_them() -> None:
    # (the page's script has the same templates: web/words.py SCRIPT)
    en, ru = PageWords(Lang.EN), PageWords(Lang.RU)
    assert en.hanging_now(73, [69, 35]) == hanging_now(73, (69, 35)).strip()
    assert ru.hanging_now(73, [69]) == "Висит: 73 на эту раздачу, 69 на следующую."
    assert en.deal_hanging(35, [35]) == "hanging 35, then 35"  # the sheet's note
    assert en.hanging_now(0, []) == en.deal_hanging(0, []) == ""
