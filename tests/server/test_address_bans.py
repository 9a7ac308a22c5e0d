"""An admin against a troll with fresh guest names (docs/protocol.md §5.18, §5.19), over
real TCP: 'finger NAME' tells an admin the address of the player's connection, as its
limits count it (the client a listed proxy's PROXY header names)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .client import LineClient, dial_from, log_in_machine, person_told
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]
PROXY = "127.0.0.2"  # a listed proxy's address (any 127.x.y.z is this machine's)


async def _boss(port: int, connect: Connector, register: Register) -> LineClient:
    await register("boss", "owners")
    return await connect.machine(port, "boss", "owners")


async def _proxied(connect: Connector, port: int, source: str, name: str) -> LineClient:
    """``name`` logged in (a guest) through the proxy, its header naming ``source``."""
    stream = await dial_from(PROXY, port)
    version = 6 if ":" in source else 4
    target = "::1" if version == 6 else "127.0.0.1"
    await stream.send_all(f"PROXY TCP{version} {source} {target} 5555 7501\r\n".encode())
    client = await LineClient.over(stream, name)
    connect.clients.append(client)
    return await log_in_machine(client, name)


async def _finger(client: LineClient, name: str) -> dict[str, str]:
    await client.send(f"finger {name}")
    return await client.expect("finger")


async def test_finger_tells_an_admin_the_address_a_players_limits_count_and_nobody_else(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    port = await start_server(admins=["boss"], game_proxies=[PROXY])
    boss = await _boss(port, connect, register)
    ann = await connect.machine(port, "ann", source="127.0.0.3")
    await _proxied(connect, port, "203.0.113.7", "bob")  # the client the header names
    await _proxied(connect, port, "2001:db8::1", "cid")  # an IPv6 host: its /64
    assert (await _finger(boss, "ann"))["address"] == "127.0.0.3"
    assert (await _finger(boss, "bob"))["address"] == "203.0.113.7"
    cid = await _finger(boss, "cid")
    assert cid["address"] == "2001:db8::/64"
    assert list(cid)[-1] == "address"  # after the documented fields (§3.2)
    await register("vera", "veras")  # registered, not here: no address
    assert "address" not in await _finger(boss, "vera")
    assert "address" not in await _finger(ann, "bob")  # nobody but an admin sees it
    await boss.send("style human")
    await boss.read_until(lambda x: "human" in x)
    told = await person_told(boss, "finger bob")
    assert "  Connected from 203.0.113.7." in told, told
