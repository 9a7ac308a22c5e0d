"""The live table page says a match a seat's true `konets` won so, as the table's end
line and the replay do (`ann claimed the match: konets`), not as the server's own
claim: both come as `reason=claim`, and the page hears the `konets` call just before
(docs/rules.md §10, docs/web.md). Two people at a manual-claim table, each saying
`konets` once his prompt offers it (only when it would win); headless Chromium."""

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

SEED = "konets-1"  # decks on which a prompt offers konets before a deal's end


async def play_saying_konets(client: LineClient) -> str:
    """Answer every prompt as a person does, saying konets once it is offered; the
    'Game over' line (its first line: the words may wrap)."""
    while True:
        line = await client.read_until(lambda _: True, 20)
        assert not line.startswith("Error"), f"{client.label}: {line}"
        if line.startswith("Game over:"):
            return line
        prompt = PROMPT.match(line)
        if prompt:
            offered = [o.strip() for o in prompt.group(1).split(" | ")]
            await client.send("konets" if "konets" in offered else human_choice(prompt.group(1)))


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
            WebDriverWait(browser, 10, poll_frequency=0.05).until,
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
