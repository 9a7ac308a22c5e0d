"""The live table page and the replay tell what an nc observer is told: the cards shown
by 'pokazyvayu' (public at the table, docs/rules.md §3.5) and, at the match's end, who
won and why in words (docs/web.md) (headless Chromium, tests/web/conftest.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from deberc_net.game.cards import parse_card
from deberc_net.protocol.render import pretty_card
from deberc_net.server.web.ends import END_WORDS, match_over_words
from tests.server.client import LineClient, fields, is_event
from tests.server.conftest import Connector

from .browsing import ax_role, wait_for
from .conftest import WebServer

TALK = 'return [...document.querySelectorAll("#talk li")].map((e) => e.textContent);'
# what the players choose when they may: a declaration is shown whenever it can be
SHOWING = ("pokazyvayu", "pokazhi", "terts", "dva-tertsa", "pyatdesyat", "sto")


async def _play_till_shown(client: LineClient, rng: random.Random) -> dict[str, str]:
    """Answer asks, showing and asking to be shown all it can, until a seat's cards are
    shown; that ``shown`` event's fields (the match must not end first)."""
    while True:
        line = await client.read_until(lambda _: True, 20)
        tag, f = fields(line)
        assert tag != "error" and not is_event(line, "match-end"), f"{client.label}: {line}"
        if is_event(line, "shown"):
            return f
        if tag == "ask":
            legal = f["legal"].split(",")
            wanted = [c for c in SHOWING if c in legal]
            await client.send(f"{wanted[0] if wanted else rng.choice(legal)} seq={f['seq']}")


def _talk_has(driver: webdriver.Chrome, said: str) -> list[str]:
    def found(d: webdriver.Chrome) -> Literal[False] | list[str]:
        talk: list[str] = d.execute_script(TALK)
        return talk if said in talk else False

    got: list[str] = WebDriverWait(driver, 20, poll_frequency=0.05).until(found)
    return got


async def test_the_live_page_and_the_replay_show_shown_cards_and_name_the_winner(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    # known decks: with fresh ones a match ended once before either side could show
    # (a fresh-clone run, s29: a claim at 512 first)
    web: WebServer = await start_web(match_seed="shown-early")
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    with trio.fail_after(90):
        await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}"))
        await trio.to_thread.run_sync(
            WebDriverWait(browser, 30, poll_frequency=0.05).until,
            lambda d: d.execute_script("return window.debercLines.length") > 0,
        )
        await bob.send(f"sit {table}")
        await bob.expect("ok", cmd="sit")
        match = (await ann.expect("event", kind="start"))["match"]
        async with trio.open_nursery() as nursery:
            for client, seed in ((ann, 1), (bob, 2)):
                nursery.start_soon(_play_till_shown, client, random.Random(seed))
        shown = fields([x for x in ann.lines if is_event(x, "shown")][-1])[1]
        who = ("ann", "bob")[int(shown["seat"])]
        cards = " ".join(pretty_card(parse_card(c)) for c in shown["cards"].split(","))
        said = f"{who}: shows {cards}"
        # live, as it happens, right after the 'pokazyvayu'
        talk = await trio.to_thread.run_sync(_talk_has, browser, said)
        assert talk[talk.index(said) - 1] == f"{who}: pokazyvayu"
        # the page as served (no script) lists it the same way
        status, body = await web.get(f"/table/{table}")
        assert status == 200 and f"<li>{who}: pokazyvayu</li><li>{said}</li>" in body.decode()
        # a page opened now gets it from its state line
        await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}"))
        await trio.to_thread.run_sync(_talk_has, browser, said)

        await ann.send("leave")  # a forfeit: bob wins, whatever the score
        end = await bob.expect("event", kind="match-end")
        assert (end["reason"], end["name"]) == ("left", "bob")
        await bob.aclose()  # the rematch's offer off: the page's socket closes at once
        over = await trio.to_thread.run_sync(
            WebDriverWait(browser, 20, poll_frequency=0.05).until,
            lambda d: d.find_elements(By.ID, "replay-link") and d.find_element(By.ID, "over"),
        )
        text = await trio.to_thread.run_sync(lambda: over.text)
        assert text == "Match over: bob wins (ann left the table: forfeit). Replay it"
        # both said to a screen reader as they come (a status), not left for it to find
        await trio.to_thread.run_sync(wait_for, browser, "#gone:not([hidden])")
        assert await trio.to_thread.run_sync(ax_role, browser, "#over") == ("status", "polite")
        assert await trio.to_thread.run_sync(ax_role, browser, "#gone") == ("status", "polite")

    status, body = await web.get(f"/games/{match}")
    page = body.decode()
    assert status == 200, page
    # the replay says it in the live page's words
    assert '<span id="over">Match over: bob wins (ann left the table: forfeit).</span>' in page
    # the name whole, the cards free to run on to the next line (a phone: docs/web.md)
    assert f'<span class="shows"><span class="who">{who}</span>: shows {cards}</span>' in page


async def test_the_live_page_and_the_replay_word_every_end_alike(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """One wording (web/ends.py match_over_words): the replay said 'won by ann, cat
    (…)' where the live page said 'Match over: ann and cat win (…)'."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}"))
    cases = [
        (winners, reason, who)
        for reason in [*END_WORDS, "a-plugins-own"]
        for winners in ([], ["ann"], ["ann", "cat"])
        for who in (None, "bob")
    ]
    said = await trio.to_thread.run_sync(
        browser.execute_script,
        "return arguments[0].map(([w, r, who]) => window.debercOverText(w, r, who));",
        cases,
    )
    assert said == [match_over_words(*case) for case in cases]
