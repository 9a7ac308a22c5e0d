"""A login put off with `slow-down` says how long to wait (docs/protocol.md §4.2, §10):
`wait_ms=` for a program, appended before `text=`, and the same wait in seconds in
the sentence; sent again after it, the login is let in, and not before. A bot written
from the docs alone had no way to know when to try again."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable

import pytest
import trio

from deberc_net.server import accounts

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


class _HeldHash:
    """``accounts.password_hash`` held in its thread until ``go`` while ``hold`` is
    set: a login's check in flight (the virtual clock stands still meanwhile)."""

    def __init__(self) -> None:
        self.real = accounts.password_hash
        self.hold = threading.Event()
        self.go = threading.Event()
        self.started = threading.Semaphore(0)

    def __call__(self, password: str, salt: bytes) -> bytes:
        if self.hold.is_set():
            self.started.release()
            self.go.wait(30)
        return self.real(password, salt)

    async def in_flight(self, client: LineClient, line: str) -> None:
        """``line`` sent, its check held in the hash."""
        self.hold.set()
        self.go.clear()
        await client.send(line)
        assert await trio.to_thread.run_sync(self.started.acquire, True, 30)
        self.hold.clear()


CHECKING = (
    "passwords for this name or from your address are still being checked:"
    " try again once they are done"
)


async def test_a_login_past_the_limit_only_with_checks_in_flight_is_told_no_wait(
    start_server: StartServer,
    connect: Connector,
    register: Callable[[str, str], Awaitable[None]],
    monkeypatch: pytest.MonkeyPatch,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    """A check not yet answered counts as a wrong password (a burst must not pass
    before one counts), but it may be right: a login past the limit only with it is
    put off with no wait_ms= (the wait is not known yet), not told the whole window.
    Failed before: wait_ms=300000, though the owner's check in flight was right and the
    next login was let in at once."""
    await register("anna", "secret")
    held = _HeldHash()
    monkeypatch.setattr(accounts, "password_hash", held)
    port = await start_server(failed_logins_per_name=1, failure_window_ms=WINDOW_MS)
    try:
        owner = await _fresh(connect, port, "owner")
        await held.in_flight(owner, "login anna secret")
        meanwhile = await _login(await _fresh(connect, port, "meanwhile"), "login anna secret")
        assert meanwhile == {"tag": "error", "code": "slow-down", "text": CHECKING}
        held.go.set()
        assert (
            await owner.read_until(lambda x: x.startswith(("ok cmd=login", "error")))
        ).startswith("ok cmd=login")
        assert (await _login(await _fresh(connect, port, "after"), "login anna secret"))["tag"] == (
            "ok"
        )
        # a guess from elsewhere in flight: the same; once it has failed, its window is told
        guesser = await connect.raw(port, "guesser", "127.0.0.2")
        await guesser.send("style machine")
        await held.in_flight(guesser, "login anna wrong")
        other = await connect.raw(port, "other", "127.0.0.3")
        await other.send("style machine")
        assert await _login(other, "login anna secret") == {
            "tag": "error",
            "code": "slow-down",
            "text": CHECKING,
        }
        held.go.set()
        assert (await guesser.read_until(lambda x: x.startswith("error "))).startswith(
            "error code=bad-password"
        )
        told = await _login(other, "login anna secret")
        assert told["code"] == "slow-down" and int(told["wait_ms"]) == WINDOW_MS, told
    finally:
        held.go.set()  # (a failed assertion leaves no thread held)


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
