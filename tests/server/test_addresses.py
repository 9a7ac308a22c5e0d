"""Per-address limits count an IPv6 client by its /64 (server/addresses.py): a host
handed a /64 by its provider could otherwise take a fresh address per connection."""

from __future__ import annotations

import pytest
import trio

from deberc_net.server.addresses import limited_address, span, within
from deberc_net.server.local import LOCAL_ADDRESS
from deberc_net.server.running import socket_peer


@pytest.mark.parametrize(
    ("host", "counted"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),  # the same network
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),  # the next one is another
        ("::ffff:192.0.2.1", "192.0.2.1"),  # IPv4 in IPv6's form (a dual-stack socket)
        ("fe80::1%eth0", "fe80::/64"),
        ("::1", "::/64"),
        (LOCAL_ADDRESS, LOCAL_ADDRESS),  # the in-process link: not an IP address
        ("?", "?"),
    ],
)
def test_an_address_is_counted_by_its_ipv4_address_or_its_ipv6_slash_64(
    host: str, counted: str
) -> None:
    assert limited_address(host) == counted


async def test_a_connection_over_ipv6_is_counted_by_its_network_and_logged_by_its_address() -> None:
    # failed before: every address of a /64 had limits of its own
    listener = (await trio.open_tcp_listeners(0, host="::1"))[0]
    port = listener.socket.getsockname()[1]
    async with listener, await trio.open_tcp_stream("::1", port) as client:
        served = await listener.accept()
        async with served:
            address, peer = socket_peer(served)
        client_port = client.socket.getsockname()[1]
    assert address == "::/64"
    assert peer == f"[::1]:{client_port}"  # ("::1:PORT" is an IPv6 address of its own)


def test_a_banned_network_holds_the_addresses_limits_count_inside_it() -> None:
    # an admin's 'ban ADDRESS|NETWORK' (docs/protocol.md §5.19) against a connection's
    # address as its limits count it: an IPv4 address, an IPv6 host's /64
    v4 = span(limited_address("203.0.113.7"))
    v6 = span(limited_address("2001:db8:0:5::1"))
    assert v4 is not None and v6 is not None
    assert within(v4, "203.0.113.0/24") and within(v4, "203.0.113.7")
    assert not within(v4, "203.0.114.0/24") and not within(v4, "203.0.113.8")
    assert within(v6, "2001:db8::/48") and within(v6, "2001:db8:0:5::/64")
    assert not within(v6, "2001:db8:0:6::/64") and not within(v6, "203.0.113.0/24")
    assert not within(v4, "::/0") and not within(v4, "not a network")
    assert span(LOCAL_ADDRESS) is None  # the in-process link's: no address, never banned
