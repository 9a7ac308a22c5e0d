"""What the tests in a real browser share (tests/web/test_browser.py,
test_browser_tertz.py): a blocking call (selenium's) run in a thread, and a wait for
elements on the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    return await trio.to_thread.run_sync(fn, *args)


def wait_for(driver: webdriver.Chrome, css: str, timeout: float = 10) -> Any:
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, css)
    )
