"""Each address's open connections to the web face (docs/security.md §8).

Every connection is a descriptor of the server's, which the game's connections and
store share. The requests' allowance (request_limit.py) counts requests, and a
connection that sends none, or trickles its headers, spends nothing until hypercorn's
keep-alive (serve.KEEP_ALIVE_S) closes it: a hostile tryout's one address, opening
connections in a loop and sending nothing, held 1,700 of the server's descriptors at
once, and with more of them every ``accept`` of the game port too would have failed.
One address now holds at most ``web_connections_per_address`` (live sockets included);
a connection past them is told ``429`` at once, with no request read, and closed. A
trusted proxy's connections (``trusted_proxies``) are not counted: they are every
visitor's (its own limits are a proxy's business)."""

from __future__ import annotations

import contextlib
from collections import Counter

import attrs
import trio
from hypercorn.trio.tcp_server import TCPServer

from ..addresses import Network, limited_address, listed, plain_ip

REFUSAL_TEXT = b"too many connections from your address: close one first"
REFUSAL = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
    % (len(REFUSAL_TEXT), REFUSAL_TEXT)
)
REFUSAL_SEND_S = 1.0  # (an empty socket's buffer takes it at once)
_run = TCPServer.run  # hypercorn's own


@attrs.define
class OpenConnections:
    """How many connections each address holds open, at most ``most`` each."""

    most: int
    proxies: tuple[Network, ...]
    held: Counter[str] = attrs.field(factory=Counter)

    def take(self, host: str) -> str | None:
        """The address a new connection from ``host`` counts against (its place
        taken), '' when it is not counted (a trusted proxy); None: refused."""
        ip = plain_ip(host)
        if ip is not None and listed(ip, self.proxies):
            return ""
        address = limited_address(host)
        if self.held[address] >= self.most:
            return None
        self.held[address] += 1
        return address

    def leave(self, address: str) -> None:
        if address:
            self.held[address] -= 1
            if not self.held[address]:
                del self.held[address]  # (a spray of addresses holds nothing once gone)


async def _run_within_allowance(server: TCPServer) -> None:
    counts: OpenConnections | None = getattr(server.config, "connections", None)
    if counts is None:
        await _run(server)
        return
    stream = server.stream
    try:
        host = stream.socket.getpeername()[0]
    except OSError:  # (gone already)
        await stream.aclose()
        return
    address = counts.take(host)
    if address is None:
        await _refuse(stream)
        return
    try:
        await _run(server)
    finally:
        counts.leave(address)


async def _refuse(stream: trio.abc.Stream) -> None:
    """429 before any request is read, then the close."""
    with (
        trio.move_on_after(REFUSAL_SEND_S),
        contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError),
    ):
        await stream.send_all(REFUSAL)
    await stream.aclose()  # (a request come meanwhile, unread: the client sees a reset)


def bound_connections() -> None:
    """Once per process, before the web face serves (serve.py)."""
    TCPServer.run = _run_within_allowance  # type: ignore[method-assign,assignment]
