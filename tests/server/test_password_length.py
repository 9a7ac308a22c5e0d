"""A new password is at least accounts.PASSWORD_LEAST (6) characters (docs/protocol.md
§4.2, §5.20; docs/security.md §1): a registration's and a 'password' change's shorter
one is refused, in the player's language, nothing hashed or stored; an account made
before with a shorter one logs in as ever. Real sockets, a real store."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from deberc_net.server.store import open_store

from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
Register = Callable[[str, str], Awaitable[None]]

SHORT = "a new password is at least 6 characters: choose a longer one"
SHORT_RU = "новый пароль — не короче 6 знаков: выберите подлиннее"


async def _login(port: int, connect: Connector, line: str) -> str:
    """The reply to a login ``line`` on a new connection."""
    client = await connect.raw(port)
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(line)
    return await client.take(lambda x: x.startswith(("ok cmd=login", "error ")))


async def test_a_registration_with_a_short_password_is_refused(
    port: int, connect: Connector, db_path: Path
) -> None:
    said = await _login(port, connect, "login newbie pw123")
    assert said == f"error code=bad-argument text={SHORT}"
    person = await connect.raw(port)  # a person's screen, in Russian
    await person.send("login newbie pw123 lang=ru")
    await person.read_until(lambda line: SHORT_RU in line)
    store = open_store(db_path)
    try:
        assert store.account("newbie") is None  # nothing registered
    finally:
        store.close()
    said = await _login(port, connect, "login newbie pw1234")  # six: taken
    assert said.startswith("ok cmd=login name=newbie"), said


async def test_an_old_short_password_logs_in_and_a_new_one_must_be_long(
    start_server: StartServer, connect: Connector, register: Register
) -> None:
    await register("oldie", "pw")  # made before the rule (as a store holds it)
    port = await start_server()
    oldie = await connect.machine(port, "oldie", "pw")
    await oldie.send("password pw abcde")
    refused = await oldie.expect("error")
    assert refused == {"code": "bad-argument", "text": SHORT}
    await oldie.send("password pw abcdef")
    await oldie.expect("ok", cmd="password")
    await oldie.send("quit")
    await oldie.wait_closed()
    client = await connect.raw(port)
    await client.send("style machine")
    await client.send("login oldie abcdef")
    await client.expect("ok", cmd="login", name="oldie")
