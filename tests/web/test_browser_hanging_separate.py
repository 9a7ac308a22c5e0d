"""The live table page under `hanging-separate` (docs/rules.md §10): after two hanging
bides in a row it says both sums, as the players' deal start does ('Hanging: 57 for
this deal, 71 for the next.'), live, as served and in Russian, and its deals' list the
sheet's note ('hanging 57, then 71'); the words alone were tested before
(test_browser_live_hanging). While nothing hangs, its empty line takes no room: its
margins collapse into the next paragraph's (a review took it for a blank line under the
score; measured here, it adds nothing, and a layout that kept its margins would show)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from selenium import webdriver

from deberc_net.protocol.render import hanging_now
from tests.server.conftest import Connector

from .browsing import in_thread, script_result
from .conftest import WebServer
from .plain_play import deals_played, text_of

pytestmark = pytest.mark.timeout(90)

# deals 1 and 2 of a moscow hanging-separate match on this seed both hang, both
# seats ordering whenever they may and playing their first legal card: 57, then 71
SEPARATE_SEED = "hangsep-38400"
# the room between the score and the paragraph after the hanging line (#over, empty
# too while the match goes on), and the one paragraph margin it would take alone
ROOM = """const over = document.getElementById('over');
const gap = over.getBoundingClientRect().top
  - document.getElementById('score').getBoundingClientRect().bottom;
return [Math.round(gap), Math.round(parseFloat(getComputedStyle(over).marginTop))];"""


async def test_both_sums_hang_on_the_page_and_an_empty_line_takes_no_room(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web(match_seed=SEPARATE_SEED, bot_clock_ms=120_000)
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow hanging-separate")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await in_thread(browser.get, web.url(f"/table/{table}"))
    await in_thread(script_result, browser, "return window.debercLines.length > 0", True)
    assert await in_thread(text_of, browser, "#hanging") == ""
    gap, alone = await in_thread(browser.execute_script, ROOM)
    assert gap == alone > 0  # the empty line adds no room of its own
    await bob.send(f"sit {table}")
    end = await deals_played(ann, bob, 2)
    assert (end["outcome"], end["hanging"], end.get("hanging_after")) == ("hanging", "57", "71")
    said = "Hanging: 57 for this deal, 71 for the next."
    assert said == hanging_now(57, (71,)).strip()  # the players' words at deal 3's start
    live = "return document.getElementById('hanging').textContent"
    assert await in_thread(script_result, browser, live, said) == said
    gap, alone = await in_thread(browser.execute_script, ROOM)
    assert gap > 2 * alone  # a line of text now
    row = (
        "return document.querySelector('#deals tbody tr:nth-child(2) td:nth-child(2)')?.textContent"
    )
    note = "hanging, hanging 57, then 71"
    assert await in_thread(script_result, browser, row, note) == note
    try:  # as served, in Russian
        await in_thread(browser.get, web.url(f"/table/{table}?lang=ru"))
        await in_thread(script_result, browser, "return document.body.dataset.live", "open")
        russian = "Висит: 57 на эту раздачу, 71 на следующую."
        assert await in_thread(text_of, browser, "#hanging") == russian
        cell = await in_thread(text_of, browser, "#deals tbody tr:nth-child(2) td:nth-child(2)")
        assert cell == "висит, висит 57, затем 71"
    finally:  # the language's cookie: the session's next pages in theirs
        await in_thread(browser.delete_all_cookies)
