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
import structlog
import trio
from hypercorn.trio.tcp_server import TCPServer

from ..addresses import Network, limited_address, listed, peer_of, plain_ip
from ..spawner import Spawner
from ..summaries import Summaries

log = structlog.get_logger("deberc.server")

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
    stream = server.stream
    try:
        host, port = stream.socket.getpeername()[:2]
    except OSError:  # (gone already)
        await stream.aclose()
        return
    address = "" if counts is None else counts.take(host)
    if address is None:
        await _refuse(stream)
        return
    try:
        await _run_alone(server, peer_of(host, port), limited_address(host))
    finally:
        if counts is not None:
            counts.leave(address)


async def _run_alone(server: TCPServer, peer: str, address: str) -> None:
    """hypercorn's serving of the connection; an error in it ends it alone (hypercorn
    closes its socket on the way out)."""
    try:
        await _run(server)
    except Exception as error:  # (trio's Cancelled is no Exception: a stop goes on)
        failures: Summaries | None = getattr(server.config, "failures", None)
        reason = type(_first_of(error)).__name__
        if failures is None:
            _log_failed(reason=reason, peer=peer, exc_info=error)
        else:
            failures.note(reason, address, peer=peer, exc_info=error)


def _first_of(error: BaseException) -> BaseException:
    """The error itself, not the groups trio's nurseries wrap it in."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def _log_failed(**fields: object) -> None:
    log.error("web_connection_failed", **fields)


def connection_failures(spawner: Spawner) -> Summaries:
    """The log of connections ended by an error, summarized in a flood."""
    return Summaries(_log_failed, spawner)


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
