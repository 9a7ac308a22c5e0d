"""The pages as read on a phone (360 pixels) and a tablet (768), and by a screen reader
(headless Chromium, tests/web/conftest.py; docs/web.md): a list wider than a tablet's
window scrolls in its own box, not the page; on a phone the name of who ordered the
trump is whole in the board's narrow centre, a plot keeps its words' size (shrunk to
the phone they were 6 pixels high), and a replay's deal numbers are targets a finger
can take, their list named; each seat's face-down hand says to the accessibility tree
how many cards it holds, served and live, in English and Russian.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.ladder.helpers import RAND, RAND2, ladder
from tests.server.client import LineClient, a_whole_match, fields, is_event, play_machine
from tests.server.conftest import Connector

from .browsing import FITS, ax_name, ax_role, in_thread, sized, wait_for
from .conftest import WebServer, screenshot

PHONE = {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True}
TABLET = {"width": 768, "height": 1024, "deviceScaleFactor": 1, "mobile": True}
# names of 17 and 18 letters, as long as the house bots' (house-heuristic-12)
NAMES = ("ann-marie-kowalska", "bob-the-second-42", "cat-o-nine-tails-9", "dan-van-der-berg-7")
HAND = {"en": re.compile(r"cards in hand: (\d+)"), "ru": re.compile(r"карт на руке: (\d+)")}

# the trump's orderer on the board: his name as written, and whether it is cut short
TRUMP_WHO = """
const e = document.querySelector("#trump .who");
return e && [e.textContent, e.scrollWidth > e.clientWidth];
"""
# the plot drawn at its own size (1: its 11-pixel words are 11 pixels high)
PLOT_SCALE = """
const svg = document.querySelector("#elo-plot svg");
return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
"""


def hands_read(driver: webdriver.Chrome, lang: str) -> list[int]:
    """The cards each hand holds as the accessibility tree (a screen reader) names it."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    counts = []
    for node in tree["nodes"]:
        name = node.get("name", {}).get("value", "")
        if not node.get("ignored") and (match := HAND[lang].fullmatch(name)):
            counts.append(int(match.group(1)))
    return counts


def until_seat_0_lays() -> Callable[[str], bool]:
    """A stop for play_machine: seat 0 has laid a card that did not close its trick (the
    trump ordered, the hands of different sizes)."""
    laid = [0]

    def stop(line: str) -> bool:
        if is_event(line, "trick") or is_event(line, "deal"):
            laid[0] = 0
        elif is_event(line, "play"):
            laid[0] += 1
            return fields(line)[1]["seat"] == "0" and laid[0] < 4
        return False

    return stop


def on_a_tablet(driver: webdriver.Chrome, web: WebServer) -> None:
    """The open tables' list (Russian headings, long names) and a player's within the window."""
    with sized(driver, TABLET):
        for lang in ("en", "ru"):
            for path in ("/", f"/players/{NAMES[0]}"):
                driver.get(web.url(f"{path}?lang={lang}"))
                assert driver.execute_script(FITS) == [TABLET["width"], 0], (lang, path)
                screenshot(driver, f"reading-768-{lang}{path.replace('/', '-')}")


def as_served(
    driver: webdriver.Chrome, web: WebServer, table: int, lang: str, sizes: list[int]
) -> None:
    """The phone's board as served (the trump's orderer whole, each hand's count named),
    then live."""
    driver.get(web.url(f"/table/{table}?lang={lang}"))
    who = driver.execute_script(TRUMP_WHO)
    assert who and who[0] in NAMES and not who[1], (lang, who)
    assert sorted(hands_read(driver, lang)) == sorted(sizes), lang
    wait_for(driver, 'body[data-live="open"]')


def live(driver: webdriver.Chrome, lang: str, sizes: list[int]) -> None:
    """The board redrawn live after a card was played: the counts named are the new ones."""
    last: list[list[int]] = [[]]

    def told(d: webdriver.Chrome) -> bool:
        last[0] = sorted(hands_read(d, lang))
        return last[0] == sorted(sizes)

    with suppress(TimeoutException):
        WebDriverWait(driver, 30, poll_frequency=0.05).until(told)
    assert last[0] == sorted(sizes), lang
    who = driver.execute_script(TRUMP_WHO)
    assert who and who[0] in NAMES and not who[1], (lang, who)
    assert driver.execute_script(FITS) == [PHONE["width"], 0], lang
    screenshot(driver, f"reading-360-{lang}-table")


async def play(by_seat: dict[int, LineClient], stop: Callable[[], Callable[[str], bool]]) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for seat, player in by_seat.items():
                nursery.start_soon(
                    functools.partial(play_machine, player, random.Random(seat), stop())
                )


async def hand_sizes(web: WebServer, table: int) -> list[int]:
    sizes: list[int] = json.loads((await web.get(f"/api/tables/{table}"))[1])["hand_sizes"]
    assert len(sizes) == 4 and min(sizes) > 0 and sum(sizes) < 32, sizes  # a trick laid
    return sizes


@pytest.mark.timeout(90)
async def test_a_tablets_lists_fit_and_a_phones_board_says_its_hands_and_whole_names(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(bot_clock_ms=120_000)  # no auto call while it waits
    players = [await connect.machine(web.port, name) for name in NAMES]
    for player in players:
        await player.send("seek 4")
    by_seat: dict[int, LineClient] = {}
    for player in players:
        sit = await player.expect("ok", cmd="sit")
        by_seat[int(sit["seat"])] = player
    table = int(sit["table"])
    await play(by_seat, until_seat_0_lays)
    try:
        with trio.fail_after(60):
            await in_thread(on_a_tablet, browser, web)
            with sized(browser, PHONE):
                for lang in ("en", "ru"):
                    sizes = await hand_sizes(web, table)
                    await in_thread(as_served, browser, web, table, lang, sizes)
                    await play(by_seat, lambda: lambda line: is_event(line, "play"))  # one card
                    await in_thread(live, browser, lang, await hand_sizes(web, table))
    finally:  # the choice's cookie would make the session's next pages Russian (one browser)
        await in_thread(browser.delete_all_cookies)


@pytest.mark.timeout(90)
async def test_a_plot_on_a_phone_keeps_its_words_size(
    start_web: Callable[..., Any], db_path: Path, browser: webdriver.Chrome
) -> None:
    web: WebServer = await start_web()
    with trio.fail_after(60):
        await trio.to_thread.run_sync(
            lambda: ladder(
                db_path.parent, "--bot", RAND, "--bot", RAND2, "--deals", "1", db=db_path
            )
        )

    def look() -> None:
        with sized(browser, PHONE):
            try:
                for lang in ("en", "ru"):
                    browser.get(web.url(f"/ladders/1?lang={lang}"))
                    assert browser.execute_script(PLOT_SCALE) == 1, lang
                    assert browser.execute_script(FITS) == [PHONE["width"], 0], lang
                    screenshot(browser, f"reading-360-{lang}-plot")
            finally:  # the language's cookie: the session's next pages in theirs
                browser.delete_all_cookies()

    with trio.fail_after(20):
        await in_thread(look)


# the replay's deal numbers narrower or lower than WCAG's least target, 24 by 24 pixels
SMALL_TARGETS = """
return [...document.querySelectorAll("nav.deals a")].map((a) => a.getBoundingClientRect())
  .filter((r) => r.width < 24 || r.height < 24).map((r) => [r.width, r.height]);
"""


@pytest.mark.timeout(60)
async def test_a_replays_deal_numbers_are_targets_a_finger_can_take(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, NAMES[0])
    bob = await connect.machine(web.port, NAMES[1])
    await a_whole_match(ann, bob, "2 short")
    body = (await web.get(f"/api/players/{NAMES[0]}"))[1]
    match = re.search(rb'"match":"(m\d+)"', body)
    assert match

    def look() -> None:
        with sized(browser, PHONE):
            # in English whatever an earlier test chose (its cookie), none left after
            browser.get(web.url(f"/games/{match.group(1).decode()}?lang=en"))
            browser.delete_all_cookies()
            assert browser.find_elements(By.CSS_SELECTOR, "nav.deals a")
            assert browser.execute_script(SMALL_TARGETS) == []
            # the page's second list of links is named, as a reader lists the landmarks
            assert ax_role(browser, "nav.deals")[0] == "navigation"
            assert ax_name(browser, "nav.deals") == "Deals"
            assert browser.execute_script(FITS) == [PHONE["width"], 0]
            screenshot(browser, "reading-360-replay")

    with trio.fail_after(20):
        await in_thread(look)
