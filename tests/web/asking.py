"""Requests from a chosen loopback address, answers timed: for the tests of the web
face's pace (tests/web/test_request_pace.py, test_pace_gone_clients.py)."""

from __future__ import annotations

import trio

from tests.server.client import dial_from

from .conftest import WebServer


async def answered(web: WebServer, source: str, times: int, into: list[float]) -> None:
    """``times`` requests, one after another on one keep-alive connection from
    ``source``; when each answer came."""
    stream = await dial_from(source, web.http_port)
    async with stream:
        buffered = b""
        for _ in range(times):
            await stream.send_all(b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n")
            while b"\r\n\r\n" not in buffered:
                buffered += await stream.receive_some(65536)
            head, _, buffered = buffered.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 "), head
            length = int(head.lower().partition(b"content-length:")[2].split(b"\r\n")[0])
            while len(buffered) < length:
                buffered += await stream.receive_some(65536)
            buffered = buffered[length:]
            into.append(trio.current_time())
