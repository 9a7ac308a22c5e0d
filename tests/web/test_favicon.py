"""Every page names an icon the server serves, and a browser asking /favicon.ico by
itself gets it too: no 404 in the browser's console on each page (tryout 18)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio
from selenium import webdriver

from .conftest import WebServer

# each as an image, in the browser: its width once decoded, 0 if it failed
LOAD_ICONS = """
const done = arguments[arguments.length - 1];
const link = document.querySelector('link[rel="icon"]');
const sources = [link ? link.href : "", "/favicon.ico"];
Promise.all(sources.map((src) => new Promise((resolve) => {
  if (!src) { resolve(0); return; }
  const img = new Image();
  img.onload = () => resolve(img.naturalWidth);
  img.onerror = () => resolve(0);
  img.src = src;
}))).then(done);
"""


async def test_every_page_names_an_icon_that_the_browser_decodes(
    start_web: Callable[..., Any], browser: webdriver.Chrome
) -> None:
    web: WebServer = await start_web()
    for path in ("/", "/ladders", "/games/m404"):  # a page, another, a 404 page
        status, body = await web.get(path)
        assert b'<link rel="icon" href="/static/favicon.ico">' in body, (path, status)
    status, body = await web.get("/favicon.ico")
    assert status == 200 and body.startswith(b"\x00\x00\x01\x00")  # an ICO
    with trio.fail_after(30):
        await trio.to_thread.run_sync(browser.get, web.url("/"))
        widths = await trio.to_thread.run_sync(browser.execute_async_script, LOAD_ICONS)
    assert widths == [16, 16]
