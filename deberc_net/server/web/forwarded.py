"""The web client's address behind a reverse proxy (docs/web.md, "Behind a proxy").

Behind a proxy every request's TCP peer is the proxy, so every per-address limit of
the web face (request_limit.py, live.Viewers) was one allowance for the whole world.
A request whose peer is one of ``trusted_proxies`` has its client taken from its
``X-Forwarded-For`` instead, before those limits read ``scope["client"]``: each proxy
appends the address it was reached from, so the list is read from the right, and the
first address that is not itself a trusted proxy is the client (what was written to
the left of it, its own sender's word, is not believed). Anyone else's header is
ignored: a client does not choose the address it is limited as.

``X-Forwarded-For`` alone: nginx (``$proxy_add_x_forwarded_for``), Caddy (by default)
and haproxy (``option forwardfor``) send it, none sends ``Forwarded`` unless told to,
and nginx passes a client's own ``Forwarded`` on untouched: read, it would be the
client's choice. hypercorn's ``ProxyFixMiddleware`` is not used: it believes a count
of hops from any peer, with no check of who sent the header.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs
from starlette.types import ASGIApp, Receive, Scope, Send

from ..addresses import Network, listed, plain_ip

HEADER = b"x-forwarded-for"


def forwarded_client(
    peer: str, headers: Iterable[tuple[bytes, bytes]], proxies: tuple[Network, ...]
) -> str:
    """The address a request from ``peer`` with ``headers`` (ASGI's) is limited as:
    ``peer``, unless it is a trusted proxy; then the right-most ``X-Forwarded-For``
    address that is not one (the left-most if all are). An entry that is no address
    ends the walk at the trusted one before it: a trusted proxy writes the address it
    was reached from, so only a broken one writes anything else there."""
    ip = plain_ip(peer)
    if ip is None or not listed(ip, proxies):
        return peer
    client = peer
    # every header of the name, in order, is one list (haproxy adds a header of its own)
    values = [value for name, value in headers if name.lower() == HEADER]
    entries = [entry.strip() for value in values for entry in value.decode("latin-1").split(",")]
    for entry in reversed([entry for entry in entries if entry]):
        ip = plain_ip(entry)
        if ip is None:
            break
        client = str(ip)
        if not listed(ip, proxies):
            break
    return client


@attrs.define
class ForwardedFor:
    """ASGI middleware in front of the web app and its limits: a trusted proxy's
    request has the client its header names (``forwarded_client``)."""

    app: ASGIApp
    proxies: tuple[Network, ...]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = scope.get("client")
        if peer and scope["type"] in ("http", "websocket"):
            client = forwarded_client(peer[0], scope["headers"], self.proxies)
            if client != peer[0]:
                # a copy: the server's own scope keeps the peer; the client's port at
                # the proxy is not told (0)
                scope = {**scope, "client": (client, 0)}
        await self.app(scope, receive, send)
