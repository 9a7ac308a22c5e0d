"""A player's page says in its title what it is, in the page's language (headless
Chromium, tests/web/conftest.py; docs/web.md): a tab or a bookmark named "bob" alone
did not say it was a player's page of deberc-net."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver

from tests.server.conftest import Connector

from .conftest import WebServer


@pytest.mark.timeout(120)
async def test_a_players_page_title_says_it_is_a_players_page(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    # (failed before: the title was "bob — deberc-net")
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await ann.send("invite bob")
    await ann.expect("ok", cmd="invite")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await ann.send("leave")  # a forfeit: bob has a finished match, and his page
    await bob.expect("event", kind="match-end")
    with trio.fail_after(60):
        for lang, title in (
            ("en", "bob — player — deberc-net"),
            ("ru", "bob — игрок — deberc-net"),
        ):
            await trio.to_thread.run_sync(browser.get, web.url(f"/players/bob?lang={lang}"))
            assert browser.title == title, lang
