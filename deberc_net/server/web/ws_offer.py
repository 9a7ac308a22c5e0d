"""A live socket's handshake that wsproto cannot read is declined or refused, not raised.

wsproto reads a client's ``permessage-deflate`` offer (``Sec-WebSocket-Extensions``) as
the app accepts the socket, and ``int()``s its window sizes as they come: an offer of
``server_max_window_bits=abc`` (or of 5,000 digits) raised out of hypercorn's accept,
whose cleanup then failed too (a socket marked open with no connection behind it), and
the error ended the web face's serving and with it the whole server, every game (a
hostile tryout: one handshake). RFC 7692 §5 has a server decline an offer it cannot
take: such an offer is dropped, and the socket accepted without compression unless
another offer is read (as for a client that offers none; a window size that is a
number out of range wsproto declines itself). Nor could it read a byte past ASCII in
the ``Connection``, ``Sec-WebSocket-Extensions`` or ``Sec-WebSocket-Protocol`` header
(a tryout's ``Sec-WebSocket-Protocol: a, \\xff``): hypercorn's handshake raised as it
parsed the request, the same way. Such a request is answered 400 and its connection
closed, as hypercorn answers a handshake it finds invalid. *Test:*
tests/web/test_live_socket_offer.py."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import hypercorn.protocol.ws_stream as ws_stream
from hypercorn.protocol.events import EndBody, Response, StreamClosed
from wsproto.extensions import Extension
from wsproto.handshake import server_extensions_handshake

# the offer's parameters wsproto int()s (as it finds them: by how the parameter begins)
_SIZES = ("client_max_window_bits", "server_max_window_bits")


# the headers hypercorn's handshake splits and decodes as ASCII (wsproto's
# split_comma_header), with none of the care h11 takes of the others
_SPLIT = (b"connection", b"sec-websocket-extensions", b"sec-websocket-protocol")


def readable_handshake(headers: Sequence[tuple[bytes, bytes]]) -> bool:
    return all(value.isascii() for name, value in headers if name.lower() in _SPLIT)


async def refuse_unreadable(stream: ws_stream.WSStream) -> None:
    """400 and the close, before hypercorn reads the request (its own refusal of an
    invalid handshake logs the request's scope, not made yet)."""
    headers = [(b"content-length", b"0"), (b"connection", b"close")]
    await stream.send(Response(stream_id=stream.stream_id, status_code=400, headers=headers))
    await stream.send(EndBody(stream_id=stream.stream_id))
    stream.closed = True
    await stream.send(StreamClosed(stream_id=stream.stream_id))


def readable(offer: str) -> bool:
    """Whether wsproto can read ``offer``: each window size it gives is a number (a
    window is 9 to 15 bits: two digits at most)."""
    for parameter in offer.split(";")[1:]:
        name, equals, value = parameter.strip().partition("=")
        if name.startswith(_SIZES) and equals:
            size = value.strip()
            if not (size.isascii() and size.isdigit() and len(size) <= 2):
                return False
    return True


def _declining_what_cannot_be_read(
    requested: Iterable[str], supported: list[Extension]
) -> bytes | None:
    return server_extensions_handshake([o for o in requested if readable(o)], supported)


def decline_unreadable_offers() -> None:
    """Once per process, before the web face serves (serve.py)."""
    # (hypercorn's accept calls wsproto's by the name it imported)
    ws_stream.server_extensions_handshake = _declining_what_cannot_be_read  # type: ignore[attr-defined]
