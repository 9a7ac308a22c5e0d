"""A list that scrolls in its own box (docs/web.md: a list wider than the window) is
read from the keyboard: a link in it, focused by Tab, is wholly in view in its box
(Chromium scrolls to a focused element only when none of it shows, and left a link
half hidden at the box's edge), and a box with no link in it is itself a stop of Tab,
named for a screen reader, so that it can be scrolled with the arrow keys (headless
Chromium, tests/web/conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests.ladder.helpers import RAND, RAND2, ladder
from tests.server.client import a_whole_match
from tests.server.conftest import Connector

from .browsing import ax_name, in_thread, sized
from .conftest import WebServer

# a phone: a player's matches' list runs past it, its players' links at its edge
NAMES = ("ann-marie-kowalska", "bob-the-second-42")  # as long as the house bots' names
NARROW = {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": True}
# each link in a scrolling box that shows in part, not whole (the box's own edges)
HALF_SHOWN = """
const cut = [];
for (const box of document.querySelectorAll(".list-box")) {
  const b = box.getBoundingClientRect();
  for (const a of box.querySelectorAll("a")) {
    const r = a.getBoundingClientRect();
    const some = r.right > b.left && r.left < b.right;
    if (some && !(r.left >= b.left && r.right <= b.right)) cut.push(a.textContent);
  }
}
return cut;
"""
# the element focused: its text, whether it is a link in a box, shown whole in it, and
# whether it was focused before (the page's every stop gone round)
FOCUSED = """
const a = document.activeElement, box = a.closest(".list-box");
window.focusedBefore = window.focusedBefore || new Set();
const again = window.focusedBefore.has(a);
window.focusedBefore.add(a);
if (!box || a.tagName !== "A") return [a.textContent, null, again];
const b = box.getBoundingClientRect(), r = a.getBoundingClientRect();
return [a.textContent, r.left >= b.left && r.right <= b.right, again];
"""
# a box that scrolls and holds no link: a stop of Tab (tabindex 0)
LINKLESS = """
return [...document.querySelectorAll(".list-box, figure, #talk")]
  .filter((box) => !box.querySelector("a"))
  .map((box) => [box.querySelector("[id]") ? box.querySelector("[id]").id : box.id, box.tabIndex]);
"""


def _tabbed(driver: webdriver.Chrome, path: str) -> tuple[list[str], list[tuple[str, bool]]]:
    """The links first shown in part on ``path``, and each link in a box as Tab focuses
    it, with whether it was then shown whole."""
    driver.get(path)
    cut = driver.execute_script(HALF_SHOWN)
    seen: list[tuple[str, bool]] = []
    for _ in range(40):  # (till the focus comes round again: each stop seen once)
        ActionChains(driver).send_keys(Keys.TAB).perform()  # (no scroll of its own)
        text, whole, again = driver.execute_script(FOCUSED)
        if again:
            break
        if whole is not None:
            seen.append((text, whole))
    return cut, seen


@pytest.mark.timeout(90)
async def test_a_scrolling_lists_links_show_whole_when_focused_and_linkless_boxes_are_stops(
    start_web: Callable[..., Any], db_path: Path, browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, NAMES[0])
    bob = await connect.machine(web.port, NAMES[1])
    with trio.fail_after(60):
        await a_whole_match(ann, bob, "2 short")
        await ann.send("new 2")  # a table waiting: its page's talk and deals
        table = (await ann.expect("ok", cmd="sit"))["table"]
        await trio.to_thread.run_sync(
            lambda: ladder(
                db_path.parent, "--bot", RAND, "--bot", RAND2, "--deals", "1", db=db_path
            )
        )

    def look() -> dict[str, Any]:
        out: dict[str, Any] = {}
        with sized(browser, NARROW):
            try:
                for path in (f"/players/{NAMES[0]}", "/ladders", "/ladders/1"):
                    out[path] = _tabbed(browser, web.url(f"{path}?lang=en"))
                    out[path + " linkless"] = browser.execute_script(LINKLESS)
                    out[path + " names"] = [
                        ax_name(browser, css)
                        for css in (".list-box:not(:has(a))", "figure")
                        if browser.execute_script(f"return !!document.querySelector('{css}')")
                    ]
                browser.get(web.url(f"/table/{table}?lang=en"))
                out["table linkless"] = browser.execute_script(LINKLESS)
                out["table names"] = [ax_name(browser, css) for css in ("#talk", ".list-box")]
            finally:  # the language's cookie: the session's next pages in theirs
                browser.delete_all_cookies()
        return out

    with trio.fail_after(30):
        seen = await in_thread(look)
    cut, tabbed = seen[f"/players/{NAMES[0]}"]
    assert cut, "no link shows in part: the page does not try it"
    assert tabbed and all(whole for _, whole in tabbed), tabbed
    for path in ("/ladders", "/ladders/1"):
        assert all(whole for _, whole in seen[path][1]), seen[path]
        linkless = seen[path + " linkless"]
        assert linkless and all(index == 0 for _, index in linkless), linkless
        assert all(seen[path + " names"]), seen[path + " names"]
    assert seen["table linkless"] == [["talk", 0], ["deals", 0]], seen["table linkless"]
    assert seen["table names"] == ["Talk", "Deals"], seen["table names"]
    assert seen["/ladders/1 names"][0] == "Pairs (first against second)"
    assert seen["/ladders/1 names"][1].startswith("Each pair's Elo")  # its caption
