"""``ladder run --server`` against a server that does not list the ladder's admin in its
admins (or lists it unregistered): the run stops saying so, and registers nothing
(docs/bots.md). Its login with the password registered the name before, as an
ordinary account holding the admin's password, and the owner's ``deberc-net admin
ladder-admin`` was then refused ('registered already')."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import structlog
import trio

from deberc_net.ladder.admin import ADMIN, AdminClient
from deberc_net.ladder.schedule import ScheduleError
from tests.server.conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]


async def test_a_server_not_listing_the_ladders_admin_is_told_and_nothing_registered(
    start_server: StartServer, register: Register, connect: Connector
) -> None:
    port = await start_server(admins=["boss"])
    with trio.fail_after(30), pytest.raises(ScheduleError) as refused:
        await AdminClient.connect("127.0.0.1", port, "adminspw1")
    said = str(refused.value)
    assert f"does not list {ADMIN} in its admins" in said, said
    assert f"deberc-net admin {ADMIN}" in said and "nothing was registered" in said, said
    # the name is free: a guest's (a registered name's login without its password is
    # refused), and the probe's guest gone
    guest = await connect.machine(port, ADMIN)
    await guest.send("finger ladder-admin")
    assert (await guest.expect("finger"))["registered"] == "0"


async def test_a_listed_admin_not_registered_is_told_so(start_server: StartServer) -> None:
    port = await start_server(admins=[ADMIN])
    with trio.fail_after(30), pytest.raises(ScheduleError) as refused:
        await AdminClient.connect("127.0.0.1", port, "adminspw1")
    assert f"{ADMIN} is one of 127.0.0.1:{port}'s admins but not registered" in str(refused.value)


async def test_a_registered_admin_logs_in_after_the_probe(
    start_server: StartServer, register: Register
) -> None:
    port = await start_server(admins=[ADMIN])
    await register(ADMIN, "adminspw1")
    with trio.fail_after(30), structlog.testing.capture_logs() as logs:
        admin = await AdminClient.connect("127.0.0.1", port, "adminspw1")
        await admin.send("reserve 2 moscow seats=a1,b1 deals=1 watch=ends")
        assert (await admin.next()).get_str("cmd") == "reserve"
        await admin.aclose()
    # the probe (its login without the password) is its password asked for, no failed
    # login: the server's log said 'login_failed reason=no-password' each run before
    events = [(line["event"], line["log_level"]) for line in logs if "login" in line["event"]]
    assert ("login_failed", "warning") not in events, events
    assert [line["name"] for line in logs if line["event"] == "password_asked"] == [ADMIN]
    assert [line["name"] for line in logs if line["event"] == "login"] == [ADMIN]
