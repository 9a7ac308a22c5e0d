"""The address a client's limits count against (connections, chat, wrong passwords,
tables, house bots, live pages: docs/security.md): its IPv4 address, or the /64 network
of its IPv6 one. One IPv6 host is given a whole /64 by an ordinary provider, and could
take a fresh address for each connection: counted one by one, every per-address limit
would be void against it."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable

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


def peer_of(host: str, port: int) -> str:
    """A client's host and port as the log's ``peer`` says them: an IPv6 host in
    brackets ('[2001:db8::1]:5555'), since '2001:db8::1:5555' is itself an IPv6
    address, and a ban tool reading it (docs/settings.md, "Logs") took the port for
    part of the address."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def networks(values: Iterable[str]) -> tuple[Network, ...]:
    """A proxies setting's addresses and networks (``trusted_proxies``,
    ``game_proxies``: checked with the settings, config.py)."""
    return tuple(ipaddress.ip_network(value) for value in values)


def plain_ip(text: str) -> Address | None:
    """``text`` as an address (an IPv4 one in IPv6's form as the IPv4 one: a dual-stack
    socket's peer), or None."""
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def listed(ip: Address, among: tuple[Network, ...]) -> bool:
    return any(ip in network for network in among)  # (another version's: never in)


@functools.lru_cache(maxsize=4096)
def span(text: str) -> tuple[int, int, int] | None:
    """``text``'s network as its version and its first and last addresses, as numbers
    (compared so, a ban's test is a few integer comparisons: ipaddress's subnet_of,
    for each of an admin's bans at each guest's login, was most of a login's read)."""
    try:
        network = ipaddress.ip_network(text)
    except ValueError:
        return None
    first = int(network.network_address)
    return network.version, first, first + network.num_addresses - 1


def within(client: tuple[int, int, int], banned: str) -> bool:
    """Whether a connection's address, as its limits count it (an IPv4 address, an IPv6
    host's /64), as its ``span`` ``client``, lies in the network ``banned`` (an admin's
    ban, as listed: server/banned_addresses.py)."""
    ban = span(banned)
    return ban is not None and ban[0] == client[0] and ban[1] <= client[1] <= client[2] <= ban[2]
