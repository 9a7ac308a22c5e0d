"""A web connection ends when its answer says so, or once idle for the keep-alive
(docs/security.md §8): after a static file's answer it stayed open for good, the
server's to hold for as long as the client liked."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
import trio

from deberc_net.server.web.serve import KEEP_ALIVE_S
from tests.stall_meter import stall_meter

from .conftest import WebServer

StartWeb = Callable[..., Any]


def asked(path: str, close: bool) -> bytes:
    told = b"Connection: close\r\n" if close else b""
    return b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n" + told + b"\r\n"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("path", ["/static/style.css", "/favicon.ico", "/", "/api/tables"])
async def test_an_answer_that_says_close_closes_its_connection(
    start_web: StartWeb, path: str
) -> None:
    # (failed before for the static files: the client had to close)
    web: WebServer = await start_web()
    with trio.fail_after(KEEP_ALIVE_S + 20), stall_meter() as meter:
        start = time.monotonic()
        answer = await web.answer_to(asked(path, close=True))
        ran = meter.ran_s(start, time.monotonic())
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
    # closed by the answer, not by the idle timer (the server is in this process: a
    # stall of the machine's is not its wait)
    assert ran < KEEP_ALIVE_S / 2, ran


# the keep-alive of the idle tests: the server's own 5 s waited out three times was
# 15 s of the suite; what they pin is that an idle connection is closed at its
# keep-alive, whatever its length (the 5 s itself: test_web_doc_audit.py)
SHORT_KEEP_ALIVE_S = 1.0


@pytest.mark.timeout(30)
@pytest.mark.parametrize("path", ["/static/style.css", "/favicon.ico", "/"])
async def test_a_connection_kept_alive_and_left_idle_is_closed(
    start_web: StartWeb, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    # (failed before for the static files: open for as long as the client stayed)
    monkeypatch.setattr("deberc_net.server.web.serve.KEEP_ALIVE_S", SHORT_KEEP_ALIVE_S)
    web: WebServer = await start_web()
    started = trio.current_time()
    with trio.fail_after(SHORT_KEEP_ALIVE_S + 20):
        answer = await web.answer_to(asked(path, close=False))
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
    assert trio.current_time() - started >= SHORT_KEEP_ALIVE_S * 0.9  # kept alive meanwhile


@pytest.mark.timeout(30)
@pytest.mark.parametrize("path", ["/", "/api/tables"])
async def test_a_client_that_closes_its_side_mid_request_costs_no_traceback(
    start_web: StartWeb, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    # (failed before: hypercorn's 'Error in ASGI Framework' and 55 lines, for each)
    web: WebServer = await start_web()
    promised = b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 13\r\n\r\n"
    with trio.fail_after(20):
        for _ in range(10):
            stream = await trio.open_tcp_stream("127.0.0.1", web.http_port)
            async with stream:
                await stream.send_all(promised)
                await stream.send_eof()  # (the body never comes)
                while await stream.receive_some(65536):
                    pass
        status, _ = await web.get(path)  # served on
    assert status == 200
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.timeout(30)
@pytest.mark.parametrize("path", ["/static/style.css", "/static/table.js", "/"])
async def test_a_client_that_half_closes_after_its_request_gets_its_answer_whole(
    start_web: StartWeb, path: str
) -> None:
    # (failed before for the static files: the head, then the close, no body)
    web: WebServer = await start_web()
    with trio.fail_after(20):
        stream = await trio.open_tcp_stream("127.0.0.1", web.http_port)
        async with stream:
            await stream.send_all(asked(path, close=False))
            await stream.send_eof()  # (as `nc -N` does: it still reads)
            answer = b""
            while data := await stream.receive_some(65536):
                answer += data
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 "), head
    length = int(head.lower().partition(b"content-length:")[2].split(b"\r\n")[0])
    assert len(body) == length, (len(body), length)
