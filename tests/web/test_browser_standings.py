"""The standings (/top) on a phone and a desktop, in English and Russian (headless
Chromium, tests/web/conftest.py): laid out at the screen's width, nothing spilling
sideways (the list scrolls in its own box), no name broken at its hyphens."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from clients.client import Bot

from .browsing import DESKTOP, PHONE, assert_fits, in_thread, sized
from .conftest import WebServer, screenshot

# long names with hyphens, as the house bots' (house-heuristic-12)
NAMES = ("ann-marie-k", "bob-the-second-42", "cat-o-nine", "dan-van-der-berg-7")


def check_top(driver: webdriver.Chrome, web: WebServer, width: int) -> None:
    for path in ("/top", "/top?lang=ru", "/top?lang=en", f"/players/{NAMES[1]}"):
        driver.get(web.url(path))
        assert_fits(driver, width, path)
        screenshot(driver, f"top-{width}{path.replace('/', '-').replace('?', '-')}")
    driver.get(web.url("/top"))
    shown = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#standings td a")]
    assert sorted(shown) == sorted(NAMES), shown


@pytest.mark.timeout(120)
async def test_the_standings_fit_a_phone(
    start_web: Callable[..., Any], browser: webdriver.Chrome
) -> None:
    web: WebServer = await start_web()
    rng = random.Random(3)

    def choose(view: Any) -> str:
        call: str = rng.choice(view.legal)
        return call

    with trio.fail_after(40):  # two rated matches of four registered players
        async with trio.open_nursery() as nursery:
            for name in NAMES:
                bot = Bot(choose, name, port=web.port, password=f"pw-{name}")
                bot.seek, bot.games = "2 short", 1
                nursery.start_soon(bot.run)
    with trio.fail_after(60):
        await in_thread(check_top, browser, web, DESKTOP["width"])
        with sized(browser, PHONE):
            await in_thread(check_top, browser, web, PHONE["width"])
