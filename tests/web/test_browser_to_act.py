"""The live table page marks the seat the table waits for all through a deal: each bid,
each question's answerer, each card (docs/web.md, "The live socket": the feed tells it,
the table's own, after a message's lines), its mark named for a screen reader; and it
says who ordered the trump as the replay does (headless Chromium, tests/web/conftest.py).

A visitor's tryout: the mark came from the page's first state alone, and stayed on that
seat, or nobody, for the rest of the deal.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.client import LineClient, fields, is_event, seat_pair
from tests.server.conftest import Connector

from .browsing import in_thread
from .conftest import WebServer

MARKED = 'return [...document.querySelectorAll(".seat.to-act")].map((e) => e.id);'
CARD = re.compile(r"(?:10|[789JQKA])[shdc]")
# a question first (its answerer is then asked), a declaration or the order next: the
# talk's turns come up; else a card or a pass at random
QUESTIONS = ("prokhodit?", "rost?", "pokazhi")


def _choose(legal: list[str], rng: random.Random) -> str:
    for token in QUESTIONS:
        if token in legal:
            return token
    talk = [t for t in legal if not CARD.fullmatch(t) and t not in ("pas", "skin")]
    return rng.choice(talk or legal)


def _marked_becomes(driver: webdriver.Chrome, seat: int) -> None:
    """The page marks ``seat``, and it alone (5 s at most: a feed's message is 0.25 s at
    most apart)."""
    WebDriverWait(driver, 30, poll_frequency=0.02).until(
        lambda d: d.execute_script(MARKED) == [f"seat-{seat}"],
        f"seat {seat} is to act; the page marks {driver.execute_script(MARKED)}",
    )


def _marks(driver: webdriver.Chrome) -> list[tuple[str, bool]]:
    """Each seat's mark: its accessible name, and whether it is shown."""
    return [
        (mark.accessible_name, mark.is_displayed())
        for mark in driver.find_elements(By.CSS_SELECTOR, "#board .seat .mark")
    ]


# the live feed's least time between two messages to a page (the server's 0.25 s,
# pinned by test_web_doc_audit.py): each ask here waits for the page's mark, some 25
# of them, each a message; the mark's following the seat is the same at any pace
FEED_WINDOW_S = 0.05


@pytest.mark.timeout(60)
async def test_the_mark_follows_the_seat_the_table_waits_for_through_a_deal(
    start_web: Callable[..., Any],
    browser: webdriver.Chrome,
    connect: Connector,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("deberc_net.server.web.feed.COALESCE_S", FEED_WINDOW_S)
    # no clock runs out meanwhile (an automatic call would not wait for the page); a
    # deal with a declaration in it, then 'pokazhi': its declarer answers (pending=show)
    web: WebServer = await start_web(bot_clock_ms=120_000, match_seed="shown-early")
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    table, seat_ann, seat_bob = await seat_pair(ann, bob, "2 moscow")
    by_seat = {seat_ann: ann, seat_bob: bob}
    names = {seat_ann: "ann", seat_bob: "bob"}
    send, asked = trio.open_memory_channel[tuple[int, str]](8)

    async def reading(seat: int, player: LineClient) -> None:
        """Each ask the seat gets (the table waits for it then), and its deal's end."""
        while True:
            line = await player.read_until(
                lambda x: x.startswith("ask ") or is_event(x, "deal-end"), 30
            )
            await send.send((seat, line))

    rng = random.Random(34)
    checked: list[dict[str, str]] = []  # the asks the mark was checked at
    cards = 0  # played
    with trio.fail_after(50):
        await in_thread(browser.get, web.url(f"/table/{table}"))
        async with trio.open_nursery() as nursery:
            for seat, player in by_seat.items():
                nursery.start_soon(reading, seat, player)
            ended = False
            while True:
                seat, line = await asked.receive()
                if line.startswith("event "):
                    ended = True  # and the next deal's first ask is checked too
                    continue
                ask = fields(line)[1]
                await in_thread(_marked_becomes, browser, seat)
                checked.append(ask)
                if len(checked) == 1:
                    marks = await in_thread(_marks, browser)
                    # only the shown one is read out (a hidden one is no name at all)
                    shown = [("to act", True) if s == seat else ("", False) for s in range(2)]
                    assert marks == shown, marks
                if ended:
                    break
                if ask["phase"] == "play" and ask["trump"] != "-":
                    trump = await in_thread(lambda: browser.find_element(By.ID, "trump").text)
                    assert trump.endswith(f", ordered by {names[int(ask['player'])]}"), trump
                call = _choose(ask["legal"].split(","), rng)
                cards += bool(CARD.fullmatch(call))
                await by_seat[seat].send(f"{call} seq={ask['seq']}")
            nursery.cancel_scope.cancel()
    # a deal's bids, its talk and every card: both seats, a question's answerer too
    assert cards >= 12, cards
    assert any(a["pending"] != "-" for a in checked), "no question was asked"
    assert checked[-1]["deal"] == "2"
