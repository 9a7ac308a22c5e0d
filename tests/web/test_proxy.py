"""The web face behind a reverse proxy (docs/web.md, "Behind a proxy"), over a real
server on loopback: it listens on its own address (``http_host``)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import trio

from .conftest import WebServer

StartWeb = Callable[..., Any]


def reaches(host: str, port: int) -> bool:
    """Whether a TCP connection to ``host``:``port`` is taken (not refused)."""
    try:
        socket.create_connection((host, port), timeout=5).close()
    except ConnectionRefusedError:
        return False
    return True


async def test_the_web_face_listens_on_http_host_while_the_game_port_is_public(
    start_web: StartWeb,
) -> None:
    # a tryout: host = "0.0.0.0" opened the web face to the world beside the game port
    web: WebServer = await start_web(host="0.0.0.0", http_host="127.0.0.1")
    # 127.0.0.2 is another of this machine's addresses: only every-address listens there
    assert await trio.to_thread.run_sync(reaches, "127.0.0.2", web.port)
    assert not await trio.to_thread.run_sync(reaches, "127.0.0.2", web.http_port)
    assert (await web.ask("GET", "/api/tables"))[0] == 200  # on 127.0.0.1 it serves


async def test_without_http_host_the_web_face_listens_on_the_games_host(
    start_web: StartWeb,
) -> None:
    web: WebServer = await start_web(host="0.0.0.0")  # as before http_host
    assert await trio.to_thread.run_sync(reaches, "127.0.0.2", web.http_port)
