"""The live table page from its first message to its last, in headless Chromium
(tests/web/conftest.py): what it shows at a table still waiting, and once it is no
longer live."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from deberc_net.protocol.lang import Lang
from deberc_net.server.web.words import PageWords
from tests.server.client import LineClient, fields, is_event, play_machine, seat_pair
from tests.server.conftest import Connector

from .conftest import WebServer, page_errors
from .servers import web_server

LINES_READ = "return (window.debercLines || []).length"  # none before table.js runs


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
        await _watching(browser, web, table)
        status = await in_thread(lambda: browser.find_element(By.ID, "status").text)
        assert status == "Waiting for players"
        assert await in_thread(page_errors, browser) == []
        # the match starts under its eyes: the score names its sides (pairs opposite)
        for name in ("bob", "cat", "dan"):
            player = await connect.machine(web.port, name)
            await player.send(f"sit {table}")
            await player.expect("ok", cmd="sit")
        sides = lambda d: d.find_element(By.ID, "sides").text == "ann+cat : bob+dan"  # noqa: E731
        await in_thread(until, browser, sides)
        whole = await in_thread(browser.find_elements, By.CSS_SELECTOR, "#sides .who")
        assert [e.text for e in whole] == ["ann", "cat", "bob", "dan"]  # each kept whole
        assert await in_thread(page_errors, browser) == []


def deal_rows(driver: webdriver.Chrome) -> list[list[str]]:
    rows: list[list[str]] = driver.execute_script(
        """return [...document.querySelectorAll("#deals tbody tr")]
             .map((tr) => [...tr.cells].map((td) => td.textContent));"""
    )
    return rows


def blocking_table_js(driver: webdriver.Chrome, blocked: bool) -> None:
    """Chromium fetches no table.js while blocked: the page stands as served."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*table.js*"] if blocked else []})


RUN_TABLE_JS = """
const script = document.createElement("script");
script.src = "/static/table.js?now=" + Date.now();
document.body.append(script);
"""


async def play_until_deal_ends(players: list[LineClient], deal: int) -> None:
    def ended(line: str) -> bool:
        assert not is_event(line, "match-end"), line
        return is_event(line, "deal-end") and fields(line)[1]["deal"] == str(deal)

    async with trio.open_nursery() as nursery:
        for seed, client in enumerate(players):
            nursery.start_soon(play_machine, client, random.Random(seed), ended)


def outcome_as_listed(sheet_deal: dict[str, str], names: list[str]) -> str:
    """A 'sheet-deal' line's outcome as the deals' list says it (table.html, table.js):
    a hung deal's with what hung after it ('hanging, hanging 50'). Taken as the bare
    outcome, a run whose seed hung deal 1 or 2 failed (1 run in 12)."""
    en = PageWords(Lang.EN)
    written = [int(v) for v in sheet_deal["written"].split(",")]
    after = [int(v) for v in sheet_deal.get("hanging_after", "").split(",") if v not in ("", "-")]
    outcome = en.deal_outcome(sheet_deal["outcome"], written, names, on_points=False)
    hung = en.deal_hanging(int(sheet_deal.get("hanging", "0")), after)
    return f"{outcome}, {hung}" if hung else outcome


async def test_a_deal_that_ends_before_the_socket_opens_is_listed(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """The served page lists the deals finished then; the socket's first lines used to
    carry none, and a row came only with a deal-end, so a deal ended between serving
    and the socket's opening was never listed. (table.js is held back to widen that
    window.)"""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    with trio.fail_after(60):
        await play_until_deal_ends([ann, bob], 1)
        try:
            await in_thread(blocking_table_js, browser, True)
            await in_thread(browser.get, web.url(f"/table/{table}"))
            assert [row[0] for row in await in_thread(deal_rows, browser)] == ["1"]
            await play_until_deal_ends([ann, bob], 2)
        finally:
            await in_thread(blocking_table_js, browser, False)
        await in_thread(browser.execute_script, RUN_TABLE_JS)
        await in_thread(until, browser, lambda d: d.execute_script(LINES_READ) > 0)
        await ann.send("sheet")
        await ann.read_until(lambda x: x.startswith("sheet-deal ") and " deal=2 " in x)
        sheet = [fields(x)[1] for x in ann.lines if x.startswith("sheet-deal ")]
        wanted = [
            [
                f["deal"],
                outcome_as_listed(f, ["ann", "bob"]),
                f["written"].replace(",", " : "),
                f["totals"].replace(",", " : "),
            ]
            for f in sheet
        ]
        assert [row[0] for row in wanted] == ["1", "2"]
        assert await in_thread(deal_rows, browser) == wanted
        assert await in_thread(page_errors, browser) == []


def gone_says(driver: webdriver.Chrome) -> str:
    """What the page says once no longer live (waited for)."""
    said: str = until(
        driver,
        lambda d: (
            d.find_element(By.ID, "gone").is_displayed() and d.find_element(By.ID, "gone").text
        ),
    )
    return said


async def closed(web: WebServer, table: str) -> None:
    while (await web.get(f"/api/tables/{table}"))[0] != 404:
        await trio.sleep(0.05)


async def test_a_match_that_ends_while_the_page_loads_is_said_to_be_over(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """The socket of a table gone is refused (403): the page stood at its served score
    for ever, with no 'Match over' and no replay link."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    match = (await bob.expect("event", kind="start"))["match"]
    with trio.fail_after(60):
        await play_until_deal_ends([ann, bob], 1)
        try:
            await in_thread(blocking_table_js, browser, True)
            await in_thread(browser.get, web.url(f"/table/{table}"))
            await ann.send("leave")  # a forfeit: bob wins
            await bob.expect("event", kind="match-end")
            await closed(web, table)
        finally:
            await in_thread(blocking_table_js, browser, False)
        assert await in_thread(browser.execute_script, TO_ACT)  # as served: deal 2's
        await in_thread(browser.execute_script, RUN_TABLE_JS)
        assert await in_thread(gone_says, browser) == "No longer live: the match is over."
        assert await in_thread(browser.execute_script, TO_ACT) == []  # nobody acts now
        over = await in_thread(lambda: browser.find_element(By.ID, "over").text)
        assert over == "Match over: bob wins (ann left the table: forfeit). Replay it"
        _, body = await web.get(f"/games/{match}")  # in the replay's words
        assert f'<span id="over">{over.removesuffix(" Replay it")}</span>'.encode() in body
        link = await in_thread(lambda: browser.find_element(By.ID, "replay-link"))
        assert await in_thread(link.get_attribute, "href") == web.url(f"/games/{match}")
        assert await in_thread(page_errors, browser) == []


TO_ACT = 'return [...document.querySelectorAll(".seat.to-act")].map((e) => e.id);'


async def test_once_no_longer_live_no_seat_is_marked_to_act(
    db_path: Path, browser: webdriver.Chrome, connect: Connector
) -> None:
    """The server gone mid-deal: the page said it was no longer live, its last seat to
    act still marked (a tryout); nobody is to act any more."""
    with trio.fail_after(30):
        async with web_server(db_path) as web:
            ann = await connect.machine(web.port, "ann")
            bob = await connect.machine(web.port, "bob")
            table, _, _ = await seat_pair(ann, bob, "2 moscow")
            await ann.expect("event", kind="deal")  # nobody answers: a seat is to act
            await _watching(browser, web, str(table))
            await in_thread(until, browser, lambda d: d.execute_script(TO_ACT))
        said = await in_thread(gone_says, browser)  # the server stopped: its socket lost
        assert said.startswith("No longer live: the server cannot be reached"), said
        assert await in_thread(browser.execute_script, TO_ACT) == []
        assert await in_thread(page_errors, browser) == []


async def test_the_page_says_when_the_match_ends_and_when_its_table_closes(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    with trio.fail_after(30):
        await _watching(browser, web, table)
        await ann.send("leave")  # nobody left: the waiting table closes
        said = await in_thread(gone_says, browser)
        assert said == f"No longer live: table {table} has closed."

        bob = await connect.machine(web.port, "bob")
        await ann.send("new 2 moscow")
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await _watching(browser, web, table)
        assert not await in_thread(lambda: browser.find_element(By.ID, "gone").is_displayed())
        await bob.send(f"sit {table}")
        await bob.expect("event", kind="start")
        await bob.send("leave")  # a forfeit: the match ends, the table closes
        await ann.expect("event", kind="match-end")
        await bob.aclose()  # the rematch's offer off: the socket closes at once
        assert await in_thread(gone_says, browser) == "No longer live: the match is over."
        over = await in_thread(lambda: browser.find_element(By.ID, "over").text)
        assert over == "Match over: ann wins (bob left the table: forfeit). Replay it"
        assert await in_thread(page_errors, browser) == []


async def _watching(browser: webdriver.Chrome, web: WebServer, table: str) -> None:
    """Table ``table``'s page open, its socket's first message read (a message is
    handled whole before a script of the test's runs: its sizes too)."""
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(until, browser, lambda d: d.execute_script(LINES_READ) > 0)
