"""A request waiting for its turn under the web face's pace whose client goes gives back
its connection's place and its address's request as soon as the kernel tells it (a
reset; a whole close, told by the reset its interim 100 draws); a turn given as its
client went is the next one's; a client that only half-closed its side is answered
(server/web/gone_clients.py, docs/security.md §8)."""

from __future__ import annotations

import socket
import struct
from collections.abc import Callable
from typing import Any

import pytest
import trio
import trio.testing

from deberc_net.server.web.app import HERE
from deberc_net.server.web.fair_pace import Turn
from deberc_net.server.web.gone_clients import PROBE
from tests.server.client import dial_from

from .asking import answered
from .conftest import WebServer

StartWeb = Callable[..., Any]
ICON = b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n"


def reset(stream: trio.SocketStream) -> None:
    """Close ``stream`` with a reset (SO_LINGER 0), not a FIN."""
    stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    stream.socket.close()


async def waiting(source: str, web: WebServer, request: bytes = ICON) -> trio.SocketStream:
    """A connection from ``source`` whose request now waits for its turn."""
    stream = await dial_from(source, web.http_port)
    await stream.send_all(request)
    await trio.testing.wait_all_tasks_blocked(0.05)  # (the server's, in this process)
    return stream


@pytest.mark.timeout(60)
@pytest.mark.parametrize("how", ["reset", "close"])
@pytest.mark.parametrize("limit", ["connections", "requests"])
async def test_a_gone_waiting_client_gives_back_its_connection_and_its_request(
    start_web: StartWeb, how: str, limit: str
) -> None:
    # (failed before: both held till their turn, the next connection told 429, too
    # many connections; without that limit, too many requests)
    web: WebServer = await start_web(
        web_requests_per_s=0.5,  # a turn each 2 s
        web_requests_burst=1,
        web_connections_per_address=2 if limit == "connections" else 0,
        web_requests_per_address_per_s=0.001,  # (none again in the test)
        web_requests_per_address_burst=3,
    )
    with trio.fail_after(30):
        await answered(web, "127.0.0.2", 1, [])  # the burst: the next ones wait
        gone = [await waiting("127.0.0.2", web) for _ in range(2)]  # 2 places, 2 requests
        for stream in gone:
            if how == "reset":
                reset(stream)
            else:
                await stream.aclose()  # (a FIN: the probe's reset tells it gone)
        await trio.testing.wait_all_tasks_blocked(0.05)
        times: list[float] = []
        await answered(web, "127.0.0.2", 1, times)  # a place, and a request, again
    assert len(times) == 1


@pytest.mark.timeout(60)
async def test_a_turn_given_as_its_client_resets_is_the_next_ones(
    start_web: StartWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (failed before: the turn was spent on the gone client, the next waited a turn)
    per_s = 0.5  # a turn each 2 s
    web: WebServer = await start_web(web_requests_per_s=per_s, web_requests_burst=1)
    first_turn: list[float] = []
    set_turn = Turn.set

    def given(turn: Turn, *, skipped: bool = False) -> None:
        if not skipped and not first_turn:  # the racer's (the first queued): reset as given
            first_turn.append(trio.current_time())
            reset(racer)
        set_turn(turn, skipped=skipped)

    monkeypatch.setattr(Turn, "set", given)
    with trio.fail_after(30):
        await answered(web, "127.0.0.2", 1, [])  # the burst (no turn given): the next ones wait
        racer = await waiting("127.0.0.10", web)  # (both new to the pace: first come first)
        times: list[float] = []
        await answered(web, "127.0.0.11", 1, times)
    assert first_turn and times
    assert times[0] - first_turn[0] < 0.5 / per_s, times[0] - first_turn[0]


async def answer_till_closed(stream: trio.SocketStream) -> bytes:
    answer = b""
    while data := await stream.receive_some(65536):
        answer += data
    return answer


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("path", "version"),
    [("/favicon.ico", "1.1"), ("/", "1.1"), ("/favicon.ico", "1.0"), ("/static/style.css", "1.1")],
)
async def test_a_half_closed_client_that_waited_is_answered(
    start_web: StartWeb, path: str, version: str
) -> None:
    # (failed before: taken as gone at its turn, its connection closed unanswered)
    web: WebServer = await start_web(web_requests_per_s=1.0, web_requests_burst=1)
    request = f"GET {path} HTTP/{version}\r\nHost: x\r\n\r\n".encode()
    with trio.fail_after(30):
        await answered(web, "127.0.0.2", 1, [])  # the burst: the next one waits
        stream = await waiting("127.0.0.3", web, request)
        await stream.send_eof()  # its whole request sent; it still reads
        answer = await answer_till_closed(stream)
    if version == "1.1" and answer.startswith(PROBE):  # (its FIN seen as it waited:
        answer = answer[len(PROBE) :]  # asked if it is still there, a 1xx it reads past)
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(head.lower().partition(b"content-length:")[2].split(b"\r\n")[0])
    assert len(body) == length, (len(body), length)  # (the whole answer)
    if path == "/favicon.ico":
        assert answer.endswith((HERE / "static" / "favicon.ico").read_bytes())
