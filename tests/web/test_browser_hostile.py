"""The pages as a hostile visitor opens them in a real browser (headless Chromium,
tests/web/conftest.py): markup and script in every part of the address a page says
back (its path, its query, a player's name, a game, a page number, the language) is
shown as text or refused, never run, and no page sends the browser elsewhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
import trio
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException

from tests.server.conftest import Connector

from .conftest import WebServer, page_errors

MARKUP = '"><img src=x onerror="window.owned=1"><script>window.owned=2</script>'
QUOTED = quote(MARKUP, safe="")  # (as a browser would send it)
PATHS = [
    f"/players/{QUOTED}",
    f"/games/m1{QUOTED}",
    f"/table/1{QUOTED}",
    f"/nope/{QUOTED}",
    f"/top?variant={QUOTED}",
    f"/top?players={QUOTED}",
    f"/top?page={QUOTED}",
    f"/ladders/1?page={QUOTED}",
    f"/table/1?lang={QUOTED}",
    f"/?lang=ru&lang={QUOTED}",
    f"//{QUOTED}",
    "//elsewhere.example/",
    "/static/%2e%2e/%2e%2e/app.py",
    f"/api/players/{QUOTED}",
    f"/live/table/1?{QUOTED}",  # (the live socket's path, asked as a page)
]
# what a page would hold had the markup been taken as such
INJECTED = "return [window.owned || 0, document.querySelectorAll('[onerror],[onload]').length]"


@pytest.mark.timeout(180)
async def test_markup_in_the_address_is_never_run_nor_sends_the_browser_elsewhere(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")  # table 1, open: its live page too
    with trio.fail_after(150):
        for path in PATHS:

            def visit(path: str = path) -> tuple[list[Any], str, list[str]]:
                browser.get(web.url(path))
                try:
                    browser.switch_to.alert.dismiss()
                    raise AssertionError(f"{path}: an alert")
                except NoAlertPresentException:
                    pass
                # the live table page's links too, the language switch among them
                links = browser.execute_script(
                    "return [...document.querySelectorAll('a[href]')].map(a => a.href)"
                )
                return browser.execute_script(INJECTED), browser.current_url, links

            injected, url, links = await trio.to_thread.run_sync(visit)
            assert injected == [0, 0], path
            assert urlsplit(url).netloc == f"127.0.0.1:{web.http_port}", (path, url)
            assert page_errors(browser) == [], path
            for link in links:  # every link the page names is the server's own
                assert urlsplit(link).netloc == f"127.0.0.1:{web.http_port}", (path, link)
