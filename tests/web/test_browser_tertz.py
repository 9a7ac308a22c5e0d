"""A Tertz table on the web (docs/web.md): the live page and the page as served show
the talk as spoken (the break 'lomayu N', not its token), the talon's count, and stop
showing the turned card once it is drawn."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from deberc_net.protocol.lang import spoken_call, table_words
from deberc_net.testing import rule_book
from tests.server.client import LineClient, fields, seat_pair
from tests.server.conftest import Connector

from .browsing import in_thread, wait_for
from .conftest import WebServer, screenshot

# a Tertz table's own words for calls ('bella' is 'mariage'), as its pages say them
TERTZ_WORDS = table_words(rule_book().ruleset(2, "tertz", ()).call_aliases)
SHOWN = """
return [document.getElementById("talon").textContent,
        Array.from(document.querySelectorAll("#talk li"), (li) => li.textContent),
        Array.from(document.querySelectorAll("#status .card"), (c) => c.dataset.card)];
"""


def as_shown(state: dict[str, str], names: dict[int, str]) -> list[Any]:
    """What the page should show for an observer's state: the talon, the talk as
    spoken, the turned card while it lies in the talon."""
    talk = [item.split(":", 1) for item in state["talk"].split(",") if item]
    shown: dict[str, list[str]] = {}  # a seat's shown cards, after its 'pokazyvayu'
    for item in state["shown"].split(","):
        if item:
            seat, card = item.split(":", 1)
            shown.setdefault(seat, []).append(spoken_call(card))
    said = []
    for seat, token in talk:
        said.append(f"{names[int(seat)]}: {spoken_call(token, TERTZ_WORDS)}")
        if token == "pokazyvayu" and seat in shown:
            said.append(f"{names[int(seat)]}: shows {' '.join(shown.pop(seat))}")
    turned = [] if state["talon"] == "0" else [state["turned"]]
    return [f"Talon {state['talon']}", said, turned]


async def test_a_tertz_tables_pages_show_the_break_in_words_and_the_talon(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(bot_clock_ms=120_000)  # no auto call meanwhile
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    watcher = await connect.machine(web.port, "watcher")
    table, seat_ann, seat_bob = await seat_pair(ann, bob, "2 tertz")
    names = {seat_ann: "ann", seat_bob: "bob"}
    by_seat: dict[int, LineClient] = {seat_ann: ann, seat_bob: bob}
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(wait_for, browser, 'body[data-live="open"] #status .card')
    await watcher.send(f"observe {table}")
    await watcher.expect("ok", cmd="observe")
    rng = random.Random(3)
    talons: set[str] = set()
    served = False
    with trio.fail_after(90):
        while True:
            await watcher.send("state")
            state = await watcher.expect("state")
            if state["deal"] != "1" or state["to_act"] == "-":
                break
            want = as_shown(state, names)
            await in_thread(
                WebDriverWait(browser, 5, poll_frequency=0.02).until,
                lambda d, want=want: d.execute_script(SHOWN) == want,
            )
            talons.add(state["talon"])
            if state["talon"] == "10" and not served:  # the page as served, no script
                served = True
                await in_thread(screenshot, browser, "tertz-table")
                page = (await web.get(f"/table/{table}"))[1].decode()
                assert '<div id="talon">Talon 10</div>' in page
                said = "".join(f"<li>{item}</li>" for item in want[1])
                assert f'<ol id="talk">{said}</ol>' in page and "lomayu " in said
            player = by_seat[int(state["to_act"])]
            ask = fields(await player.read_until(lambda x: x.startswith("ask ")))[1]
            await player.send(f"{rng.choice(ask['legal'].split(','))} seq={ask['seq']}")
            # the watcher's next state comes after the call's event
            await watcher.read_until(lambda x, seq=int(ask["seq"]): _event_after(x, seq))
    assert served and {"14", "12", "2", "0"} <= talons, talons
    talk = await in_thread(lambda: browser.find_element(By.ID, "talk").text)
    assert "lomayu-" not in talk


def _event_after(line: str, seq: int) -> bool:
    tag, f = fields(line)
    return tag == "event" and int(f["seq"]) > seq


# every kind of call token the talk may hold: the cards, the orders, the answers to
# 'rost?', Tertz's break, and plain words (docs/protocol.md §3)
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
TOKENS = [
    *(rank + suit for rank in RANKS for suit in "shdc"),
    *(f"igrayu-{suit}" for suit in "shdc"),
    *(f"ot-{rank}" for rank in RANKS),
    *(f"ot-{rank}-kozyrnogo" for rank in RANKS),
    *(f"lomayu-{n}" for n in range(1, 13)),
    *("pas", "igrayu", "rost?", "ne-prokhodit", "dva-tertsa", "sto-tuzov", "menyayu"),
]


async def _spoken_on_live_page(
    web: WebServer, browser: webdriver.Chrome, connect: Connector, game: str, tokens: list[str]
) -> list[str]:
    """``tokens`` as the live page of a new table of ``game`` ('new GAME') says them."""
    ann = await connect.machine(web.port, "ann")
    await ann.send(f"new {game}")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(wait_for, browser, 'body[data-live="open"]')
    said: list[str] = await in_thread(
        browser.execute_script, "return arguments[0].map(window.debercSpoken)", tokens
    )
    return said


async def test_the_pages_spoken_calls_are_spoken_call(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """The live page's copy of spoken_call (table.js) says every call as Python does:
    a Deberts table's orders and answers too, which a Tertz match never says."""
    web: WebServer = await start_web()
    said = await _spoken_on_live_page(web, browser, connect, "2", TOKENS)
    assert said == [spoken_call(token) for token in TOKENS]


async def test_a_tertz_tables_live_page_says_its_own_words_as_the_page_served(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """Tertz's 'bella' is 'mariage' at its tables (protocol/lang.py table_words): the page
    as served said 'ann: mariage', the English live page's script 'ann: bella' (a
    full-suite run's failure of the test above, in a deal with a mariage by talon 10)."""
    web: WebServer = await start_web()
    tokens = [*TOKENS, "bella"]
    said = await _spoken_on_live_page(web, browser, connect, "2 tertz", tokens)
    assert said == [spoken_call(token, TERTZ_WORDS) for token in tokens]
    assert said[-1] == "mariage"
