"""The address a client's limits count against (connections, chat, wrong passwords,
tables, house bots, live pages: docs/security.md): its IPv4 address, or the /64 network
of its IPv6 one. One IPv6 host is given a whole /64 by an ordinary provider, and could
take a fresh address for each connection: counted one by one, every per-address limit
would be void against it."""

from __future__ import annotations

import ipaddress

IPV6_PREFIX = 64  # a subscriber's usual share; the smallest a provider hands out


def limited_address(host: str) -> str:
    """``host`` (a peer's address as the socket gives it) as its limits count it:
    '2001:db8::1' is '2001:db8::/64'; an IPv4 address in IPv6's form ('::ffff:10.0.0.1')
    is the IPv4 one; anything not an IP address (the in-process link's name) as given."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])  # (a link-local's zone dropped)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)
