"""What the tests in a real browser share (tests/web/test_browser.py,
test_browser_tertz.py, test_browser_phone.py, test_ladders.py): a blocking call
(selenium's) run in a thread, a wait for elements on the page, and a phone's size with
the check that a page fits it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import trio
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    return await trio.to_thread.run_sync(fn, *args)


def wait_for(driver: webdriver.Chrome, css: str, timeout: float = 30) -> Any:
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, css)
    )


def script_result(driver: webdriver.Chrome, script: str, want: Any, timeout: float = 30) -> Any:
    """What ``script`` returns once it returns ``want``, or its last answer after
    ``timeout`` seconds: for an assert that says how the page differs."""
    last: list[Any] = []

    def check(d: webdriver.Chrome) -> bool:
        last[:] = [d.execute_script(script)]
        return bool(last[0] == want)

    with suppress(TimeoutException):
        WebDriverWait(driver, timeout, poll_frequency=0.02).until(check)
    return last[0]


PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
DESKTOP = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}  # conftest's

# the window's width as laid out, and how far the page runs past it (a scroll bar aside)
FITS = """
const page = document.documentElement;
return [window.innerWidth, page.scrollWidth - page.clientWidth];
"""
# names, dates, tallies and links broken over two lines (house-/heuristic-3, 51-/2-/19),
# a seat's name on the board, a replay's play (a name and its card), and the header's
# links (deberc-/net, Турниры/ботов): an element
# whose text lies in rects one above another
BROKEN = """
const whole = ".who, .when, table.list td:not(.players), table.list a, h1 a, .hands th, "
  + ".seat .name, .tricks .play, header a";
return [...document.querySelectorAll(whole)].filter((e) => {
  if (e.closest("tr.empty")) return false;
  const range = document.createRange();
  range.selectNodeContents(e);
  const rects = [...range.getClientRects()].filter((r) => r.height > 0);
  return rects.some((a) => rects.some((b) => b.top >= a.bottom - 1));
}).map((e) => e.textContent);
"""


@contextmanager
def sized(driver: webdriver.Chrome, metrics: dict[str, Any]) -> Iterator[None]:
    """The browser at ``metrics`` (PHONE) for the block, then at the session's size."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", DESKTOP)


def assert_fits(driver: webdriver.Chrome, width: int, where: str) -> None:
    """The page is laid out at ``width`` (a phone's, by its viewport), nothing runs
    past it sideways, and no name, date or tally is broken over two lines."""
    assert driver.execute_script(FITS) == [width, 0], where
    assert driver.execute_script(BROKEN) == [], where


def ax_node(driver: webdriver.Chrome, css: str) -> dict[str, Any]:
    """The accessibility tree's node (what a screen reader is given) of the element at ``css``."""
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": css})
    tree = driver.execute_cdp_cmd(
        "Accessibility.getPartialAXTree", {"nodeId": node["nodeId"], "fetchRelatives": False}
    )
    ax: dict[str, Any] = tree["nodes"][0]
    return ax


def ax_role(driver: webdriver.Chrome, css: str) -> tuple[str, str | None]:
    """The role the accessibility tree gives the element at ``css``, and how it is told
    when it changes (its ``live`` property: 'polite'; None)."""
    ax = ax_node(driver, css)
    live = {p["name"]: p["value"].get("value") for p in ax.get("properties", [])}.get("live")
    return ax["role"]["value"], live


def ax_name(driver: webdriver.Chrome, css: str) -> str:
    """The element's accessible name (a landmark's, said when a reader lists them)."""
    name: str = ax_node(driver, css).get("name", {}).get("value", "")
    return name
