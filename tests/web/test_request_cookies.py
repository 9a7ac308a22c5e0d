"""A Cookie header of thousands of cookies is not parsed whole (docs/security.md §8):
the pages read one cookie, ``lang``, and Starlette's parse of all of them (in Python,
a cookie at a time) cost the loop about 1.2 ms a request for 16 KiB of them."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import pytest
import trio

from deberc_net.server.web.choice import lang_cookie

from .conftest import WebServer

StartWeb = Callable[..., Any]
ROUNDS = 30


def get(path: bytes, headers: bytes) -> bytes:
    return b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + headers + b"\r\n"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("lang=ru", "ru"),
        ("a=b; lang=ru; c=d", "ru"),
        ('a=b;lang="ru"', "ru"),  # (quoted, as RFC 6265 allows a value)
        ("xlang=en; lang=ru", "ru"),  # another cookie's name ending in lang is not it
        ("lang_x=en; slang=en", None),
        ("a=lang=en", None),  # (a value, not a name)
        ("lang=ru; lang=en", "ru"),  # the first (a browser sends its longest path first)
        ("", None),
    ],
)
def test_the_lang_cookie_is_found_by_its_name_alone(header: str, lang: str | None) -> None:
    assert lang_cookie(header) == lang


@pytest.mark.timeout(90)
async def test_a_cookie_header_of_thousands_costs_no_more_than_any_head_as_long(
    start_web: StartWeb,
) -> None:
    # past the address's allowance, as a flood is: its 429 is told in the page's
    # language, read from the cookie (failed before: each refusal with the cookies cost
    # the loop 1.35 times one whose head was as long in another header)
    web: WebServer = await start_web(
        web_requests_per_address_per_s=0.01, web_requests_per_address_burst=1
    )
    many = "; ".join(f"c{i}=v" for i in range(1_500))  # 13 KiB, within the head's bound
    cookies = get(b"/", f"Cookie: {many}; lang=ru\r\n".encode())
    padded = get(b"/", f"X-Pad: {many}\r\nCookie: lang=ru\r\n".encode())
    assert abs(len(cookies) - len(padded)) < 16
    spent: dict[bytes, list[float]] = {cookies: [], padded: []}
    with trio.fail_after(60):
        for _ in range(ROUNDS):
            for sent, costs in spent.items():
                # the server's loop is this thread (the test's own client costs alike)
                began = time.thread_time()
                answer = await web.answer_to(sent)
                costs.append(time.thread_time() - began)
                assert answer.startswith((b"HTTP/1.1 200 ", b"HTTP/1.1 429 ")), answer[:200]
                # the language from the cookie
                assert b'<html lang="ru">' in answer or "слишком много".encode() in answer
    ratio = statistics.median(spent[cookies]) / statistics.median(spent[padded])
    assert ratio < 1.2, (ratio, statistics.median(spent[padded]))
