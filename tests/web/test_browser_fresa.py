"""The fresa on the live table page: the talon's bottom card, face up once the game is
ordered and the last cards dealt (docs/rules.md §2), as an observer at the table is told
it (`Fresa: 9♣` in his state; black-box evening s39: the page never showed it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from tests.server.client import LineClient, fields, seat_pair
from tests.server.conftest import Connector

from .browsing import in_thread, wait_for
from .conftest import WebServer

pytestmark = pytest.mark.timeout(60)


async def test_the_tables_page_shows_the_fresa_once_the_game_is_ordered(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(bot_clock_ms=120_000)  # no auto call meanwhile
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    table, seat_ann, _ = await seat_pair(ann, bob)
    by_seat: dict[int, LineClient] = {seat_ann: ann, 1 - seat_ann: bob}
    line = await ann.read_until(lambda x: x.startswith(("ask ", "state ")))
    view = fields(line)[1]
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(wait_for, browser, 'body[data-live="open"] #status .card')
    fresa = await in_thread(lambda: browser.find_element(By.ID, "fresa").text)
    assert fresa == ""  # none before the order: the last cards are not dealt
    player = by_seat[int(view["to_act"])]
    ask = view if line.startswith("ask ") and player is ann else await player.expect("ask")
    with trio.fail_after(30):
        await player.send(f"igrayu seq={ask['seq']}")
        card = (await ann.expect("event", kind="order"))["fresa"]
    assert card != "-"
    shown = await in_thread(wait_for, browser, f'#fresa .card[data-card="{card}"]')
    assert await in_thread(lambda: shown[0].get_attribute("aria-label"))  # a card's name
    assert (await in_thread(lambda: browser.find_element(By.ID, "fresa").text)).startswith("Fresa ")
    # as served (and from the socket's first state line), in Russian
    try:
        await in_thread(browser.get, web.url(f"/table/{table}?lang=ru"))
        opened = f'body[data-live="open"] #fresa .card[data-card="{card}"]'
        await in_thread(wait_for, browser, opened)
        said = await in_thread(lambda: browser.find_element(By.ID, "fresa").text)
        assert said.startswith("Фреза ")
    finally:  # the language's cookie: the session's next pages in theirs
        await in_thread(browser.delete_all_cookies)
