"""Every answer of the web face says ``X-Content-Type-Options: nosniff`` (docs/web.md):
a JSON answer that echoes the path asked is never sniffed and read as a page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio

from .conftest import WebServer

StartWeb = Callable[..., Any]


async def answer_to(web: WebServer, request: bytes) -> bytes:
    """The head of the answer to ``request``, sent on a connection of its own."""
    stream = await trio.open_tcp_stream("127.0.0.1", web.http_port)
    async with stream:
        await stream.send_all(request)
        answer = b""
        while b"\r\n\r\n" not in answer and (data := await stream.receive_some(65536)):
            answer += data
    return answer.partition(b"\r\n\r\n")[0].lower()


def get(path: str) -> bytes:
    return b"GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path.encode()


@pytest.mark.timeout(30)
async def test_every_answer_says_nosniff(start_web: StartWeb) -> None:
    # (failed before: none said it)
    web: WebServer = await start_web()
    with trio.fail_after(30):
        asked = {
            "echoing json": get("/api/players/%3Cscript%3Ex%3C%2Fscript%3E"),
            "json": get("/api/tables"),
            "page": get("/"),
            "static": get("/static/style.css"),
            "missing page": get("/nowhere"),
            "hypercorn's own 400": b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
        }
        for what, request in asked.items():
            head = await answer_to(web, request)
            assert head.startswith(b"http/1.1 "), (what, head)
            assert b"\r\nx-content-type-options: nosniff" in head, (what, head)
            if what == "echoing json":
                assert b"content-type: application/json" in head, head
