"""A live socket's frames are spent from an allowance (docs/security.md §4): hypercorn
answers pings itself and reads pongs and a message's pieces without a pause, so one
socket sending them without end held the server's one loop and stopped every game."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Pong, Request

from deberc_net.server.config import Config
from deberc_net.server.web.ws_limit import TOO_MANY_FRAMES
from tests.server.conftest import Connector

from .conftest import WebServer

StartWeb = Callable[..., Any]
MASK = b"\x01\x02\x03\x04"


def frame(opcode: int, fin: bool = True) -> bytes:
    """A client's (masked) frame with nothing in it: 6 bytes."""
    return bytes([(0x80 if fin else 0) | opcode, 0x80]) + MASK


PING, PONG = frame(9), frame(10)
PIECE = frame(0, fin=False)  # a piece of a text message, not its last


async def watching(web: WebServer, connect: Connector) -> tuple[trio.SocketStream, WSConnection]:
    """A live socket on table 1 (ann waits there), opened by hand."""
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    client = WSConnection(ConnectionType.CLIENT)
    stream = await trio.open_tcp_stream("127.0.0.1", web.http_port)
    await stream.send_all(client.send(Request(host="x", target="/live/table/1")))
    accepted = False
    while not accepted:  # (a frame sent before the answer is not the socket's)
        client.receive_data(await stream.receive_some(65536))
        accepted = any(isinstance(event, AcceptConnection) for event in client.events())
    return stream, client


async def told_until_closed(
    stream: trio.SocketStream, client: WSConnection
) -> tuple[int, CloseConnection | None]:
    """The pongs the server sent, and its close, until the connection ends."""
    pongs, close = 0, None
    with contextlib.suppress(trio.BrokenResourceError):
        while data := await stream.receive_some(65536):
            client.receive_data(data)
            for event in client.events():
                pongs += isinstance(event, Pong)
                if isinstance(event, CloseConnection):
                    close = event
    return pongs, close


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "frames", [PING * 20_000, PONG * 20_000, frame(1, fin=False) + PIECE * 20_000]
)
async def test_a_socket_that_floods_frames_is_closed_and_read_no_further(
    start_web: StartWeb, connect: Connector, frames: bytes
) -> None:
    # (failed before: every ping answered, and the socket read on without end)
    web: WebServer = await start_web()
    stream, client = await watching(web, connect)
    with trio.fail_after(20):
        async with stream:
            with contextlib.suppress(trio.BrokenResourceError):
                await stream.send_all(frames)
            pongs, close = await told_until_closed(stream, client)
        assert close is not None and close.code == 1008, close
        assert close.reason == TOO_MANY_FRAMES
        burst = Config().web_socket_frames_burst
        assert pongs <= burst + 5  # (the allowance's, and what a second or so adds)
        assert frames[:6] != PING or pongs >= burst
        bob = await connect.machine(web.port, "bob")  # the server plays on
        await bob.send("sit 1")
        await bob.expect("ok", cmd="sit")


@pytest.mark.timeout(30)
async def test_a_client_that_pings_now_and_then_is_never_cut_off(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A client library's keep-alive (a ping every second or so) and the page's pongs to
    the server's pings stay within the allowance for as long as the socket lives."""
    web: WebServer = await start_web()
    stream, client = await watching(web, connect)
    pongs = 0
    with trio.fail_after(7200):  # (virtual time: a hang's limit, passed at once)
        async with stream:
            for sent in range(1, 101):
                await stream.send_all(client.send(Ping(b"k")))
                while pongs < sent:  # its pong (not 1.5 s of reading: a loaded machine's
                    # pong came after the virtual clock had jumped that window's end)
                    data = await stream.receive_some(65536)
                    assert data, "closed"
                    client.receive_data(data)
                    for event in client.events():
                        assert not isinstance(event, CloseConnection), event
                        pongs += isinstance(event, Pong)
                        if isinstance(event, Ping):  # the server's own, every 25 s
                            await stream.send_all(client.send(event.response()))
                await trio.sleep(1.5)  # (a whole second: a token's time)
    assert pongs == 100


@pytest.mark.timeout(30)
async def test_no_frame_allowance_when_either_is_0(start_web: StartWeb, connect: Connector) -> None:
    web: WebServer = await start_web(web_socket_frames_burst=0)
    stream, client = await watching(web, connect)
    pongs = 0
    with trio.fail_after(20):
        async with stream:
            await stream.send_all(PING * 500)
            while pongs < 500:
                client.receive_data(await stream.receive_some(65536))
                pongs += sum(isinstance(event, Pong) for event in client.events())
