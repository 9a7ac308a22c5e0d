"""Each address's allowance of requests to the web face (server/web/request_limit.py,
docs/security.md §4), over real HTTP to a real server on loopback.

On virtual time: a request is made in a worker thread, which holds the clock
(``jump_when_idle``), so no token comes back during a burst, and one comes back
exactly when the test sleeps for it."""

from __future__ import annotations

import base64
import json
import os
import re
from collections.abc import Callable
from typing import Any

import trio
from starlette.types import Message, Receive, Scope, Send

from deberc_net.server.config import Config
from deberc_net.server.web.request_limit import KEPT, RequestLimit, request_buckets
from tests.server.conftest import Connector

from .conftest import WebServer

StartWeb = Callable[..., Any]
TOO_MANY = "too many requests from your address: try again in {} s"


def handshake() -> dict[str, str]:
    """A live socket's opening request, as a browser's page sends it."""
    return {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
        "Sec-WebSocket-Version": "13",
    }


async def test_requests_past_an_addresss_allowance_get_429_until_it_refills(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    # a tryout's 4 curl loops on /api/tables (~48 ms with 1,000 tables) held a core
    web: WebServer = await start_web(
        web_requests_per_address_burst=5, web_requests_per_address_per_s=0.5
    )
    with trio.fail_after(30):
        for _ in range(5):
            assert (await web.ask("GET", "/"))[0] == 200
        status, headers, body = await web.ask("GET", "/")
        assert (status, headers["retry-after"]) == (429, "2")  # a token every 2 s
        assert headers["content-type"].startswith("text/plain")
        assert body.decode() == TOO_MANY.format(2)
        # another address has its own allowance
        assert (await web.ask("GET", "/", source="127.0.0.2"))[0] == 200
        await trio.sleep(2)  # as told: one request again, and only one
        assert (await web.ask("GET", "/"))[0] == 200
        assert (await web.ask("GET", "/"))[0] == 429


async def test_a_russian_pages_refusal_is_said_in_russian(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    """The 429 a person reads says it in his page's language (docs/web.md, "Languages":
    a Russian visitor read it in English, a review, s45); the JSON's stays English."""
    web: WebServer = await start_web(
        web_requests_per_address_burst=2, web_requests_per_address_per_s=0.1
    )
    russian = {"Accept-Language": "ru"}
    with trio.fail_after(30):
        assert (await web.ask("GET", "/", russian))[0] == 200
        assert (await web.ask("GET", "/", russian))[0] == 200
        status, headers, body = await web.ask("GET", "/top?lang=ru")
        assert status == 429 and headers["vary"] == "Accept-Language, Cookie"
        told = "слишком много запросов с вашего адреса: попробуйте снова через 10 с"
        assert body.decode() == told
        status, _, body = await web.ask("GET", "/", {"Cookie": "lang=ru"})
        assert (status, body.decode()) == (429, told)
        status, _, body = await web.ask("GET", "/api/tables", russian)
        assert (status, json.loads(body)) == (429, {"error": TOO_MANY.format(10)})
        status, _, body = await web.ask("GET", "/")
        assert (status, body.decode()) == (429, TOO_MANY.format(10))


async def test_an_api_path_past_the_allowance_is_refused_in_json(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    web: WebServer = await start_web(
        web_requests_per_address_burst=1, web_requests_per_address_per_s=0.1
    )
    with trio.fail_after(30):
        assert (await web.ask("GET", "/api/tables"))[0] == 200
        status, headers, body = await web.ask("GET", "/api/tables")
    assert (status, headers["retry-after"]) == (429, "10")
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {"error": TOO_MANY.format(10)}


async def test_either_setting_0_is_no_limit(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    assert request_buckets(Config(web_requests_per_address_per_s=0)) is None
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    with trio.fail_after(30):
        for _ in range(int(Config().web_requests_per_address_burst) + 10):
            assert (await web.ask("GET", "/api/tables"))[0] == 200


async def test_a_dozen_pages_with_their_files_and_live_sockets_load_within_the_burst(
    start_web: StartWeb,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """The defaults: a page, its static files and its live socket's handshake are one
    request each, so a dozen table pages open at once (a browser restoring its tabs)
    all load and watch; the burst is spent then, and the next socket is refused too."""
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    burst = Config().web_requests_per_address_burst
    with trio.fail_after(30):
        status, _, page = await web.ask("GET", "/table/1")
        files = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.decode())
        assert "/static/style.css" in files and "/static/table.js" in files
        pages = int(burst // (len(files) + 2))
        assert pages >= 12
        for n in range(pages):
            if n:  # (the first page was read above)
                status, _, page = await web.ask("GET", "/table/1")
            assert status == 200
            for path in files:
                assert (await web.ask("GET", path))[0] == 200, path
            assert (await web.ask("GET", "/live/table/1", handshake()))[0] == 101
        for _ in range(int(burst) - pages * (len(files) + 2)):
            assert (await web.ask("GET", "/static/style.css"))[0] == 200
        status, headers, _ = await web.ask("GET", "/live/table/1", handshake())
    assert (status, headers["retry-after"]) == (429, "1")


async def test_a_spray_of_addresses_holds_only_the_allowances_not_yet_refilled(
    virtual_clock: trio.testing.MockClock,
) -> None:
    """Memory follows use: 20,000 addresses, a new one every millisecond, each spending
    a request (refilled 0.1 s later), leave at most about twice KEPT allowances held;
    and the addresses of one IPv6 /64 share one."""
    buckets = request_buckets(Config())
    assert buckets is not None
    passed: list[str] = []
    statuses: list[int] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        passed.append(scope["client"][0])

    async def receive() -> Message:
        raise AssertionError("a refusal reads nothing")

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    limit = RequestLimit(app, buckets)

    def request(host: str) -> Scope:
        return {"type": "http", "path": "/api/tables", "client": (host, 40000)}

    for n in range(20_000):
        await limit(request(f"10.{n >> 16}.{n >> 8 & 255}.{n & 255}"), receive, send)
        virtual_clock.jump(0.001)
    assert len(passed) == 20_000 and not statuses
    assert len(buckets) <= 2 * KEPT
    for n in range(100):  # one host taking a fresh address of its /64 for each
        await limit(request(f"2001:db8::{n:x}"), receive, send)
    assert len(passed) == 20_000 + Config().web_requests_per_address_burst
    assert statuses == [429] * (100 - 60)
