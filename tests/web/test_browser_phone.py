"""The pages on a phone, and the words on the felt (headless Chromium, tests/web/conftest.py).

Every page is laid out at a phone's width (base.html's viewport; without it a phone lays
a page out 980 pixels wide and shrinks it to a third) and nothing spills sideways (a
wide table scrolls in its own box); a name is never broken at its hyphens (on `/`, on
the board, above the score), a side seat's long name running on towards the middle; the
board fits the phone with no seat over another or over the centre; the bottom seat's
card lies towards the centre, as the top seat's does; the trump and an away seat's
note read on the green felt (WCAG's 4.5:1 contrast at least), served and live alike; and
the replay's tricks say who played each card, in text, and its talk keeps each
name with its call.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.client import LineClient, a_whole_match, fields, is_event, play_machine
from tests.server.conftest import Connector

from .browsing import DESKTOP, PHONE, assert_fits, in_thread, sized, wait_for
from .conftest import WebServer, screenshot
from .tricks import deal_tricks

# long names with hyphens, as the house bots' (house-heuristic-12); the side seats'
# (1 and 3, as they seek) longer than a phone's side seat is wide
NAMES = ("ann-marie-k", "bob-the-second-42", "cat-o-nine", "dan-van-der-berg-7")

BOXES = """
const box = (css) => { const e = document.querySelector(css);
  if (!e) return null; const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
const seats = [...document.querySelectorAll("#board .seat")].map((e) => "#" + e.id);
return { board: box("#board"), centre: box("#board .centre"),
         seats: Object.fromEntries(seats.map((s) => [s, box(s)])),
         hand0: box("#seat-0 .hand"), laid0: box("#seat-0 .laid .card"),
         hand2: box("#seat-2 .hand"), laid2: box("#seat-2 .laid .card"),
         names: seats.map((s) => box(s + " .name > span")) };
"""
# an element's text colour and the colours behind it: its own background, or the
# nearest one under it (a gradient's every colour)
COLOURS = """
const el = arguments[0];
const text = getComputedStyle(el).color;
for (let node = el; node; node = node.parentElement) {
  const style = getComputedStyle(node);
  if (!/rgba\\(.*, 0\\)$/.test(style.backgroundColor)) return [text, [style.backgroundColor]];
  if (style.backgroundImage !== "none")
    return [text, style.backgroundImage.match(/rgba?\\([^)]*\\)/g)];
}
return [text, ["rgb(255, 255, 255)"]];
"""
RGB = re.compile(r"rgba?\((\d+), (\d+), (\d+)")


def _luminance(colour: str) -> float:
    match = RGB.match(colour)
    assert match, colour

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(v)) for v in match.groups())
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(driver: webdriver.Chrome, css: str) -> float:
    """The least contrast ratio (WCAG) of the element's text against what lies under it."""
    element = driver.find_element(By.CSS_SELECTOR, css)
    text, behind = driver.execute_script(COLOURS, element)
    ratios = []
    for back in behind:
        light, dark = sorted((_luminance(text), _luminance(back)), reverse=True)
        ratios.append((light + 0.05) / (dark + 0.05))
    return min(ratios)


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def until_seat_0_lays() -> Callable[[str], bool]:
    """A stop for play_machine: seat 0 has laid a card that did not close its trick."""
    laid = [0]  # cards in the trick being laid

    def stop(line: str) -> bool:
        if is_event(line, "trick") or is_event(line, "deal"):
            laid[0] = 0
        elif is_event(line, "play"):
            laid[0] += 1
            return fields(line)[1]["seat"] == "0" and laid[0] < 4
        return False

    return stop


# each seat's name on the board: as written (its span: the seat to act's mark follows
# it), as its title says it, its font size, and whether it is cut short ('…')
SEAT_NAMES = """
return [...document.querySelectorAll("#board .seat .name")].map((e) =>
  [e.firstElementChild.textContent, e.title, parseFloat(getComputedStyle(e).fontSize),
   e.firstElementChild.scrollWidth > e.firstElementChild.clientWidth]);
"""
# the replay's talk entries ('bob-the-second-42: igrayu') each broken over lines
# a name or a "name: call" whole; a seat's shown cards may run on (span.shows, its name
# whole: tests/web/test_browser_phone_shows.py), which a deal with a show once did at 1280
# pixels (CI, s43: --deal-seed=60aee48b)
TALK_BROKEN = """
return [...document.querySelectorAll(".talk span:not(.shows)")]
  .filter((e) => e.getClientRects().length > 1).map((e) => e.textContent);
"""
TRICKS_READ = """
return [...document.querySelectorAll("#deal-1 .tricks li")].map((li) => li.innerText);
"""


MARK_SERVED_ROW = """
window.servedRow = document.querySelector("#tables tbody tr");
return window.servedRow !== null;
"""
SERVED_ROW_REPLACED = (
    'const row = document.querySelector("#tables tbody tr");'
    " return row !== null && row !== window.servedRow;"
)


def check_pages(
    driver: webdriver.Chrome, web: WebServer, width: int, table: int, match: str, tricks: list[str]
) -> None:
    pages = ("/", f"/table/{table}", f"/games/{match}", f"/players/{NAMES[0]}", "/ladders", "/top")
    for path in pages:
        driver.get(web.url(path))
        assert_fits(driver, width, path)
        screenshot(driver, f"fits-{width}{path.replace('/', '-')}")
        if path.startswith("/games/"):  # who played each card, read without hovering
            assert driver.execute_script(TRICKS_READ) == tricks, width
            assert driver.find_elements(By.CSS_SELECTOR, ".talk span"), path
            assert driver.execute_script(TALK_BROKEN) == [], width
    driver.get(web.url("/"))
    # the list redrawn by its script (every second): names whole still. Its rows are
    # new elements then (waited for, not a fixed 1.3 s, which a loaded host could outrun)
    assert driver.execute_script(MARK_SERVED_ROW)
    WebDriverWait(driver, 30, poll_frequency=0.05).until(
        lambda d: d.execute_script(SERVED_ROW_REPLACED)
    )
    assert len(driver.find_elements(By.CSS_SELECTOR, "#tables .who")) == 4
    assert_fits(driver, width, "/ redrawn")

    driver.get(web.url(f"/table/{table}"))
    wait_for(driver, 'body[data-live="open"] #seat-0 .laid .card')
    WebDriverWait(driver, 30, poll_frequency=0.05).until(
        lambda d: any(x.startswith("state ") for x in d.execute_script("return debercLines"))
    )
    # redrawn live, no name is broken at its hyphens (house-/heuristic-42): one cut
    # short for its seat ends in '…' and its title says it whole; readable
    assert_fits(driver, width, "the live table")
    seat_names = driver.execute_script(SEAT_NAMES)
    assert sorted(name for name, _, _, _ in seat_names) == sorted(NAMES), seat_names
    assert all(title == name and size >= 11 for name, title, size, _ in seat_names), seat_names
    assert not [name for name, _, _, cut in seat_names if cut], (width, seat_names)  # 18 letters
    boxes = driver.execute_script(BOXES)
    assert boxes["board"][0] >= 0 and boxes["board"][2] <= width, boxes
    placed = [boxes["centre"], *boxes["seats"].values()]
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            assert not _overlap(a, b), (width, boxes)
    # a side seat's long name runs on towards the middle: over no other, nor the centre
    names = boxes["names"]
    for i, a in enumerate(names):
        assert boxes["board"][0] <= a[0] and a[2] <= boxes["board"][2], (width, boxes)
        for b in [boxes["centre"], *names[i + 1 :]]:
            assert not _overlap(a, b), (width, boxes)
    # the trick lies between the hands: the bottom seat's card above its hand
    assert boxes["laid0"][3] <= boxes["hand0"][1], (width, boxes)
    if boxes["laid2"]:
        assert boxes["laid2"][1] >= boxes["hand2"][3], (width, boxes)
    # the trump, in its suit's colour (live, as served), reads on the felt
    assert contrast(driver, "#trump .suit-s, #trump .suit-h, #trump .suit-d, #trump .suit-c") >= 4.5
    screenshot(driver, f"felt-{width}")


async def test_the_pages_fit_a_phone_and_the_felts_words_read(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(bot_clock_ms=120_000)  # no auto call while it waits
    ann = await connect.machine(web.port, NAMES[0])
    bob = await connect.machine(web.port, NAMES[1])
    await a_whole_match(ann, bob, "2 short")  # a finished match for /games and /players
    players = [ann, bob] + [await connect.machine(web.port, name) for name in NAMES[2:]]
    for player in players:
        await player.send("seek 4")
    by_seat: dict[int, LineClient] = {}
    for player in players:
        sit = await player.expect("ok", cmd="sit")
        by_seat[int(sit["seat"])] = player
    table = int(sit["table"])
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for seat, player in by_seat.items():
                nursery.start_soon(
                    functools.partial(
                        play_machine, player, random.Random(seat), until_seat_0_lays()
                    )
                )
    status, body = await web.get(f"/api/players/{NAMES[0]}")
    assert status == 200
    match = re.search(rb'"match":"(m\d+)"', body)
    assert match
    played = match.group(1).decode()
    game = json.loads((await web.get(f"/api/games/{played}"))[1])
    tricks = deal_tricks(game["players"], game["deals"][0])
    with trio.fail_after(90):
        await in_thread(check_pages, browser, web, DESKTOP["width"], table, played, tricks)
        with sized(browser, PHONE):
            await in_thread(check_pages, browser, web, PHONE["width"], table, played, tricks)
            await by_seat[1].aclose()  # away: the live page notes it on the felt
            await by_seat[0].expect("event", kind="away")
            await in_thread(wait_for, browser, "#seat-1 .away")
            assert await in_thread(contrast, browser, "#seat-1 .away") >= 4.5
            await in_thread(browser.refresh)  # as served: how long the seat is held
            await in_thread(wait_for, browser, "#seat-1 .away")
            assert await in_thread(contrast, browser, "#seat-1 .away") >= 4.5
            await in_thread(screenshot, browser, "felt-away-390")
