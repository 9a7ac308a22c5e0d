"""The names on the open tables' list (``/``) and on a table's page (``/table/N``)
lead to the players' pages (docs/web.md): they were plain text; a free seat is none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver

from tests.server.conftest import Connector

from .browsing import in_thread, script_result, wait_for
from .conftest import WebServer, page_errors


@pytest.mark.timeout(60)
async def test_a_seated_players_name_links_his_page_on_the_list_and_the_table_page(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    web: WebServer = await start_web()
    with trio.fail_after(30):
        ann = await connect.machine(web.port, "ann", "secret-pass")  # (registers her)
        await ann.send("new 3")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        gus = await connect.machine(web.port, "gus")  # a guest: his page says so
        await gus.send(f"sit {table}")
        await gus.expect("ok", cmd="sit")
        for path in ("/", f"/table/{table}"):
            status, body = await web.get(path)
            page = body.decode()
            assert status == 200, path
            for name in ("ann", "gus"):
                assert f'<a href="/players/{name}">{name}</a>' in page, (path, name)
            assert page.count('href="/players/') == 2, path  # the free seat: no link


def main_of(body: bytes) -> str:
    """The page's ``<main>``, what is read (not its ``<title>``)."""
    page = body.decode()
    return page[page.index("<main>") : page.index("</main>")]


# each seat's name as the live page shows it: the link's path, or its text if none
SEAT_LINKS = """const names = '#board .seat .name > span:first-child';
return [...document.querySelectorAll(names)].map((s) =>
  s.querySelector('a') ? s.querySelector('a').getAttribute('href') : s.textContent);"""
LIST_LINKS = """return [...document.querySelectorAll('#tables td.players a')].map((a) =>
  a.getAttribute('href'));"""


@pytest.mark.timeout(90)
async def test_the_live_pages_link_a_player_who_sits_down_after_they_were_served(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """table.js and tables.js draw the names anew: a seat taken live is a link too."""
    web: WebServer = await start_web()
    with trio.fail_after(60):
        ann = await connect.machine(web.port, "ann")
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await in_thread(browser.get, web.url(f"/table/{table}"))
        served = ["/players/ann", "(free)"]
        assert await in_thread(script_result, browser, SEAT_LINKS, served) == served
        bob = await connect.machine(web.port, "bob")
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        both = ["/players/ann", "/players/bob"]
        assert await in_thread(script_result, browser, SEAT_LINKS, both) == both
        await in_thread(browser.get, web.url("/"))
        await in_thread(wait_for, browser, "#tables td.players a")
        cat = await connect.machine(web.port, "Кот")
        await cat.send("new 2")
        await cat.expect("ok", cmd="sit")  # listed by the list's next refresh
        listed = [*both, "/players/%D0%9A%D0%BE%D1%82"]
        assert await in_thread(script_result, browser, LIST_LINKS, listed) == listed
        assert await in_thread(page_errors, browser) == []


@pytest.mark.timeout(60)
async def test_a_seated_player_without_a_finished_match_has_a_page_that_links_his_table(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    """The link on ``/`` and ``/table/N`` of a player in his first match (or a house
    bot's copy) led to 'Not found: No finished match of gus.', a 404: his page says he
    has none yet and where he plays now. A private table's player is told of nowhere."""
    web: WebServer = await start_web()
    with trio.fail_after(30):
        ann = await connect.machine(web.port, "ann")
        await ann.send("new 2")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        gus = await connect.machine(web.port, "Gus")
        await gus.send(f"sit {table}")
        await gus.expect("ok", cmd="sit")
        status, body = await web.get("/players/gus")
        page = main_of(body)
        assert status == 200
        assert "<title>Gus — deberc-net</title>" in body.decode()
        assert "<h1>Gus</h1>" in page and "Not found" not in body.decode()
        assert "No finished match of Gus yet." in page
        assert f'Playing now at table <a href="/table/{table}">{table}</a>.' in page
        status, body = await web.get("/players/gus?lang=ru")
        page = main_of(body)
        assert status == 200
        assert "У игрока Gus ещё нет законченных партий." in page
        assert f'Сейчас играет за столом <a href="/table/{table}">{table}</a>.' in page
        # the JSON is as documented: 404 with no finished match, for scripts
        status, body = await web.get("/api/players/gus")
        assert status == 404 and b"no finished match of gus" in body
        secret = await connect.machine(web.port, "vic")
        await secret.send("new 2 private")
        await secret.expect("ok", cmd="sit")
        status, body = await web.get("/players/vic")
        assert status == 404 and b"No finished match of vic." in body
        assert b"/table/" not in body
