"""A live page told its table's close by a worker of before the ``closed=`` field (a
rolling restart, docs/scaling.md: the line is ``info text=Table 3 closes: …``, no
field) still says why its table closed: table.js knows the line by its words then
(docs/web.md, "A table's closing words"), in English and read back in Russian."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from deberc_net.protocol import events
from deberc_net.protocol.events import Info
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, Phrase, phrase
from deberc_net.server.web.words import W
from deberc_net.server.web.words import said as said_as
from tests.server.conftest import Connector

from .conftest import WebServer


def without_the_field(table: int, said: Phrase) -> Info:
    """A table's close as a worker of before the field said it: its words alone."""
    return Info(said.text(), said)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", [Lang.EN, Lang.RU])
async def test_a_close_told_without_the_closed_field_is_still_said(
    start_web: Callable[..., Any],
    browser: webdriver.Chrome,
    connect: Connector,
    monkeypatch: pytest.MonkeyPatch,
    lang: Lang,
) -> None:
    # (fails should the words' branch break: the page then says only that the table
    # closed, `No longer live: table 1 has closed.`, not why)
    monkeypatch.setattr(events, "table_closed", without_the_field)
    web: WebServer = await start_web(empty_table_ms=1000)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    wait = WebDriverWait(browser, 20, poll_frequency=0.05)
    try:
        with trio.fail_after(60):
            await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}?lang={lang}"))
            await trio.to_thread.run_sync(
                wait.until, lambda d: d.execute_script("return window.debercLines.length") > 0
            )
            await ann.aclose()  # the deserted table closes, its page told why
            said = await trio.to_thread.run_sync(
                wait.until,
                lambda d: d.find_element(By.ID, "gone").text,
            )
            lines = await trio.to_thread.run_sync(
                browser.execute_script, "return window.debercLines;"
            )
    finally:
        await trio.to_thread.run_sync(browser.delete_all_cookies)
    closes = phrase(Msg.TABLE_CLOSES, table=int(table), reason=phrase(Msg.PLAYERS_LEFT))
    # told as the older worker tells it: no closed= field, only its words
    assert f"info text={closes.text()}" in lines, lines
    assert said == said_as(W.NO_LONGER_LIVE, lang) + closes.text(lang)
