"""Every page names an icon the server serves, and a browser asking /favicon.ico by
itself gets it too: no 404 in the browser's console on each page (tryout 18)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio.to_thread
import pytest
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


async def test_the_icon_is_answered_from_memory_with_no_trip_to_a_thread(
    start_web: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # (failed before: a file's answer, four trips each: stat, open, read, close)
    web: WebServer = await start_web()
    trips: list[object] = []
    run_sync = anyio.to_thread.run_sync

    async def counted(func: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(func)
        return await run_sync(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    with trio.fail_after(20):
        root = await web.answer_to(
            b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        static = await web.answer_to(
            b"GET /static/favicon.ico HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
    assert len(trips) >= 3  # the static file's, still a file's: counted here
    del trips[:]
    with trio.fail_after(20):
        root = await web.answer_to(
            b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
    assert trips == []
    # the same bytes, and the same validators, as the static file's answer
    head, _, body = root.partition(b"\r\n\r\n")
    static_head, _, static_body = static.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and body == static_body and len(body) == 149

    def told(head: bytes) -> dict[bytes, bytes]:
        lines = [line.partition(b":") for line in head.split(b"\r\n")[1:]]
        return {name.strip().lower(): value.strip() for name, _, value in lines}

    for name in (b"etag", b"last-modified", b"content-length"):  # (its type as before)
        assert told(head)[name] == told(static_head)[name], name
