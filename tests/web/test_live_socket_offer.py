"""A live socket's compression offer the server cannot read is declined, and the socket
served without compression (docs/security.md §4): one handshake offering
`server_max_window_bits=abc` stopped the whole server, every game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
from trio_websocket import open_websocket_url

from tests.server.conftest import Connector

from .conftest import WebServer
from .live import text_of

StartWeb = Callable[..., Any]
HANDSHAKE = (
    b"GET /live/table/1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: %s\r\n\r\n"
)


async def first_frame(web: WebServer, offer: bytes) -> tuple[bytes, int, bytes]:
    """The answer's head to a live socket's handshake offering ``offer``, then its first
    message's frame (past the server's pings): its first byte (FIN, RSV1: compressed,
    opcode) and its payload, as a server sends it, unmasked."""
    stream = await trio.open_tcp_stream("127.0.0.1", web.http_port)
    async with stream:
        await stream.send_all(HANDSHAKE % offer)
        got = b""

        async def at_least(count: int) -> None:
            nonlocal got
            while len(got) < count:
                data = await stream.receive_some(65536)
                assert data, got
                got += data

        while b"\r\n\r\n" not in got:
            await at_least(len(got) + 1)
        head, got = got.split(b"\r\n\r\n", 1)
        while True:
            await at_least(2)
            length, start = got[1] & 0x7F, 2
            if length == 126:  # (its 16-bit length, then the payload)
                await at_least(4)
                length, start = int.from_bytes(got[2:4], "big"), 4
            await at_least(start + length)
            first, payload, got = got[0], got[start : start + length], got[start + length :]
            if first & 0x0F < 8:  # (not a control frame: a ping)
                return head, first, payload


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "offer",
    [
        b"permessage-deflate; server_max_window_bits=abc",
        b"permessage-deflate; client_max_window_bits=" + b"9" * 5000,
        b"permessage-deflate; client_max_window_bits=; server_no_context_takeover",
    ],
)
async def test_an_offer_that_cannot_be_read_is_declined_and_the_server_serves_on(
    start_web: StartWeb, connect: Connector, offer: bytes
) -> None:
    # (failed before: the server stopped, ann's connection with it)
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(20):
        head, first, payload = await first_frame(web, offer)
        assert head.startswith(b"HTTP/1.1 101 "), head
        assert b"sec-websocket-extensions" not in head.lower()  # declined: no compression
        assert first == 0x81  # a whole text frame, not compressed (RSV1 clear)
        assert payload.startswith(b"ok cmd=observe table=1 "), payload
        await ann.send("ping")  # the server serves on: the game, another page
        await ann.expect("ok", cmd="ping")
        async with open_websocket_url(f"ws://127.0.0.1:{web.http_port}/live/table/1") as page:
            assert (await text_of(page)).startswith("ok cmd=observe table=1 ")


@pytest.mark.timeout(30)
async def test_a_readable_offer_beside_it_is_still_taken(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(20):
        head, first, _ = await first_frame(
            web, b"permessage-deflate; server_max_window_bits=abc, permessage-deflate"
        )
    assert head.startswith(b"HTTP/1.1 101 "), head
    assert b"sec-websocket-extensions: permessage-deflate" in head.lower()
    assert first == 0xC1  # a whole text frame, compressed (RSV1 set)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "header",
    [
        b"Sec-WebSocket-Protocol: a, \xff",
        b"Sec-WebSocket-Extensions: permessage-deflate, x\xe9",
        b"X-Ok: 1\r\nConnection: Upgrade, \xff",
    ],
)
async def test_a_handshake_header_past_ascii_is_refused_400_and_the_server_serves_on(
    start_web: StartWeb, connect: Connector, header: bytes
) -> None:
    # (failed before: the server stopped, ann's connection with it)
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    handshake = HANDSHAKE.replace(b"Sec-WebSocket-Extensions: %s", header)
    with trio.fail_after(20):
        answer = await web.answer_to(handshake)  # (till the server closes)
        assert answer.startswith(b"HTTP/1.1 400 "), answer
        await ann.send("ping")
        await ann.expect("ok", cmd="ping")
        async with open_websocket_url(f"ws://127.0.0.1:{web.http_port}/live/table/1") as page:
            assert (await text_of(page)).startswith("ok cmd=observe table=1 ")
