"""The web face speaks HTTP/1.1 alone: hypercorn's HTTP/2 without TLS is turned off.

hypercorn takes a request with ``Upgrade: h2c``, or a connection that starts with
HTTP/2's preface (``PRI * HTTP/2.0``), as HTTP/2 on the plain port, and its h2 answers
each PING frame itself, unmetered: a hostile tryout's one connection of PINGs (17 bytes
each) took an honest player's ``ping`` from 0.4 ms to 24 ms (p99 115 ms), twenty such
connections to 0.3 s, and the tables played 31 calls in 8 s where they played 724.
Nothing needs it here: the web face has no TLS, a browser speaks HTTP/2 only over TLS,
and a proxy in front (docs/web.md) speaks HTTP/1.0 or 1.1 to it. So the upgrade header is
ignored (the request is answered in HTTP/1.1) and the preface is a request like any
other, answered 404 (a ``PRI`` of ``*``), its frames after it 400 and a close.
*Test:* tests/web/test_http1_only.py."""

from __future__ import annotations

from typing import Any

from hypercorn.protocol.h11 import H11Protocol


async def _no_other_protocol(protocol: H11Protocol, event: Any) -> None:
    """(hypercorn's ``_check_protocol`` answered h2c with a 101 and switched to HTTP/2.)"""


def speak_http1_only() -> None:
    """Once per process, before the web face serves (serve.py)."""
    H11Protocol._check_protocol = _no_other_protocol  # type: ignore[method-assign,assignment]
