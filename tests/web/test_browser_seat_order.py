"""The live table page lays the seats out in the order they play: clockwise (docs/rules.md
§8, "the first clockwise from the dealer" is the next seat), so the seat after the
bottom one sits on its left, at a desk and on a phone (headless Chromium,
tests/web/conftest.py).

A club evening of three: the kibitzer saw olga, who plays after tanya, on tanya's right,
and the cards went round the felt the wrong way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver

from tests.server.conftest import Connector

from .browsing import PHONE, in_thread, sized, wait_for
from .conftest import WebServer

# each seat's box's middle, across and down
MIDDLES = """
return Object.fromEntries([...document.querySelectorAll("#board .seat")].map((e) => {
  const r = e.getBoundingClientRect();
  return [e.id, [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
}));
"""


def _middles(driver: webdriver.Chrome, url: str, seats: int) -> dict[str, list[float]]:
    driver.get(url)
    wait_for(driver, f"#seat-{seats - 1}")
    middles: dict[str, list[float]] = driver.execute_script(MIDDLES)
    return middles


def _clockwise(middles: dict[str, list[float]], seats: int) -> None:
    """Seat 0 at the bottom; then, as a clock's hand goes seen from above: the next on
    its left, the one across at the top (four), the last on its right."""
    x = {int(k.removeprefix("seat-")): v[0] for k, v in middles.items()}
    y = {int(k.removeprefix("seat-")): v[1] for k, v in middles.items()}
    last = seats - 1
    assert x[1] < x[0] < x[last], middles
    assert y[0] > y[1] and y[0] > y[last], middles
    if seats == 4:
        assert y[2] < y[1] and x[1] < x[2] < x[3], middles


async def test_the_table_page_lays_three_and_four_seats_out_clockwise(
    start_web: Callable[..., Any], browser: webdriver.Chrome, connect: Connector
) -> None:
    web: WebServer = await start_web()
    tables = {}
    for seats, names in ((3, ("tanya", "olga", "ed")), (4, ("ann", "bob", "cat", "dan"))):
        people = [await connect.machine(web.port, name) for name in names]
        await people[0].send(f"new {seats}")
        tables[seats] = (await people[0].expect("ok", cmd="sit"))["table"]
        for person in people[1:]:
            await person.send(f"sit {tables[seats]}")
            await person.expect("ok", cmd="sit")
    with trio.fail_after(60):
        for seats, table in tables.items():
            url = web.url(f"/table/{table}")
            _clockwise(await in_thread(_middles, browser, url, seats), seats)
            with sized(browser, PHONE):
                _clockwise(await in_thread(_middles, browser, url, seats), seats)
