"""The live table page from its first message to its last, in headless Chromium
(tests/web/conftest.py): what it shows at a table still waiting, and once it is no
longer live."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.conftest import Connector

from .conftest import WebServer, page_errors

LINES_READ = "return window.debercLines.length"


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    return await trio.to_thread.run_sync(fn, *args)


def until(
    driver: webdriver.Chrome, check: Callable[[webdriver.Chrome], Any], timeout: float = 10
) -> Any:
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(check)


async def test_a_waiting_tables_page_still_says_so_once_its_script_runs(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """The socket's first message at a waiting table has no state line (no deal): the
    page used to write 'Deal undefined' and throw on the turned card it had not."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 4")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    with trio.fail_after(30):
        await in_thread(browser.get, web.url(f"/table/{table}"))
        # a message is handled whole before a script of the test's runs: its sizes too
        await in_thread(until, browser, lambda d: d.execute_script(LINES_READ) > 0)
        status = await in_thread(lambda: browser.find_element(By.ID, "status").text)
        assert status == "Waiting for players"
        assert await in_thread(page_errors, browser) == []
