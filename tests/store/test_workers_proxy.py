"""``serve --workers`` behind a TCP or TLS proxy (``game_proxies``, docs/security.md):
each worker accepts its own connections on the shared port, so each reads their PROXY
headers, and what it tells the other workers of a connection (a wrong password's
address, for their limits) is the client the header named, not the proxy."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store
from tests.server.client import LineClient

from .workers import OTHER, heard_one, worker_and_bus

PROXY = "127.0.0.2"


@pytest.mark.timeout(100)
async def test_a_worker_tells_the_others_the_address_a_proxy_header_named(
    postgres_url: str,
) -> None:
    store = open_store(postgres_url)
    set_password(store, "bob", "goodpass1")
    store.close()
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER, game_proxies=[PROXY]) as (
            port,
            _,
        ):
            sock = trio.socket.socket()
            await sock.bind((PROXY, 0))
            await sock.connect(("127.0.0.1", port))
            stream = trio.SocketStream(sock)
            await stream.send_all(b"PROXY TCP4 203.0.113.7 127.0.0.1 5555 7501\r\n")
            guesser = await LineClient.over(stream, "guesser")
            try:
                await guesser.send("style machine")
                await guesser.send("login bob wrongpass")
                assert (await guesser.expect("error"))["code"] == "bad-password"
                failed = await heard_one(heard, k="failed", name="bob")
                assert failed["address"] == "203.0.113.7"
            finally:
                await guesser.aclose()
