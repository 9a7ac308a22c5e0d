"""The web face behind a reverse proxy (docs/web.md, "Behind a proxy"), over a real
server on loopback: it listens on its own address (``http_host``), and a trusted
proxy's clients are limited each as the address its X-Forwarded-For names
(server/web/forwarded.py); 127.0.0.1 plays the proxy, 127.0.0.2 a client that is not.

The request limit's tests run on virtual time, as tests/web/test_request_limit.py's."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import pytest
import trio
from starlette.types import Message, Receive, Scope, Send
from trio_websocket import ConnectionRejected, open_websocket_url

from deberc_net.server.addresses import networks
from deberc_net.server.web.forwarded import ForwardedFor, forwarded_client
from tests.server.conftest import Connector

from .conftest import WebServer
from .live import text_of

StartWeb = Callable[..., Any]
# two requests an address, and none back during a test
ONE_ALLOWANCE = {"web_requests_per_address_burst": 2, "web_requests_per_address_per_s": 0.001}


async def statuses(
    web: WebServer, forwarded: str | None, count: int, source: str | None = None
) -> list[int]:
    """The statuses of ``count`` requests from ``source`` (127.0.0.1: the proxy) with
    ``X-Forwarded-For: forwarded`` (None: without one)."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    return [(await web.ask("GET", "/api/tables", headers, source))[0] for _ in range(count)]


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


async def test_a_trusted_proxys_clients_are_limited_each_as_the_address_it_forwards(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    # a tryout: behind a proxy every visitor was the proxy's address, one allowance
    web: WebServer = await start_web(trusted_proxies=["127.0.0.1"], **ONE_ALLOWANCE)
    with trio.fail_after(30):
        assert await statuses(web, "203.0.113.5", 3) == [200, 200, 429]
        assert await statuses(web, "203.0.113.6", 3) == [200, 200, 429]  # its own
        assert await statuses(web, None, 3) == [200, 200, 429]  # the proxy's: unspent
        # an IPv6 client is counted by its /64, as a direct one is (server/addresses.py)
        assert await statuses(web, "2001:db8::1", 2) == [200, 200]
        assert await statuses(web, "2001:db8::2", 1) == [429]


async def test_a_forwarded_address_from_a_peer_not_trusted_is_ignored(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    web: WebServer = await start_web(trusted_proxies=["127.0.0.1"], **ONE_ALLOWANCE)
    with trio.fail_after(30):
        # 127.0.0.2 is no proxy: whatever it names, it is charged itself
        assert await statuses(web, "203.0.113.5", 2, source="127.0.0.2") == [200, 200]
        assert await statuses(web, "203.0.113.6", 1, source="127.0.0.2") == [429]
        assert await statuses(web, None, 1, source="127.0.0.2") == [429]
        assert await statuses(web, "203.0.113.5", 2) == [200, 200]  # through the proxy


async def test_with_no_trusted_proxies_every_forwarded_address_is_ignored(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    """docs/settings.md, `trusted_proxies`' default `[]`: anyone's X-Forwarded-For is
    ignored, each peer charged itself whatever it names."""
    web: WebServer = await start_web(**ONE_ALLOWANCE)
    with trio.fail_after(30):
        assert await statuses(web, "203.0.113.5", 2) == [200, 200]
        assert await statuses(web, "203.0.113.6", 1) == [429]  # 127.0.0.1's, spent


async def test_a_forged_chain_counts_as_the_address_the_proxy_appended(
    start_web: StartWeb, virtual_clock: trio.testing.MockClock, jump_when_idle: None
) -> None:
    """A client sends its own X-Forwarded-For; the proxy appends the address it came
    from: the right-most is the client, whatever it wrote to its left."""
    web: WebServer = await start_web(trusted_proxies=["127.0.0.1", "10.0.0.0/8"], **ONE_ALLOWANCE)
    with trio.fail_after(30):
        assert await statuses(web, "1.2.3.4, 203.0.113.5", 2) == [200, 200]
        assert await statuses(web, "5.6.7.8, 203.0.113.5", 1) == [429]
        assert await statuses(web, "203.0.113.5", 1) == [429]
        assert await statuses(web, "1.2.3.4", 1) == [200]  # (the forged one is unspent)
        # through two trusted proxies (10.1.2.3 the first): the one before them
        assert await statuses(web, "203.0.113.7, 10.1.2.3", 2) == [200, 200]
        assert await statuses(web, "203.0.113.7", 1) == [429]


async def test_the_live_sockets_per_address_limit_counts_the_forwarded_address(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web(
        trusted_proxies=["127.0.0.1"], max_web_viewers=10, web_viewers_per_address=2
    )
    ann = await connect.machine(web.port, "ann")
    await ann.send("new 2")
    await ann.expect("ok", cmd="sit")
    url = f"ws://127.0.0.1:{web.http_port}/live/table/1"

    def sent_for(client: str) -> list[tuple[bytes, bytes]]:
        return [(b"X-Forwarded-For", client.encode())]

    with trio.fail_after(30):
        async with (
            open_websocket_url(url, extra_headers=sent_for("203.0.113.5")) as first,
            open_websocket_url(url, extra_headers=sent_for("203.0.113.5")) as second,
            open_websocket_url(url, extra_headers=sent_for("203.0.113.6")) as another,
        ):
            for viewer in (first, second, another):  # all through one proxy's address
                assert (await text_of(viewer)).startswith("ok cmd=observe table=1 ")
            with pytest.raises(ConnectionRejected):  # a third of 203.0.113.5's
                async with open_websocket_url(url, extra_headers=sent_for("203.0.113.5")):
                    pass


@pytest.mark.parametrize(
    ("peer", "sent", "limited_as"),
    [
        ("127.0.0.1", [], "127.0.0.1"),  # a trusted proxy that names no one: itself
        ("127.0.0.1", [b"203.0.113.5"], "203.0.113.5"),
        ("127.0.0.1", [b"1.2.3.4, 203.0.113.5"], "203.0.113.5"),
        ("127.0.0.1", [b"1.2.3.4,203.0.113.5 , "], "203.0.113.5"),  # (empty entries)
        # haproxy adds a header of its own after the client's: one list, in order
        ("127.0.0.1", [b"1.2.3.4", b"203.0.113.5"], "203.0.113.5"),
        ("127.0.0.2", [b"203.0.113.5"], "127.0.0.2"),  # not a proxy: ignored
        ("::ffff:127.0.0.1", [b"203.0.113.5"], "203.0.113.5"),  # a dual-stack socket's
        ("::1", [b"2001:db8::5"], "2001:db8::5"),
        ("fd00::7", [b"203.0.113.5, fd00::1"], "203.0.113.5"),  # two proxies: past both
        ("127.0.0.1", [b"fd00::1, 127.0.0.1"], "fd00::1"),  # all trusted: the first
        # no address at the right end: a broken proxy's; the client is not believed
        ("127.0.0.1", [b"203.0.113.5, unknown"], "127.0.0.1"),
        ("127.0.0.1", [b"203.0.113.5, unknown, fd00::1"], "fd00::1"),
        ("127.0.0.1", [b"203.0.113.5:4711"], "127.0.0.1"),  # (no proxy of ours adds ports)
    ],
)
def test_the_client_is_the_right_most_address_not_a_trusted_proxy(
    peer: str, sent: list[bytes], limited_as: str
) -> None:
    proxies = networks(["127.0.0.1", "::1", "fd00::/8"])
    headers = [(b"host", b"example.org"), *((b"x-forwarded-for", value) for value in sent)]
    assert forwarded_client(peer, headers, proxies) == limited_as


async def test_the_middleware_rewrites_only_a_trusted_proxys_requests() -> None:
    seen: list[Any] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope.get("client"))

    async def receive() -> Message:
        raise AssertionError("nothing is read")

    async def send(message: Message) -> None:
        raise AssertionError("nothing is sent")

    middleware = ForwardedFor(app, networks(["127.0.0.1"]))
    forwarded = [(b"x-forwarded-for", b"203.0.113.5")]
    for kind in ("http", "websocket"):
        scope = {"type": kind, "client": ("127.0.0.1", 40000), "headers": forwarded}
        await middleware(scope, receive, send)
        assert scope["client"] == ("127.0.0.1", 40000)  # the server's own is kept
    await middleware(
        {"type": "http", "client": ("127.0.0.2", 1), "headers": forwarded}, receive, send
    )
    await middleware({"type": "http", "client": None, "headers": forwarded}, receive, send)
    await middleware({"type": "lifespan"}, receive, send)
    assert seen == [("203.0.113.5", 0), ("203.0.113.5", 0), ("127.0.0.2", 1), None, None]
