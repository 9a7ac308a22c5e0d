"""A login put off with `slow-down` says how long to wait (docs/protocol.md §4.2, §10):
`wait_ms=` for a program, appended before `text=`, and the same wait in seconds in
the sentence; sent again after it, the login is let in, and not before. A bot written
from the docs alone had no way to know when to try again."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from .client import LineClient, fields
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]
WINDOW_MS = 300_000  # the failure window (docs/security.md §1)


async def _fresh(connect: Connector, port: int, label: str) -> LineClient:
    """A new connection (one not logged in is closed after 15 s: a retry comes anew)."""
    client = await connect.raw(port, label)
    await client.send("style machine")
    return client


async def _login(client: LineClient, line: str) -> dict[str, str]:
    await client.send(line)
    answer = await client.read_until(lambda x: x.startswith(("ok cmd=login", "error")))
    tag, said = fields(answer)
    return {"tag": tag, **said}


async def test_a_login_over_the_wrong_passwords_limit_is_told_its_wait(
    start_server: StartServer,
    connect: Connector,
    register: Callable[[str, str], Awaitable[None]],
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    await register("anna", "secret")
    port = await start_server(failed_logins_per_name=2, failure_window_ms=WINDOW_MS)
    for n in range(2):  # two wrong passwords for anna from here
        guesser = await _fresh(connect, port, f"guess{n}")
        assert (await _login(guesser, "login anna wrong"))["code"] == "bad-password"
    owner = await _fresh(connect, port, "owner")
    refused = await _login(owner, "login anna secret")
    assert list(refused) == ["tag", "code", "wait_ms", "text"]  # appended before text=
    wait_ms = int(refused["wait_ms"])
    assert WINDOW_MS - 2_000 < wait_ms <= WINDOW_MS  # the guesses' window, from them
    seconds = -(-wait_ms // 1000)
    assert refused["text"] == (
        f"too many wrong passwords for this name or from your address: wait {seconds} s"
    )
    await trio.sleep(wait_ms / 1000 - 1)  # a second early: still put off
    early = await _login(await _fresh(connect, port, "early"), "login anna secret")
    assert early["code"] == "slow-down" and 0 < int(early["wait_ms"]) <= 1_000
    await trio.sleep(int(early["wait_ms"]) / 1000)  # as told: let in
    assert (await _login(await _fresh(connect, port, "told"), "login anna secret"))["tag"] == "ok"


async def test_a_seated_names_logins_over_its_allowance_are_told_their_wait(
    start_server: StartServer,
    connect: Connector,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    port = await start_server()
    vera = await _fresh(connect, port, "vera")
    token = (await _login(vera, "login vera"))["token"]
    await vera.send("new 2")
    await vera.expect("ok", cmd="sit")
    told: dict[str, str] = {}
    for n in range(20):  # her resumes, each one 'away' and 'back' at her table
        again = await _fresh(connect, port, f"vera{n}")
        told = await _login(again, f"login vera token={token}")
        if told["tag"] == "error":
            break
    assert told["code"] == "slow-down", told
    wait_ms = int(told["wait_ms"])
    assert 0 < wait_ms <= 5_000  # one login every 5 s past the burst
    assert told["text"] == (
        f"vera holds a seat and has logged in too often: wait {-(-wait_ms // 1000)} s"
    )
    await trio.sleep(wait_ms / 1000)
    assert (await _login(again, f"login vera token={token}"))["tag"] == "ok"
