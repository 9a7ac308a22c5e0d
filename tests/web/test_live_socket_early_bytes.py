"""Bytes sent with a live socket's request, before the server's answer, end that
connection and nothing else (docs/security.md §4). hypercorn's own answer to them, a
400, raced the app's accept and raised out of the connection: the whole server stopped."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import trio
from trio_websocket import open_websocket_url

from tests.server.conftest import Connector

from .conftest import WebServer
from .live import text_of

StartWeb = Callable[..., Any]
UPGRADE = (
    b"GET /live/table/1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n"
)
PING = b"\x89\x80\x01\x02\x03\x04"  # a client's ping frame


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "request_bytes",
    [
        UPGRADE + b"\r\n" + PING,  # a frame before the answer
        UPGRADE + b"Content-Length: 5\r\n\r\nhello",  # a body
        UPGRADE + b"\r\n" + UPGRADE + b"\r\n",  # a second request
        UPGRADE.replace(b"/table/1", b"/table/99") + b"\r\n" + PING,  # a socket refused
        UPGRADE.replace(b"/live/table/1", b"/") + b"\r\n" + PING,  # no socket's address
    ],
)
async def test_bytes_before_the_answer_end_that_connection_only(
    start_web: StartWeb, connect: Connector, request_bytes: bytes
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(20):
        answer = await web.answer_to(request_bytes)
        assert not answer.startswith(b"HTTP/1.1 101"), answer  # never a socket open
        # the server serves on: the table's player, a new player, another page
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
        bob = await connect.machine(web.port, "bob")
        await bob.send("sit 1")
        await bob.expect("ok", cmd="sit")
        async with open_websocket_url(f"ws://127.0.0.1:{web.http_port}/live/table/1") as page:
            assert (await text_of(page)).startswith("ok cmd=observe table=1 ")
            status, body = await web.get("/api/tables/1")
            assert status == 200 and json.loads(body)["observers"] == 1  # that page alone


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "request_bytes",
    [
        UPGRADE.replace(b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", b"") + b"\r\n",
        UPGRADE.replace(b"Version: 13", b"Version: 8") + b"\r\n" + PING,
    ],
)
async def test_a_handshake_hypercorn_refuses_ends_its_connection(
    start_web: StartWeb, request_bytes: bytes
) -> None:
    """A WebSocket request hypercorn itself refuses (no key, another version: 400,
    'connection: close'), which the page never sees nor the requests' allowance counts,
    kept its connection open as long as the client liked: 300 of them from one address
    were 300 sockets held by the server, an address's way to its file limit."""
    web: WebServer = await start_web()
    with trio.fail_after(30):  # (it waited for the client: for ever)
        answer = await web.answer_to(request_bytes)
    assert answer.startswith(b"HTTP/1.1 400 "), answer
