"""A live table page the visitor has left (headless Chromium, tests/web/conftest.py).

The browser keeps a page left for another in its back-forward cache, its WebSocket open
unless the page closes it: the table went on counting it among its watchers (`/`'s
"Watching", `observers` in `/api/tables/N`) and sending it every line till the browser
dropped it. It is given up as the page is put away, and the page, shown again by
"back", is loaded afresh and live (docs/web.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver

from tests.server.conftest import Connector

from .browsing import in_thread, wait_for
from .conftest import WebServer


async def _watchers(web: WebServer, table: str, count: int) -> None:
    """Waits until the table counts ``count`` watchers."""
    while True:
        status, body = await web.get(f"/api/tables/{table}")
        assert status == 200
        if json.loads(body)["observers"] == count:
            return
        await trio.sleep(0.25)  # (under the per-address request limit)


def _navigation(driver: webdriver.Chrome) -> str:
    kind: str = driver.execute_script('return performance.getEntriesByType("navigation")[0].type')
    return kind


async def test_a_page_left_stops_watching_and_is_live_again_when_back(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(bot_clock_ms=120_000)  # no auto call while it waits
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await ann.expect("event", kind="start")
    with trio.fail_after(20):
        await in_thread(browser.get, web.url(f"/table/{table}"))
        await in_thread(wait_for, browser, 'body[data-live="open"]')
        await _watchers(web, table, 1)
        await in_thread(browser.get, web.url("/ladders"))  # the visitor reads on
        await _watchers(web, table, 0)
        await in_thread(browser.back)
        await in_thread(wait_for, browser, 'body[data-live="open"]')
        await _watchers(web, table, 1)
        # loaded afresh, not the put-away page with its socket closed
        assert await in_thread(_navigation, browser) in ("reload", "navigate")
