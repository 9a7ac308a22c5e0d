"""The web face speaks HTTP/1.1 alone (docs/security.md §8): hypercorn's HTTP/2 on the
plain port answered each PING frame unmetered, and one connection of them slowed every
player's calls tenfold."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio

from .conftest import WebServer

StartWeb = Callable[..., Any]
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # an empty SETTINGS frame
PING = b"\x00\x00\x08\x06\x00\x00\x00\x00\x00" + b"12345678"


@pytest.mark.timeout(30)
async def test_an_h2c_upgrade_is_answered_in_http_1_1(start_web: StartWeb) -> None:
    # (failed before: '101 Switching Protocols', then HTTP/2 frames)
    web: WebServer = await start_web()
    with trio.fail_after(20):
        answer = await web.answer_to(
            b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings, close\r\n"
            b"Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n",
        )
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
    assert b"</html>" in answer


@pytest.mark.timeout(30)
async def test_http_2s_preface_and_pings_get_an_http_1_1_refusal(start_web: StartWeb) -> None:
    # (failed before: a SETTINGS frame, and a PING's ACK for each PING, without end)
    web: WebServer = await start_web()
    with trio.fail_after(20):
        answer = await web.answer_to(PREFACE + SETTINGS + PING * 1000)
    assert answer.startswith(b"HTTP/1.1 404 "), answer[:100]
    assert answer.count(b"HTTP/1.1 ") == 2 and b"HTTP/1.1 400 " in answer  # then a close
    assert b"12345678" not in answer  # no PING answered
