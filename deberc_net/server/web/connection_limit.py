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
visitor's (its own limits are a proxy's business). All addresses together hold at most
``max_web_connections`` (a spray of addresses, each under its own limit, would hold
every descriptor still): a connection past them is told ``503`` and closed, the same
way, a trusted proxy's too; the connections held are not touched."""

from __future__ import annotations

import contextlib
import enum
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
    b"x-content-type-options: nosniff\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
    % (len(REFUSAL_TEXT), REFUSAL_TEXT)
)
BUSY_TEXT = b"the server holds all the web connections it takes: try again shortly"
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"x-content-type-options: nosniff\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
    % (len(BUSY_TEXT), BUSY_TEXT)
)
REFUSAL_SEND_S = 1.0  # (an empty socket's buffer takes it at once)
_run = TCPServer.run  # hypercorn's own


class Refusal(enum.Enum):
    PER_ADDRESS = "per-address"  # 429: web_connections_per_address
    FULL = "full"  # 503: max_web_connections


@attrs.define
class OpenConnections:
    """How many connections each address holds open, at most ``most`` each (0: no
    limit), and all of them together, at most ``most_in_all`` (0: no limit)."""

    most: int
    proxies: tuple[Network, ...]
    most_in_all: int = 0
    held: Counter[str] = attrs.field(factory=Counter)
    in_all: int = 0

    def take(self, host: str) -> str | Refusal:
        """The address a new connection from ``host`` counts against (its place
        taken), '' when its address is not counted (a trusted proxy, or no limit per
        address); or why it is refused."""
        if self.most_in_all and self.in_all >= self.most_in_all:
            return Refusal.FULL
        ip = plain_ip(host)
        address = ""
        if self.most and not (ip is not None and listed(ip, self.proxies)):
            address = limited_address(host)
            if self.held[address] >= self.most:
                return Refusal.PER_ADDRESS
            self.held[address] += 1
        self.in_all += 1
        return address

    def leave(self, address: str) -> None:
        self.in_all -= 1
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
    if isinstance(address, Refusal):
        await _refuse(stream, BUSY if address is Refusal.FULL else REFUSAL)
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


async def _refuse(stream: trio.abc.Stream, refusal: bytes) -> None:
    """429 (or 503) before any request is read, then the close."""
    with (
        trio.move_on_after(REFUSAL_SEND_S),
        contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError),
    ):
        await stream.send_all(refusal)
    await stream.aclose()  # (a request come meanwhile, unread: the client sees a reset)


def bound_connections() -> None:
    """Once per process, before the web face serves (serve.py)."""
    TCPServer.run = _run_within_allowance  # type: ignore[method-assign,assignment]
