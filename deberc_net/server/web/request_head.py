"""A request's head (its line and headers) is bounded before h11 parses it.

hypercorn hands h11 each read whole (up to 64 KiB), and h11 refuses a head past
``h11_max_incomplete_size`` (16 KiB) only while it is incomplete: a head that came whole
in one read was parsed however long it was, and its headers with it. 10,000
headers in 60 KiB cost the server's one loop about 90 ms a request (h11's parse 60 ms
of it), answered or refused by the address's allowance alike (request_limit.py comes
after the parse): a hostile tryout's four connections from one address sending them, all
but its first 60 requests answered 429, took a player's ``ping`` from 0.4 ms to 92 ms at
the median (0.2 s p99), and two players' table made no call in 8 s.

So before h11 reads a request's head, the head waiting is looked at: past
``h11_max_incomplete_size`` bytes (hypercorn's 16 KiB, a complete head as an incomplete
one) or past HEAD_LINES header lines, the request is answered ``431`` and its
connection closed, as h11 answers one over the size still coming. A browser sends some
15 header lines, a proxy in front (docs/web.md) a few more. *Test:*
tests/web/test_request_head.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import h11
from hypercorn.protocol.h11 import H11Protocol

# header lines a request's head may have (Apache's LimitRequestFields): 100 cost the
# loop about 1 ms to read, a whole request's answer with them
HEAD_LINES = 100
# where a head ends: h11 takes a bare LF for a line's end, as CRLF
_HEAD_END = re.compile(rb"\n\r?\n")


def head_too_large(waiting: bytes, most_bytes: int) -> bool:
    """Whether the head at the start of ``waiting`` (a request's bytes not yet parsed,
    the head complete or not) has more than ``most_bytes`` bytes, its blank line
    included, or more than HEAD_LINES header lines."""
    end = _HEAD_END.search(waiting, 0, most_bytes)
    if end is None:  # still coming (its request line's LF and its headers' so far)
        return len(waiting) > most_bytes or waiting.count(b"\n") - 1 > HEAD_LINES
    # (the request line's LF and the blank line's are no header's)
    return waiting.count(b"\n", 0, end.end()) - 2 > HEAD_LINES


def _bounded(connection: h11.Connection, most_bytes: int) -> Callable[[], Any]:
    """``connection.next_event`` refusing a head too large before it is parsed."""
    parse = connection.next_event

    def next_event() -> Any:
        # (IDLE: a request's head comes next; pipelined ones too, after an answer)
        if connection.their_state is h11.IDLE:
            waiting, _ = connection.trailing_data
            if waiting and head_too_large(waiting, most_bytes):
                raise h11.RemoteProtocolError("request head too large", error_status_hint=431)
        return parse()

    return next_event


_init = H11Protocol.__init__


def _init_bounding_heads(protocol: H11Protocol, *args: Any, **kwargs: Any) -> None:
    _init(protocol, *args, **kwargs)
    connection = protocol.connection
    assert isinstance(connection, h11.Connection)  # (a WebSocket's comes after its head)
    most = protocol.config.h11_max_incomplete_size
    connection.next_event = _bounded(connection, most)  # type: ignore[method-assign]


def bound_request_heads() -> None:
    """Once per process, before the web face serves (serve.py)."""
    H11Protocol.__init__ = _init_bounding_heads  # type: ignore[method-assign,assignment]
