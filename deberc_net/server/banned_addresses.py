"""An admin's ban of an address or a network (docs/protocol.md §5.19): what 'ban' takes
as one, and whether a connection's address is in it. It refuses guests and new names
only (a club behind one NAT keeps its members), so it is told from a name's ban by the
word's shape: a name has no '.', ':' or '/' (server/names.py), an address has one."""

from __future__ import annotations

import ipaddress
import re

from deberc_net.protocol.messages import Msg, Phrase, Usage, phrase
from deberc_net.protocol.said_back import said_back

from .addresses import IPV6_PREFIX, Network
from .names import valid_name

# the widest network one ban takes: wider, and a slip of the keys ('10.0.0.0/8')
# refuses a whole provider's guests
WIDEST_IPV4 = 16
WIDEST_IPV6 = 32
ZONE = re.compile(r"%[^/%]+")  # an IPv6 address's zone, up to a prefix's '/'
MAPPED_PREFIX = 96  # ::ffff:0:0/96 holds the IPv4 addresses in IPv6's form
# an address's shape, mistyped or not: hex digits, '.', ':' and '/' (its zone dropped),
# with a digit or two ':' (an IPv6 address has them). A word without it is no address
ADDRESS_SHAPE = re.compile(r"[0-9A-Fa-f.:/]+")
STUCK = ".:/,;!?"  # punctuation typed onto a name: 'ban ann: spam', 'unban ann.'
ADDRESS_BAN_MINUTES = 24 * 60  # its length when the admin gives none
ADDRESS_BAN_MOST_MINUTES = 365 * 24 * 60  # a year: an address changes hands


def about_an_address(rest: str) -> bool:
    """Whether 'ban' or 'unban' followed by ``rest`` is about an address or a network:
    its first word has a '.', a ':' or a '/', which no name has."""
    words = rest.split(maxsplit=1)
    return bool(words) and any(c in words[0] for c in ".:/")


def banned_network(word: str, usage: str) -> Network | Phrase:
    """``word`` as the network a ban holds, or why it is refused (after the command's
    ``usage``). An IPv4 address is its own /32; an IPv6 one, or a network narrower than
    a /64, is its /64, as its host's limits count it (server/addresses.py: one host has
    a whole /64); an IPv4 one in IPv6's form is the IPv4 one, and a link-local's zone
    is dropped, as the limits take a peer's. A network with host bits set is refused,
    naming the one it may mean, as the settings refuse it (config.py)."""
    told = said_back(word)
    # a link-local's zone ('fe80::1%eth0', as the log's peer writes it) dropped, as the
    # limits drop it: they count such a client as 'fe80::/64', whatever its interface
    bare = ZONE.sub("", word, count=1) if ":" in word else word  # (an IPv4 address has none)
    try:
        network: Network = ipaddress.ip_network(bare)
    except ValueError:
        try:
            meant = ipaddress.ip_network(bare, strict=False)
        except ValueError:
            name = meant_name(word)
            if name is None:
                return phrase(Msg.ADDRESS_BAN_NOT_ADDRESS, usage=Usage(usage), word=told)
            command = usage.split(maxsplit=1)[0]
            suggested = f"{command} {name}"
            return phrase(
                Msg.ADDRESS_BAN_NAME_MEANT, usage=Usage(usage), word=told, meant=suggested
            )
        shown = str(as_ipv4(meant))
        return phrase(Msg.ADDRESS_BAN_HOST_BITS, usage=Usage(usage), word=told, network=shown)
    network = as_ipv4(network)  # as a dual-stack peer is taken
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen > IPV6_PREFIX:
        network = network.supernet(new_prefix=IPV6_PREFIX)
    if network.prefixlen < (WIDEST_IPV4 if network.version == 4 else WIDEST_IPV6):
        return phrase(Msg.ADDRESS_BAN_TOO_WIDE, usage=Usage(usage), network=str(network))
    return network


def meant_name(word: str) -> str | None:
    """The name ``word`` may mean, refused as no address: a name with punctuation stuck
    to its ends ('ann:' of 'ban ann: spam'), when it has no address's shape; None if
    it is none (a mistyped address, '127.0.0.x', is refused as one)."""
    bare = ZONE.sub("", word, count=1)
    if ADDRESS_SHAPE.fullmatch(bare) and (re.search("[0-9]", bare) or bare.count(":") > 1):
        return None
    name = word.strip(STUCK)
    return name if name != word and valid_name(name) else None


def as_ipv4(network: Network) -> Network:
    """An IPv4 network in IPv6's form ('::ffff:203.0.113.0/120', inside ::ffff:0:0/96)
    as the IPv4 one ('203.0.113.0/24'), as a connection's IPv4-mapped address is the
    IPv4 one (server/addresses.py); any other as it is. Narrower than a /64, it was
    banned as '::/64', the IPv6 loopback's, holding no IPv4 client."""
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= MAPPED_PREFIX:
        mapped = network.network_address.ipv4_mapped
        if mapped is not None:
            return ipaddress.IPv4Network((mapped, network.prefixlen - MAPPED_PREFIX))
    return network


def holders(network: Network, banned: list[str]) -> list[str]:
    """The wider networks of ``banned`` (as listed) that hold ``network``, the narrowest
    first: what keeps its guests out when it is not banned itself."""
    held = [
        wider
        for wider in map(ipaddress.ip_network, banned)
        # ('in' is False across IPv4 and IPv6)
        if wider.prefixlen < network.prefixlen and network.network_address in wider
    ]
    return [listed(n) for n in sorted(held, key=lambda n: -n.prefixlen)]


def inside(network: Network, banned: list[str]) -> list[str]:
    """The narrower networks of ``banned`` (as listed) that lie inside ``network``, as
    'bans' orders them: what an unban of ``network``, not banned itself, leaves banned
    (each ban is its own, with its own reason and end: a wider unban lifts none)."""
    held = [
        narrower
        for narrower in map(ipaddress.ip_network, banned)
        if narrower.prefixlen > network.prefixlen and narrower.network_address in network
    ]
    return [listed(n) for n in sorted(held, key=lambda n: (int(n.network_address), n.prefixlen))]


def listing_order(listed: str) -> tuple[int, int, int]:
    """A banned network as listed, as 'bans' orders those banned in one second: by its
    address's value, IPv4 before IPv6, then its prefix (by its text '10.1.0.10' came
    before '10.1.0.2')."""
    network = ipaddress.ip_network(listed)
    return network.version, int(network.network_address), network.prefixlen


def listed(network: Network) -> str:
    """A banned network as stored, listed and logged: an IPv4 address bare, any other
    with its prefix ('203.0.113.0/24', '2001:db8::/64')."""
    if network.version == 4 and network.prefixlen == 32:
        return str(network.network_address)
    return str(network)
