"""The live table page says a match a seat's true `konets` won so, as the table's end
line and the replay do (`ann claimed the match: konets`), not as the server's own
claim: both come as `reason=claim`, and the page hears the `konets` call just before
(docs/rules.md §10, docs/web.md). Two people at a manual-claim table, each saying
`konets` when offered once he has counted that it wins (the prompt never tells him:
his written total and the cards of the tricks he took, at their plain values, which a
trump's never fall below, and combinations only add); headless Chromium."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.client import PROMPT, LineClient, human_choice
from tests.server.conftest import Connector

from .conftest import WebServer

SEED = "konets-1"  # decks on which a seat can count a true konets before a deal's end
TARGET = 301
PLAIN = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}  # a trump's: never less
TAKES = re.compile(r"^(\w+) takes the trick \((.+)\)\.$")
SCORE = re.compile(r"^Deal \d+\. .* Score: ([^.]+)\.")  # a deal's first line


async def play_saying_konets(client: LineClient) -> str:
    """Answer every prompt as a person does, saying konets when it is offered and his
    own count says it wins (at least his total and his tricks' plain card points); the
    'Game over' line (its first line: the words may wrap)."""
    total = taken = 0
    while True:
        line = await client.read_until(lambda _: True, 20)
        assert not line.startswith("Error"), f"{client.label}: {line}"
        if line.startswith("Game over:"):
            return line
        if (trick := TAKES.match(line)) and trick[1] == client.label:
            taken += sum(PLAIN.get(card[:-1], 0) for card in trick[2].split())
        if score := SCORE.match(line):
            told = dict(side.rsplit(" ", 1) for side in score[1].split(", "))
            total, taken = int(told[client.label]), 0
        prompt = PROMPT.match(line)
        if prompt:
            offered = [o.strip() for o in prompt.group(1).split(" | ")]
            sure = total + taken >= TARGET
            await client.send(
                "konets" if "konets" in offered and sure else human_choice(prompt.group(1))
            )


async def test_the_live_page_says_a_true_konets(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(match_seed=SEED)
    ann = await connect.human(web.port, "ann")
    bob = await connect.human(web.port, "bob")
    await ann.send("new 2 moscow manual-claim to-301")
    sat = await ann.read_until(lambda line: line.startswith("You sit at table"))
    found = re.search(r"table (\d+)", sat)
    assert found, sat
    table = found.group(1)
    with trio.fail_after(90):
        await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}"))
        await trio.to_thread.run_sync(
            WebDriverWait(browser, 30, poll_frequency=0.05).until,
            lambda d: d.execute_script("return window.debercLines.length") > 0,
        )
        await bob.send(f"sit {table}")
        ends: dict[str, str] = {}

        async def play(client: LineClient) -> None:
            ends[client.label] = await play_saying_konets(client)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, ann)
            nursery.start_soon(play, bob)
        end = re.match(r"Game over: (\w+) wins \(claimed: konets\)", ends["ann"])
        assert end is not None, ends["ann"]
        over = await trio.to_thread.run_sync(
            WebDriverWait(browser, 20, poll_frequency=0.05).until,
            lambda d: d.find_elements(By.ID, "replay-link") and d.find_element(By.ID, "over"),
        )
        text = await trio.to_thread.run_sync(lambda: over.text)
        assert text == f"Match over: {end[1]} wins ({end[1]} claimed the match: konets). Replay it"


async def test_a_page_that_did_not_hear_the_konets_still_says_it(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    """A page opened after the `konets` call (between it and the match's end) took the
    end for the server's own claim: it read the last call it had heard. At a
    manual-claim table the server never claims, so every `reason=claim` is a konets,
    and the page is told the table's option as served, whatever it heard since."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow manual-claim to-301")
    await bob.send("new 2 moscow to-301")
    tables = [(await c.expect("ok", cmd="sit"))["table"] for c in (ann, bob)]
    said = []
    with trio.fail_after(30):
        for table in tables:
            status, body = await web.get(f"/table/{table}")
            assert status == 200
            assert ('data-konets="1"' in body.decode()) == (table == tables[0])
            await trio.to_thread.run_sync(browser.get, web.url(f"/table/{table}"))
            await trio.to_thread.run_sync(
                WebDriverWait(browser, 30, poll_frequency=0.05).until,
                lambda d: d.execute_script("return window.debercLines.length") > 0,
            )
            # the match-end event alone: no call heard before it
            end = {"kind": "match-end", "name": "ann", "reason": "claim", "totals": "312,40"}
            said.append(
                await trio.to_thread.run_sync(
                    browser.execute_script, "return window.debercEndText(arguments[0]);", end
                )
            )
    assert said == [
        "Match over: ann wins (ann claimed the match: konets).",
        "Match over: ann wins (ann reached the target within the deal).",
    ]
