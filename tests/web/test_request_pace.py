"""All addresses' requests together are paced (server/web/request_limit.py ``Pace``,
docs/security.md §8): many addresses, each within its own allowance, wait their turns
rather than take the server's loop from its tables; none is refused for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio
import trio.testing

from tests.server.client import dial_from

from .asking import answered
from .conftest import WebServer

StartWeb = Callable[..., Any]
PER_S, BURST = 20.0, 5.0
ADDRESSES, EACH = 6, 5  # 30 requests at once, each address within its allowance


@pytest.mark.timeout(60)
async def test_many_addresses_requests_wait_their_turns_none_refused(
    start_web: StartWeb,
) -> None:
    # (failed before: the 30 were answered as fast as the loop went, 0.1 s or so)
    web: WebServer = await start_web(web_requests_per_s=PER_S, web_requests_burst=BURST)
    times: list[float] = []
    began = trio.current_time()
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for i in range(ADDRESSES):
                nursery.start_soon(answered, web, f"127.0.0.{2 + i}", EACH, times)
    count = ADDRESSES * EACH
    assert len(times) == count  # every one answered 200
    # the burst at once, then PER_S a second: the last no sooner than its turn
    took = max(times) - began
    assert took >= (count - BURST) / PER_S - 0.05, took
    assert took < (count - BURST) / PER_S + 3, took  # (and not much later: a loaded host)


@pytest.mark.timeout(30)
async def test_a_pace_of_0_is_no_pace(start_web: StartWeb) -> None:
    """docs/settings.md, `web_requests_per_s`: either 0, no limit."""
    web: WebServer = await start_web(web_requests_per_s=0, web_requests_burst=1)
    times: list[float] = []
    began = trio.current_time()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            for i in range(ADDRESSES):
                nursery.start_soon(answered, web, f"127.0.0.{2 + i}", EACH, times)
    # at 1 at once and 0 a second the pace would never let the second in
    assert len(times) == ADDRESSES * EACH and max(times) - began < 10


async def flooded(web: WebServer, source: str, until: trio.Event, into: list[float]) -> None:
    """Requests from ``source``, one after another, until ``until`` is set."""
    while not until.is_set():
        await answered(web, source, 1, into)


@pytest.mark.timeout(60)
async def test_a_visitor_waits_for_the_addresses_not_for_every_request_of_a_flood(
    start_web: StartWeb,
) -> None:
    # (failed before: first come, first served, he waited behind the flood's 32
    # connections' requests, 32 turns, 1.6 s)
    web: WebServer = await start_web(web_requests_per_s=PER_S, web_requests_burst=BURST)
    flood: list[float] = []
    visitor: list[float] = []
    stop = trio.Event()
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            for i in range(4):  # 4 addresses, each 8 connections asking as fast as answered
                for _ in range(8):
                    nursery.start_soon(flooded, web, f"127.0.0.{2 + i}", stop, flood)
            while len(flood) < BURST + 20:  # the burst spent, the flood waiting its turns
                await trio.sleep(0.05)
            asked = trio.current_time()
            await answered(web, "127.0.0.99", 1, visitor)
            served_meanwhile = len(flood)
            stop.set()
    waited = visitor[0] - asked
    # at most the turn under way and the next: 2 turns, 0.1 s (a loaded host: 0.5 s)
    assert waited < 0.5, (waited, served_meanwhile)


GONE = 20  # requests whose clients close as soon as they have sent them


@pytest.mark.timeout(60)
async def test_a_request_whose_client_went_while_it_waited_takes_no_turn(
    start_web: StartWeb,
) -> None:
    # (failed before: each gone request took its turn, the visitor behind them waited
    # for all 20, 4 s)
    per_s = 5.0  # a turn each 0.2 s
    web: WebServer = await start_web(web_requests_per_s=per_s, web_requests_burst=1)
    spent: list[float] = []
    visitor: list[float] = []
    with trio.fail_after(30):
        await answered(web, "127.0.0.2", 1, spent)  # the burst: the next request waits
        for i in range(GONE):  # addresses new to the pace, each before the visitor
            stream = await dial_from(f"127.0.0.{10 + i}", web.http_port)
            await stream.send_all(b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n")
            await stream.aclose()
        # the server (this process's) has read them all, and their closes: waiting
        await trio.testing.wait_all_tasks_blocked(0.05)
        asked = trio.current_time()
        await answered(web, "127.0.0.99", 1, visitor)
    waited = visitor[0] - asked
    # at the next turn (a loaded host: a few); behind the gone ones, GONE turns
    assert waited < 6 / per_s, waited
