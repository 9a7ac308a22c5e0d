"""The live table page marks a seat away when its player drops and clears it when he is
back (docs/web.md) (headless Chromium, tests/web/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.client import fields
from tests.server.conftest import Connector

from .conftest import WebServer

AWAY_NOTES = 'return [...document.querySelectorAll(".seat .away")].map((e) => e.textContent);'


def _away_notes(driver: webdriver.Chrome, count: int) -> list[str]:
    """The seats' away notes, once there are ``count`` of them (20 s at most: a loaded
    machine)."""

    def notes(d: webdriver.Chrome) -> tuple[list[str]] | None:
        got: list[str] = d.execute_script(AWAY_NOTES)  # in one go: a note may go meanwhile
        return (got,) if len(got) == count else None  # (a tuple: an empty list is found too)

    found = WebDriverWait(driver, 20, poll_frequency=0.05).until(notes)
    assert found is not None  # (until raises TimeoutException, never gives None)
    return found[0]


def _live(driver: webdriver.Chrome) -> None:
    """Wait until the page's live socket has told it something (it is open)."""
    WebDriverWait(driver, 30, poll_frequency=0.05).until(
        lambda d: d.execute_script("return window.debercLines.length") > 0
    )


async def test_the_live_page_marks_an_away_seat_and_clears_it_when_he_is_back(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    token = fields(bob.lines[-1])[1]["token"]
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    with trio.fail_after(40):
        await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}"))
        assert await trio.to_thread.run_sync(_away_notes, browser, 0) == []
        await trio.to_thread.run_sync(_live, browser)
        await bob.aclose()
        await ann.expect("event", kind="away")
        (live,) = await trio.to_thread.run_sync(_away_notes, browser, 1)
        assert live.startswith("away")
        # (the served page's note, how long the seat is held: tests/web/test_away_seat.py)
        await connect.machine(web.port, "bob", token=token)
        await ann.expect("event", kind="back")
        assert await trio.to_thread.run_sync(_away_notes, browser, 0) == []
