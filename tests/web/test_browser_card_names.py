"""A card reads to a screen reader by its name, `queen of hearts` («дама червей» on a
Russian page), not as `Q` and a suit symbol (docs/web.md), while the page still shows
`Q♥` (`Д♥`): the cards the served pages draw (templates/macros.html: a replay's hands)
and those the live table page's script draws (table.js: the turned card). Headless
Chromium's accessibility tree (tests/web/browsing.py ax_name).

A visitor's tryout with a screen reader: a hand was read as "Q, black heart suit, …".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.client import fields, is_event, seat_pair
from tests.server.conftest import Connector

from .browsing import ax_name, in_thread
from .conftest import WebServer

# what a reader should say, by the letters of a card's text ('Qh')
RANKS = {
    "7": ("seven", "семёрка"),
    "8": ("eight", "восьмёрка"),
    "9": ("nine", "девятка"),
    "10": ("ten", "десятка"),
    "J": ("jack", "валет"),
    "Q": ("queen", "дама"),
    "K": ("king", "король"),
    "A": ("ace", "туз"),
}
SUITS = {
    "s": ("spades", "пик"),
    "h": ("hearts", "червей"),
    "d": ("diamonds", "бубен"),
    "c": ("clubs", "треф"),
}
SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RU_FACES = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}


def _name(card: str, russian: bool = False) -> str:
    rank, suit = RANKS[card[:-1]][russian], SUITS[card[-1]][russian]
    return f"{rank} {suit}" if russian else f"{rank} of {suit}"


def _face(card: str, russian: bool = False) -> str:
    rank = card[:-1]
    return (RU_FACES.get(rank, rank) if russian else rank) + SYMBOLS[card[-1]]


# the socket's first state line applied: the script drew the turned card again
STATE_IN = 'return (window.debercLines || []).some((line) => line.startsWith("state "));'


def _drawn(driver: webdriver.Chrome) -> None:
    WebDriverWait(driver, 30, poll_frequency=0.05).until(lambda d: d.execute_script(STATE_IN))


def _read(driver: webdriver.Chrome, css: str) -> tuple[str, str, str]:
    """The element's card, its text as shown and its accessible name."""
    el = driver.find_element(By.CSS_SELECTOR, css)
    return el.get_attribute("data-card") or "", el.text, ax_name(driver, css)


@pytest.mark.timeout(60)
async def test_cards_are_read_by_their_names(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    table, seat_ann, _ = await seat_pair(ann, bob, "2 moscow")
    live = "#status .card"
    try:
        with trio.fail_after(40):
            # the live page: its script draws the turned card (table.js cardEl)
            await in_thread(browser.get, web.url(f"/table/{table}?lang=en"))
            await in_thread(_drawn, browser)
            turned = await in_thread(_read, browser, live)
            await in_thread(browser.get, web.url(f"/table/{table}?lang=ru"))
            await in_thread(_drawn, browser)
            turned_ru = await in_thread(_read, browser, live)
            # a replay's hands (the macro): one call, then the seat asked next leaves
            start = await ann.expect("event", kind="start")
            seen = await ann.read_until(lambda line: line.startswith(("ask ", "state ")))
            first, then = (ann, bob) if fields(seen)[1]["to_act"] == str(seat_ann) else (bob, ann)
            ask = seen if first is ann else await bob.read_until(lambda x: x.startswith("ask "))
            await first.send(f"pas seq={fields(ask)[1]['seq']}")
            await then.read_until(lambda line: line.startswith("ask "))
            await then.send("leave!")
            await ann.read_until(lambda line: is_event(line, "match-end"))
            await in_thread(browser.get, web.url(f"/games/{start['match']}?lang=en"))
            hand = await in_thread(_read, browser, ".hands .card")
            await in_thread(browser.get, web.url(f"/games/{start['match']}?lang=ru"))
            hand_ru = await in_thread(_read, browser, ".hands .card")
    finally:  # the language's cookie: the session's next pages in theirs
        await in_thread(browser.delete_all_cookies)
    for (card, shown, name), russian in (
        (turned, False),
        (turned_ru, True),
        (hand, False),
        (hand_ru, True),
    ):
        assert (shown, name) == (_face(card, russian), _name(card, russian)), (card, russian)
