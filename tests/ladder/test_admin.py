"""The ladder's admin connection (ladder/admin.py) against a real server."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
from trio.testing import MockClock

from deberc_net.ladder.admin import ADMIN, AdminClient
from tests.server.conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]


async def test_the_wait_for_the_bots_ends_soon_after_the_last_logs_in(
    start_server: StartServer,
    register: Register,
    connect: Connector,
    virtual_clock: MockClock,
    jump_when_idle: None,
) -> None:
    """A ladder's bots log in a few ms after it starts (in-process ones): the admin
    asks 'who' again soon, not 50 ms later (every ladder run waited that long), and
    less often the longer it waits."""
    port = await start_server(admins=[ADMIN])
    await register(ADMIN, "pw")
    admin = await AdminClient.connect("127.0.0.1", port, "pw")

    async def bot_logs_in(name: str, after: float) -> None:
        await trio.sleep(after)
        await connect.machine(port, name)

    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot_logs_in, "soon", 0.003)
        await admin.wait_for(["soon"], 5.0)
    assert trio.current_time() - start < 0.02

    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(bot_logs_in, "late", 2.0)
        await admin.wait_for(["soon", "late"], 5.0)
    waited = trio.current_time() - start
    assert 2.0 <= waited <= 2.06  # asked every 50 ms at most by then
    await admin.aclose()
