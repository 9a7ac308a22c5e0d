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
way, a trusted proxy's too; the connections held are not touched.

Either is told in the language of the page asked (``?lang=``, the cookie, Accept-Language:
web/choice.py), as the requests' 429 is (request_limit.py): a Russian page's visitor was
told them in English (s45). So the refused connection's request head is read first, for
HEAD_S at most and HEAD_MOST bytes, and by READING_MOST refused connections at once at
most: one that sends nothing, or past them, is told in English, as before, and a loop of
silent connections holds no more descriptors than READING_MOST a moment longer. (Read,
the request is not left unread at the close either, which reset the connection, so that
a browser could show the reset instead of the answer.)"""

from __future__ import annotations

import contextlib
import enum
from collections import Counter
from urllib.parse import parse_qsl

import attrs
import structlog
import trio
from hypercorn.trio.tcp_server import TCPServer

from deberc_net.protocol.lang import Lang

from ..addresses import Network, limited_address, listed, peer_of, plain_ip
from ..spawner import Spawner
from ..summaries import Summaries
from .app import is_api
from .choice import page_lang
from .live import connection_stream
from .request_fields import too_many_fields
from .words import W, said

log = structlog.get_logger("deberc.server")


class Refusal(enum.Enum):
    PER_ADDRESS = "per-address"  # 429: web_connections_per_address
    FULL = "full"  # 503: max_web_connections


_STATUS = {Refusal.PER_ADDRESS: b"429 Too Many Requests", Refusal.FULL: b"503 Service Unavailable"}
_WORDS = {Refusal.PER_ADDRESS: W.TOO_MANY_CONNECTIONS, Refusal.FULL: W.CONNECTIONS_FULL}


def refusal_text(refusal: Refusal, lang: Lang) -> bytes:
    return said(_WORDS[refusal], lang).encode()


def answer(refusal: Refusal, lang: Lang) -> bytes:
    """The whole HTTP answer of a connection refused so, its text in ``lang``."""
    text = refusal_text(refusal, lang)
    return (
        b"HTTP/1.1 %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"x-content-type-options: nosniff\r\n"
        b"retry-after: 5\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
        % (_STATUS[refusal], len(text), text)
    )


# the English answers, as before (docs/security.md §8 quotes them)
REFUSAL_TEXT = refusal_text(Refusal.PER_ADDRESS, Lang.EN)
REFUSAL = answer(Refusal.PER_ADDRESS, Lang.EN)
BUSY_TEXT = refusal_text(Refusal.FULL, Lang.EN)
BUSY = answer(Refusal.FULL, Lang.EN)
_ANSWERS = {(refusal, lang): answer(refusal, lang) for refusal in Refusal for lang in Lang}
REFUSAL_SEND_S = 1.0  # (an empty socket's buffer takes it at once)
# a refused connection's request head, read for its page's language: a browser sends it
# with the connection, in one packet; at most this long and this many bytes (hypercorn's
# own limit of a head is 64 KiB: its language is in the first line and a few headers)
HEAD_S = 0.5
HEAD_MOST = 16384
READING_MOST = 64  # refused connections read at once (per process); past them, English
_run = TCPServer.run  # hypercorn's own


@attrs.define
class OpenConnections:
    """How many connections each address holds open, at most ``most`` each (0: no
    limit), and all of them together, at most ``most_in_all`` (0: no limit)."""

    most: int
    proxies: tuple[Network, ...]
    most_in_all: int = 0
    held: Counter[str] = attrs.field(factory=Counter)
    in_all: int = 0
    reading: int = 0  # refused connections whose request head is being read

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
        assert counts is not None  # (only a count refuses)
        await _refuse(stream, address, counts)
        return
    if isinstance(stream, trio.SocketStream):  # (hypercorn's type says TLS: none here)
        connection_stream.set(stream)  # (for its app's task: live.py)
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


async def _refuse(stream: trio.abc.Stream, refusal: Refusal, counts: OpenConnections) -> None:
    """429 (or 503) before any request is served, in the language its head asks when
    it comes in time (and READING_MOST others are not read), then the close."""
    lang = Lang.EN
    if counts.reading < READING_MOST:
        counts.reading += 1
        try:
            lang = head_lang(await _head(stream))
        finally:
            counts.reading -= 1
    with (
        trio.move_on_after(REFUSAL_SEND_S),
        contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError),
    ):
        await stream.send_all(_ANSWERS[refusal, lang])
    await stream.aclose()


async def _head(stream: trio.abc.Stream) -> bytes:
    """What the connection sends of its request head within HEAD_S (HEAD_MOST bytes)."""
    head = b""
    with (
        trio.move_on_after(HEAD_S),
        contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError),
    ):
        while b"\r\n\r\n" not in head and b"\n\n" not in head and len(head) < HEAD_MOST:
            data = await stream.receive_some(HEAD_MOST - len(head))
            if not data:
                break
            head += data
    return head


def head_lang(head: bytes) -> Lang:
    """The language of the page a request ``head`` asks for, as the pages choose it
    (``?lang=``, the ``lang`` cookie, Accept-Language: web/choice.py); English for a
    JSON path (as every JSON answer) and for a head that is none. A query of more than
    QUERY_FIELDS fields is not read, as its 400 reads none (its cookie and
    Accept-Language say)."""
    lines = head.decode("latin-1").splitlines()
    request = lines[0].split() if lines else []
    if len(request) < 2:
        return Lang.EN
    path, _, query = request[1].partition("?")
    if is_api(path):  # (its JSON is English)
        return Lang.EN
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            break
        name, colon, value = line.partition(":")
        if colon:
            headers[name.strip().lower()] = value.strip()
    # a query past QUERY_FIELDS is not parsed, as no page's is (request_fields.py): the
    # 8,000 fields HEAD_MOST holds cost the loop more than all the rest of a refusal
    many = too_many_fields(query.encode("latin-1"))  # (decoded so above: as it came)
    chosen = {} if many else dict(parse_qsl(query, keep_blank_values=True))
    return page_lang(chosen, headers.get("cookie", ""), headers.get("accept-language", ""))[0]


def bound_connections() -> None:
    """Once per process, before the web face serves (serve.py)."""
    TCPServer.run = _run_within_allowance  # type: ignore[method-assign,assignment]
