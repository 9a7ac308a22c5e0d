"""The table page's WebSocket, read by a plain WebSocket client (no browser)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import trio
from trio_websocket import ConnectionClosed, ConnectionRejected, open_websocket_url

from tests.server.client import fields, is_event, play_machine
from tests.server.conftest import Connector

from .conftest import WebServer

StartWeb = Callable[..., Any]


def live_url(web: WebServer, table: int) -> str:
    return f"ws://127.0.0.1:{web.http_port}/live/table/{table}"


async def test_the_page_gets_exactly_the_lines_of_an_observers_connection(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 moscow to-301")
    await ann.expect("ok", cmd="sit")
    carl = await connect.machine(web.port, "carl")  # an observer's connection
    await carl.send("observe 1")
    await carl.expect("ok", cmd="observe")
    socket_lines: list[str] = []
    with trio.fail_after(30):
        async with open_websocket_url(live_url(web, 1)) as socket:
            while not socket_lines:  # the page is observing once told so
                socket_lines += (await socket.get_message()).split("\r\n")
            bob = await connect.machine(web.port, "bob")
            await bob.send("sit 1")
            await bob.expect("ok", cmd="sit")
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play_machine, ann, random.Random(1))
                nursery.start_soon(play_machine, bob, random.Random(2))
            await carl.read_until(lambda line: is_event(line, "match-end"))
            with pytest.raises(ConnectionClosed):  # the table closed: so does the socket
                while True:
                    socket_lines += (await socket.get_message()).split("\r\n")
    socket_lines = [line for line in socket_lines if line]
    observed = carl.lines[
        carl.lines.index(next(line for line in carl.lines if line.startswith("ok cmd=observe"))) :
    ]
    assert socket_lines[0] == "ok cmd=observe table=1 text=You observe table 1."
    # carl's own arrival was told before the page looked on; the page itself, having no
    # name, is counted but never announced
    assert not [line for line in socket_lines if "kind=observer" in line]
    observed = [line for line in observed if "kind=observer" not in line]
    assert socket_lines == observed[: len(socket_lines)] and len(socket_lines) == len(observed)
    kinds = {fields(line)[1].get("kind") for line in socket_lines}
    assert {"start", "deal", "play", "trick", "deal-end", "match-end"} <= kinds


async def test_live_sockets_are_capped_and_unknown_tables_refused(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web(max_web_viewers=1)
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    with trio.fail_after(10):
        with pytest.raises(ConnectionRejected):
            async with open_websocket_url(live_url(web, 9)):
                pass
        async with open_websocket_url(live_url(web, 1)) as first:
            assert (await first.get_message()).startswith("ok cmd=observe table=1 ")
            with pytest.raises(ConnectionRejected):  # one viewer at most
                async with open_websocket_url(live_url(web, 1)):
                    pass
        for _ in range(50):  # the first one's place is free once the server has seen it go
            try:
                async with open_websocket_url(live_url(web, 1)) as again:
                    assert (await again.get_message()).startswith("ok cmd=observe")
                    break
            except ConnectionRejected:
                await trio.sleep(0.05)
        else:
            raise AssertionError("a closed viewer's place was never freed")


async def test_a_private_table_is_not_watched_live(start_web: StartWeb, connect: Connector) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2 private")
    table = int((await ann.expect("ok", cmd="sit"))["table"])
    with trio.fail_after(10), pytest.raises(ConnectionRejected):
        async with open_websocket_url(live_url(web, table)):
            pass
