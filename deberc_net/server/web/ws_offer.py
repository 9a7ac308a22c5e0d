"""A live socket's compression offer that cannot be read is declined, not raised.

wsproto reads a client's ``permessage-deflate`` offer (``Sec-WebSocket-Extensions``) as
the app accepts the socket, and ``int()``s its window sizes as they come: an offer of
``server_max_window_bits=abc`` (or of 5,000 digits) raised out of hypercorn's accept,
whose cleanup then failed too (a socket marked open with no connection behind it), and
the error ended the web face's serving and with it the whole server, every game (a
hostile tryout: one handshake). RFC 7692 §5 has a server decline an offer it cannot
take: such an offer is dropped, and the socket accepted without compression unless
another offer is read (as for a client that offers none; a window size that is a
number out of range wsproto declines itself). *Test:*
tests/web/test_live_socket_offer.py."""

from __future__ import annotations

from collections.abc import Iterable

import hypercorn.protocol.ws_stream as ws_stream
from wsproto.extensions import Extension
from wsproto.handshake import server_extensions_handshake

# the offer's parameters wsproto int()s (as it finds them: by how the parameter begins)
_SIZES = ("client_max_window_bits", "server_max_window_bits")


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
