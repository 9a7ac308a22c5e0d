"""A replay's deal line on a phone (headless Chromium, tests/web/conftest.py): the full
stop after the turned card began the next line (`Сдаёт bob-the-second-42. Открыта 10♥`,
then `. Козырь ♦, …` at 375 pixels, a tryout, s46): a card is an inline block, after
which a line may break; the card and its stop are kept together (docs/web.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver

from tests.server.conftest import Connector

from .browsing import in_thread, sized
from .conftest import WebServer
from .plain_play import deals_played

NAMES = ("ann-marie-kowalska-1", "bob-the-second-42")

# each deal's first line: widths at which the text after its turned card starts a line
STOP_ON_ITS_OWN = """
const broken = [];
for (const p of document.querySelectorAll('section.deal > p:first-of-type')) {
  const card = p.querySelector('.card');
  let after = card.nextSibling;
  while (after && after.nodeType !== Node.TEXT_NODE) after = after.firstChild || after.nextSibling;
  const range = document.createRange();
  range.setStart(after, 0);
  range.setEnd(after, 1);
  const stop = range.getBoundingClientRect(), seen = card.getBoundingClientRect();
  if (stop.top >= seen.bottom - 1) broken.push(p.closest('section').id);
}
return broken;
"""


def _broken_at(driver: webdriver.Chrome, web: WebServer, match: str) -> list[str]:
    broken = []
    for lang in ("ru", "en"):
        driver.get(web.url(f"/games/{match}?lang={lang}"))
        for width in range(300, 480, 3):
            metrics = {"width": width, "height": 700, "deviceScaleFactor": 1, "mobile": True}
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            broken += [f"{lang} {width}: {d}" for d in driver.execute_script(STOP_ON_ITS_OWN)]
    return broken


async def test_the_stop_after_the_turned_card_never_starts_a_line(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, NAMES[0])
    bob = await connect.machine(web.port, NAMES[1])
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    match = (await ann.expect("event", kind="start"))["match"]
    await deals_played(ann, bob, 2)
    with trio.fail_after(60):
        await ann.send("leave")  # a forfeit: the match is over, its replay served
        await bob.expect("event", kind="match-end")
        with sized(browser, {"width": 375, "height": 700, "deviceScaleFactor": 1, "mobile": True}):
            broken = await in_thread(_broken_at, browser, web, match)
    assert broken == []
