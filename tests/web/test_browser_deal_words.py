"""The live table page's script says each deal's outcome as the page served says it
(render.deal_word): a void deal `redealt` in English, «пересдача» in Russian; the
English script said its code, `void` (a leftover, s44). Headless Chromium."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait

from deberc_net.game.outcomes import Outcome
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.render import deal_word
from tests.server.conftest import Connector

from .conftest import WebServer


async def test_the_live_pages_script_says_each_outcome_as_the_sheet_does(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    wait = WebDriverWait(browser, 20, poll_frequency=0.05)
    outcomes = [str(o) for o in Outcome]
    said: dict[Lang, list[str]] = {}
    try:
        with trio.fail_after(60):
            for lang in (Lang.EN, Lang.RU):
                await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}?lang={lang}"))
                await trio.to_thread.run_sync(
                    wait.until, lambda d: d.execute_script("return window.debercLines.length") > 0
                )
                said[lang] = await trio.to_thread.run_sync(
                    browser.execute_script,
                    "return arguments[0].map((o) => window.debercDealWord(o, ['0', '0']));",
                    outcomes,
                )
    finally:
        await trio.to_thread.run_sync(browser.delete_all_cookies)
    for lang in (Lang.EN, Lang.RU):
        assert said[lang] == [deal_word(o, [0, 0], ["ann", "-"], False, lang) for o in outcomes]
    assert said[Lang.EN][outcomes.index("void")] == "redealt"
    assert said[Lang.RU][outcomes.index("void")] == "пересдача"
