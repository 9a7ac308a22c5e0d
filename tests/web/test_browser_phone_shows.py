"""A replay's shown cards on a phone (headless Chromium, tests/web/conftest.py): the talk
keeps each 'name: call' whole, but a seat's shown cards after a long name ran past a
phone's width, the whole deal's box with them (a 3-player club match, Russian:
`house-heuristic-2: показывает 9♥ 10♥ В♥ Д♦ К♦ Т♦`, 63 pixels too wide at 390); they
now run on to the next line, the name whole. The header's links, `deberc-net` first,
are never broken at a hyphen or between their words either (docs/web.md)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By

from tests.server.client import LineClient, fields, is_event
from tests.server.conftest import Connector

from .browsing import assert_fits, in_thread, sized
from .conftest import WebServer

# 20 letters, the longest name there is
NAMES = ("ann-marie-kowalska-1", "bob-the-second-42-xy")
# a small phone's width
SMALL_PHONE = {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True}
SHOWING = ("pokazyvayu", "pokazhi", "terts", "dva-tertsa", "pyatdesyat", "sto")


async def _play_till_shown(client: LineClient, rng: random.Random) -> None:
    """Answer asks, showing all it can, until a seat's cards are shown."""
    while True:
        line = await client.read_until(lambda _: True, 20)
        tag, f = fields(line)
        assert tag != "error" and not is_event(line, "match-end"), f"{client.label}: {line}"
        if is_event(line, "shown"):
            return
        if tag == "ask":
            legal = f["legal"].split(",")
            wanted = [c for c in SHOWING if c in legal]
            await client.send(f"{wanted[0] if wanted else rng.choice(legal)} seq={f['seq']}")


def _read_on_a_phone(driver: webdriver.Chrome, web: WebServer, match: str) -> list[str]:
    said = []
    for lang in ("ru", "en"):
        driver.get(web.url(f"/games/{match}?lang={lang}"))
        assert_fits(driver, SMALL_PHONE["width"], f"/games/{match} in {lang}")
        shows = driver.find_elements(By.CSS_SELECTOR, ".talk .shows")
        assert shows, lang
        said += [s.text for s in shows]
    return said


async def test_shown_cards_after_a_long_name_fit_a_phone(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(match_seed="shown-early")  # a show in deal 1
    ann = await connect.machine(web.port, NAMES[0])
    bob = await connect.machine(web.port, NAMES[1])
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    match = (await ann.expect("event", kind="start"))["match"]
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            for client, seed in ((ann, 1), (bob, 2)):
                nursery.start_soon(_play_till_shown, client, random.Random(seed))
        await ann.send("leave")  # a forfeit: the match is over, its replay served
        await bob.expect("event", kind="match-end")
        with sized(browser, SMALL_PHONE):
            said = await in_thread(_read_on_a_phone, browser, web, match)
    assert any(" показывает " in s for s in said) and any(" shows " in s for s in said), said
    assert all(s.split(":")[0] in NAMES for s in said), said
