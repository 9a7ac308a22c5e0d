"""The live table page marks what the clock made for a seat whose time ran out, as the
replay and `history` do (docs/web.md: `ann: pas (by the clock)`, the card it played
`(by the clock)`): live, as the events tell it (`auto=1`), as served, and on a page
loaded afresh, whose socket's first `state` line (its `talk=` says nothing of the
clock) must not wipe the served marks; in Russian «(по часам)». Headless Chromium.

A visitor's tryout: the live page showed the clock's pass and card as the player's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

from deberc_net.game.seeding import first_dealer
from tests.server.client import LineClient, fields, is_event
from tests.server.conftest import Connector

from .browsing import in_thread
from .conftest import WebServer

SEED = "clock-marks"  # the decks', and the first dealer's, by lot
HELD_S = 60  # the dealer's clock, held while the page is read
CARD = re.compile(r"(?:10|[789JQKA])[shdc]")
# the talk's lines, and each laid card's mark ('' for none), seat by seat
SEEN = """
const talk = [...document.querySelectorAll("#talk li")].map((li) => li.textContent);
const laid = [...document.querySelectorAll("#board .laid .card")].map((c) =>
  c.nextElementSibling && c.nextElementSibling.classList.contains("by-clock")
    ? c.dataset.card + c.nextElementSibling.textContent : c.dataset.card);
return [talk, laid];
"""
# the socket open, its observe told (a waiting table's says no state)
OBSERVING = """
return document.body.dataset.live === "open"
  && window.debercLines.some((line) => line.startsWith("ok cmd=observe"));
"""
# the socket's first state line applied: the page redrew from it
STATE_IN = """
return document.body.dataset.live === "open"
  && window.debercLines.some((line) => line.startsWith("state "));
"""


async def _drive(
    client: LineClient, clock: dict[str, str], card_laid: trio.Event, go_on: trio.Event
) -> None:
    """Answer each ask, but let the clock answer the first ask of the bidding and the
    first of the play (whoever gets them); once the clock has played a card
    (``card_laid``), answer nothing more until ``go_on``."""
    while True:
        line = await client.read_until(lambda _: True, 60)
        tag, f = fields(line)
        assert tag != "error", f"{client.label}: {line}"
        if is_event(line, "call") and f.get("auto") == "1":
            clock["call_seat"] = f["seat"]
        elif is_event(line, "play") and f.get("auto") == "1":
            clock.update(card=f["card"], seat=f["seat"])
            card_laid.set()
        elif tag == "ask":
            if not clock.get(f["phase"]):
                clock[f["phase"]] = "1"  # this one the clock answers
                continue
            if "card" in clock:
                clock.update(held_seat=f["seat"], held_clock=f["clock"])
                await go_on.wait()
                return
            legal = f["legal"].split(",")
            call = "igrayu" if "igrayu" in legal else next(c for c in legal if CARD.fullmatch(c))
            await client.send(f"{call} seq={f['seq']}")


def _marked(driver: webdriver.Chrome) -> Any:
    """What the page shows once it marks a call and a laid card (well within the
    held seat's clock)."""
    last: list[Any] = []

    def check(d: webdriver.Chrome) -> bool:
        last[:] = [d.execute_script(SEEN)]
        talk, laid = last[0]
        return any("(" in said for said in talk) and any("(" in card for card in laid)

    try:
        WebDriverWait(driver, HELD_S / 2, poll_frequency=0.05).until(check)
    except TimeoutException:  # (what it showed last, not at the call: [])
        raise AssertionError(f"the page shows {last}") from None
    return last[0]


@pytest.mark.timeout(150)
async def test_the_table_page_marks_what_the_clock_made(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    # The clock runs out twice, on the first ask of the bidding and of the play: the
    # non-dealer's, who speaks and leads first (moscow), with the bot clock, 2.5 s. The
    # page is then read (and served again) while the clock's card lies, the dealer's
    # ask held: his clock is a person's ('clock human'), a minute, so a loaded host's
    # slow page (once past the 2.5 s of both clocks: the dealer's clock played on and
    # the page was read too late) has the time. The dealer: by lot from the seed.
    web: WebServer = await start_web(
        bot_clock_ms=2500, human_clock_ms=HELD_S * 1000, match_seed=SEED
    )
    dealer = first_dealer(SEED, 2)
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow")
    sat = await ann.expect("ok", cmd="sit")
    table, seat_ann = int(sat["table"]), int(sat["seat"])
    seat_bob = 1 - seat_ann
    names = {seat_ann: "ann", seat_bob: "bob"}
    held = ann if seat_ann == dealer else bob
    await held.send("clock human")
    await held.expect("ok", cmd="clock")
    url = web.url(f"/table/{table}")
    clock: dict[str, str] = {}
    card_laid, go_on = trio.Event(), trio.Event()
    try:
        with trio.fail_after(120):
            # live before the match starts: its first calls come over the socket
            await in_thread(browser.get, url)
            await in_thread(
                lambda: WebDriverWait(browser, 30).until(lambda d: d.execute_script(OBSERVING))
            )
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_drive, ann, clock, card_laid, go_on)
                nursery.start_soon(_drive, bob, clock, card_laid, go_on)
                await bob.send(f"sit {table}")
                await card_laid.wait()
                laid = trio.current_time()
                card = clock["card"]
                caller = names[int(clock["call_seat"])]
                # live: the events' auto=1
                live = await in_thread(_marked, browser)
                # as served, without the script
                status, body = await web.get(f"/table/{table}")
                # afresh, in Russian: served, then its socket's state line
                await in_thread(browser.get, url + "?lang=ru")
                await in_thread(
                    lambda: WebDriverWait(browser, 30).until(lambda d: d.execute_script(STATE_IN))
                )
                fresh = await in_thread(browser.execute_script, SEEN)
                read = trio.current_time()
                go_on.set()
                nursery.cancel_scope.cancel()
    finally:
        await in_thread(browser.delete_all_cookies)  # the Russian page's choice
    # the clock ran out for the non-dealer alone, and the dealer's held till the page
    # was read (else the table moved on: what was read is not what this test says)
    assert clock["call_seat"] == clock["seat"] == str(1 - dealer), clock
    assert clock["held_seat"] == str(dealer) and int(clock["held_clock"]) > 2500, clock
    assert read - laid < HELD_S
    other = names[seat_bob if caller == "ann" else seat_ann]
    assert live == [
        [f"{caller}: pas (by the clock)", f"{other}: igrayu"],
        [f"{card} (by the clock)"],
    ]
    html = body.decode()
    assert status == 200
    assert f"<li>{caller}: pas (by the clock)</li>" in html
    assert f'data-card="{card}"' in html and '<span class="by-clock"> (by the clock)</span>' in html
    assert fresh[0][0] == f"{caller}: пас (по часам)"
    assert not any("часам" in said for said in fresh[0][1:])
    assert len(fresh[1]) == 1 and fresh[1][0].endswith(" (по часам)"), fresh
