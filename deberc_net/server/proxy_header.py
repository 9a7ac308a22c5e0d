"""The PROXY protocol's version 1 header on the game port (docs/security.md, "The game
port behind a TCP or TLS proxy").

Behind a TCP or TLS proxy (haproxy ``send-proxy``, nginx ``proxy_protocol on;``, stunnel
``protocol = proxy``) every connection's peer is the proxy. A peer listed in
``game_proxies`` begins each connection with one line naming the client,
``PROXY TCP4|TCP6 SRC DST SRCPORT DSTPORT\\r\\n`` (``PROXY UNKNOWN…\\r\\n``: its own health
check), at most 107 bytes; the server reads it before anything else and takes SRC as
the connection's address. Nobody else's is read: a client does not choose its address.

The header is read exactly, never a byte past its CRLF: what the client sent after it is
left in the socket for the connection's own reader (``MSG_PEEK``, then as much as is
header). Only listed peers pay for it, once a connection.
"""

from __future__ import annotations

import enum
import ipaddress
import socket

import attrs
import trio

from .addresses import Address, peer_of

LONGEST = 107  # bytes, CRLF included (the protocol's own bound)
# the binary version 2's first bytes: told apart, so that its sender is told which to send
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
ERROR_CODE = "bad-proxy-header"  # docs/protocol.md §10


class Problem(enum.Enum):
    """What was wrong with a header: its ``bad_proxy_header`` log line's ``reason``."""

    MISSING = "missing"  # the connection began with something else
    CUT_SHORT = "cut-short"  # it ended inside its header
    VERSION_2 = "version-2"
    TOO_LONG = "too-long"
    NO_CRLF = "no-crlf"  # a bare LF ends it
    BAD_FORM = "bad-form"
    BAD_ADDRESS = "bad-address"
    BAD_PORT = "bad-port"
    TOO_SLOW = "too-slow"


TEXT = {
    Problem.MISSING: "a PROXY protocol header (version 1) must come first from this address",
    Problem.CUT_SHORT: "the connection ended inside its PROXY header",
    Problem.VERSION_2: "a PROXY protocol version 2 header: send version 1, the text one",
    Problem.TOO_LONG: f"a PROXY header is at most {LONGEST} bytes, its CRLF included",
    Problem.NO_CRLF: "a PROXY header ends with CRLF",
    Problem.BAD_FORM: "a PROXY header is PROXY TCP4|TCP6 SRC DST SRCPORT DSTPORT, or PROXY UNKNOWN",
    Problem.BAD_ADDRESS: "a PROXY header's addresses are IPv4 ones for TCP4, IPv6 ones for TCP6",
    Problem.BAD_PORT: "a PROXY header's ports are whole numbers from 0 to 65535",
    Problem.TOO_SLOW: "no whole PROXY header came in time: this connection closes",
}


class BadHeader(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.value)
        self.problem = problem


@attrs.frozen
class Client:
    """The client a header names: its address and port at the proxy."""

    host: str
    port: int

    def peer(self) -> str:
        """As a socket's peer is logged (running.socket_peer): host and port."""
        return peer_of(self.host, self.port)


def parse(line: bytes) -> Client | None:
    """A whole header, its CRLF included: the client it names, or None for
    ``PROXY UNKNOWN`` (the proxy's own connection: its address stays). Raises
    ``BadHeader``."""
    if not line.endswith(b"\r\n"):
        raise BadHeader(Problem.NO_CRLF)
    words = line[:-2].split(b" ")
    if words[0] != b"PROXY" or len(words) < 2:
        raise BadHeader(Problem.BAD_FORM)
    if words[1] == b"UNKNOWN":  # whatever follows is to be ignored (the protocol's word)
        return None
    if len(words) != 6 or words[1] not in (b"TCP4", b"TCP6"):
        raise BadHeader(Problem.BAD_FORM)
    version = 4 if words[1] == b"TCP4" else 6
    source = _address(words[2], version)
    _address(words[3], version)  # the destination: checked, not used (it is this port)
    _port(words[5])
    return Client(str(source), _port(words[4]))


def _address(word: bytes, version: int) -> Address:
    try:
        ip = ipaddress.ip_address(word.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise BadHeader(Problem.BAD_ADDRESS) from None
    if ip.version != version:
        raise BadHeader(Problem.BAD_ADDRESS)
    return ip


def _port(word: bytes) -> int:
    # digits only (int() would take '+1', ' 1', '1_0'), no more than 65535
    if not word.isdigit() or len(word) > 5 or int(word) > 65535:
        raise BadHeader(Problem.BAD_PORT)
    return int(word)


def early_problem(start: bytes) -> Problem | None:
    """What is wrong with a connection's first bytes (up to its first LF) already, or
    None while they may still become a header: no waiting for the rest of a line that
    cannot be one."""
    if start[:1] == b"\r" and V2_SIGNATURE.startswith(start):
        return Problem.VERSION_2
    if not (start.startswith(b"PROXY") or b"PROXY".startswith(start)):
        return Problem.MISSING
    if start.endswith(b"\n") and not start.endswith(b"\r\n"):
        return Problem.NO_CRLF
    return None


async def read_header(sock: trio.socket.SocketType) -> Client | None:
    """Read a connection's header from ``sock``, not a byte more (the caller bounds the
    time): the client it names, or None (``PROXY UNKNOWN``). Raises ``BadHeader``, or
    ``OSError`` for a socket gone, ``EOFError`` for one closed before its first byte (a
    health check that connects and closes: nothing to tell or log)."""
    read = b""
    while True:
        # peeked first, so that the client's own bytes after the LF stay in the socket
        seen = await sock.recv(LONGEST - len(read), socket.MSG_PEEK)
        if not seen:
            if not read:
                raise EOFError
            raise BadHeader(Problem.CUT_SHORT)
        end = seen.find(b"\n")
        header = seen if end < 0 else seen[: end + 1]
        problem = early_problem(read + header)
        if problem is not None:
            raise BadHeader(problem)
        read += await sock.recv(len(header))  # (there already: one read)
        if end >= 0:
            return parse(read)
        if len(read) >= LONGEST:
            raise BadHeader(Problem.TOO_LONG)
