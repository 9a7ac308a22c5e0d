"""The live table page follows its match into the rematch: while it is on offer the page
says so, and once the players agree it links the rematch's table (docs/web.md, "The
live socket") (headless Chromium, tests/web/conftest.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.client import play_machine
from tests.server.conftest import Connector

from .browsing import ax_role, in_thread, wait_for
from .conftest import WebServer, page_errors

LIVE = "return document.body.dataset.live"


def until(driver: webdriver.Chrome, check: Callable[[webdriver.Chrome], Any]) -> Any:
    return WebDriverWait(driver, 30, poll_frequency=0.05).until(check)


async def test_the_page_links_the_rematch_once_its_players_agree(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 short")  # one deal, then the match is over
    table = (await ann.expect("ok", cmd="sit"))["table"]
    with trio.fail_after(60):
        await in_thread(browser.get, web.url(f"/table/{table}"))
        await in_thread(wait_for, browser, "body[data-live=open]")
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(1))
            nursery.start_soon(play_machine, bob, random.Random(2))
        await in_thread(wait_for, browser, "#replay-link")
        # the match is over, its page still live: the offer stands (told as the feed
        # sees its table closed, within feed.CLOSED_CHECK_S)
        said = await in_thread(until, browser, lambda d: d.find_element(By.ID, "rematch").text)
        assert said.startswith("Its players may agree to a rematch within ")
        assert said.endswith(" s: it will be linked here."), said
        assert await in_thread(browser.execute_script, LIVE) == "open"
        for player in (ann, bob):
            await player.send("rematch")
        new = (await ann.expect("ok", cmd="sit"))["table"]
        link = (await in_thread(wait_for, browser, "#rematch-link"))[0]
        assert await in_thread(link.get_attribute, "href") == web.url(f"/table/{new}")
        told = await in_thread(lambda: browser.find_element(By.ID, "rematch").text)
        assert told == f"The rematch is at table {new}: watch it"
        assert await in_thread(ax_role, browser, "#rematch") == ("status", "polite")
        # the old table's socket then closes; its page says the match is over, link kept
        await in_thread(wait_for, browser, "#gone:not([hidden])")
        gone = await in_thread(lambda: browser.find_element(By.ID, "gone").text)
        assert gone == "No longer live: the match is over."
        assert await in_thread(lambda: browser.find_elements(By.ID, "rematch-link"))
        await in_thread(link.click)  # and it leads to the rematch, live
        await in_thread(wait_for, browser, f"#board[data-table='{new}']")
        await in_thread(wait_for, browser, "body[data-live=open]")
        assert await in_thread(page_errors, browser) == []
