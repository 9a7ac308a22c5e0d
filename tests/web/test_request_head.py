"""A request's head is bounded in bytes and lines before it is parsed (docs/security.md
§8): one that came whole in a read was parsed however long, 10,000 headers held the
server's loop some 90 ms a request, refused by the allowance or not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio

from deberc_net.server.web.request_head import HEAD_LINES, head_too_large

from .conftest import WebServer

StartWeb = Callable[..., Any]


def request(headers: bytes) -> bytes:
    return b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + headers + b"\r\n"


@pytest.mark.timeout(30)
async def test_a_head_of_too_many_lines_or_bytes_is_refused_431_not_read(
    start_web: StartWeb,
) -> None:
    # (failed before: 200 for both, each head parsed whole: the one read it came in)
    web: WebServer = await start_web()
    with trio.fail_after(20):
        many = await web.answer_to(request(b"X:\r\n" * 2000))  # 8 KiB: within the bytes
        long = await web.answer_to(request(b"X: " + b"a" * 40_000 + b"\r\n"))  # one line
        lf_only = await web.answer_to(request(b"X:\n" * 2000))  # (a bare LF ends a line too)
    for answer in (many, long, lf_only):
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]
        assert b"connection: close" in answer.lower()


@pytest.mark.timeout(30)
async def test_heads_within_the_limits_are_answered_pipelined_too(start_web: StartWeb) -> None:
    web: WebServer = await start_web()
    # with Host, HEAD_LINES header lines
    most = b"".join(b"X-%d: a\r\n" % i for i in range(HEAD_LINES - 1))
    keep = b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + most + b"\r\n"
    over = b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + most + b"X: b\r\nX: c\r\n\r\n"
    with trio.fail_after(20):
        # a head at the limit is answered; a pipelined one past it after it, refused
        answer = await web.answer_to(keep + keep + over + keep)
    assert answer.count(b"HTTP/1.1 200 ") == 2, answer
    assert answer.count(b"HTTP/1.1 431 ") == 1 and answer.count(b"HTTP/1.1 ") == 3, answer


def test_the_heads_measure() -> None:
    lines = b"GET / HTTP/1.1\r\n" + b"X: a\r\n" * HEAD_LINES
    assert not head_too_large(lines + b"\r\n", 16384)
    assert head_too_large(lines + b"X: a\r\n\r\n", 16384)
    assert head_too_large(lines + b"X: a\r\n", 16384)  # not complete, already past
    assert not head_too_large(b"GET / HTTP/1.1\r\nX: a", 16384)  # still coming
    assert not head_too_large(b"GET /" + b"a" * 16375 + b"\r\n\r\n", 16384)  # 16,384 bytes
    assert head_too_large(b"GET /" + b"a" * 16376 + b"\r\n\r\n", 16384)
    assert not head_too_large(b"GET /" + b"a" * 16379, 16384)  # still coming, at most
    assert head_too_large(b"GET /" + b"a" * 16380, 16384)
    # what follows the head (a body, the next request) is not the head's
    assert not head_too_large(b"GET / HTTP/1.1\r\n\r\n" + b"X\r\n" * 20_000, 16384)
