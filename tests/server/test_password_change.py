"""'password OLD NEW' over real sockets (docs/protocol.md §5.20): a registered name's
owner changes its password; the old one is checked as a login's is (a wrong one told,
counted against the connection and logged), the new one is what logs in after."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NoReturn

import pytest
import structlog

from deberc_net.server.accounts import Accounts

from .client import LineClient, machine_client
from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]

CHANGED = "Your password is changed: log in with the new one from now on."
RESERVED = (
    "a password may not begin with 'token=', 'lang=', 'style=', 'tell=', 'sort=' or 'clock=':"
    " 'login' reads those otherwise"
)
# new passwords no login could give: 'token=' as typed, the settings' words in any case
UNTYPABLE = ("token=abc", "LANG=ru", "style=machine", "Style=x", "tell=asks", "SORT=a", "clock=b")


async def _login_refused(port: int, name: str, password: str) -> dict[str, str]:
    client = await LineClient.connect(port, name)
    try:
        await client.send("style machine")
        await client.expect("ok", cmd="style")
        await client.send(f"login {name} {password}")
        return await client.expect("error")
    finally:
        await client.aclose()


async def test_the_new_password_logs_in_and_the_old_one_no_longer(
    port: int, connect: Connector
) -> None:
    vera = await connect.machine(port, "Vera", password="first1")
    await vera.send("password first1 second2")
    assert await vera.expect("ok", cmd="password") == {"cmd": "password", "text": CHANGED}
    await vera.send("quit")
    await vera.wait_closed()
    refused = await _login_refused(port, "vera", "first1")
    assert refused == {"code": "bad-password", "text": "wrong password for that name"}
    again = await LineClient.connect(port, "again")
    await again.send("style machine")
    await again.send("login VERA second2")
    login = await again.expect("ok", cmd="login")
    assert (login["name"], login["guest"]) == ("Vera", "0")  # the account's spelling
    await again.aclose()


async def test_a_wrong_old_password_changes_nothing_and_counts_as_a_wrong_login(
    port: int, connect: Connector
) -> None:
    vera = await connect.machine(port, "vera", password="first1")
    for _ in range(2):
        await vera.send("password guess new-one1")
        assert await vera.expect("error") == {
            "code": "bad-password",
            "text": "OLD is not your password: 'password OLD NEW' takes the one you log in"
            " with first",
        }
    await vera.send("password guess new-one1")  # the third (failed_logins_per_connection)
    await vera.expect("error", code="bad-password")
    assert (await vera.expect("bye"))["text"] == "Too many wrong passwords: the connection closes."
    await vera.wait_closed()
    again = await machine_client(port, "vera", "first1")  # unchanged
    await again.aclose()


async def test_what_cannot_be_a_password_is_refused_before_any_check(
    port: int, connect: Connector
) -> None:
    vera = await connect.machine(port, "vera", password="first1")
    for typed, code, text in [
        ("password", "bad-argument", "password OLD NEW"),
        ("password first1", "bad-argument", "password OLD NEW"),
        ("password first1 a b", "bad-argument", "password OLD NEW"),
        (
            "password first1 first1",
            "bad-argument",
            "OLD and NEW are the same: a new password must differ",
        ),
        # 'login' reads each otherwise (a setting, or a refusal naming its command)
        *((f"password first1 {new}", "bad-argument", RESERVED) for new in UNTYPABLE),
    ]:
        await vera.send(typed)
        assert await vera.expect("error") == {"code": code, "text": text}, typed
    await vera.send("ping")  # none counted as a wrong password: still connected
    await vera.expect("ok", cmd="ping")
    # 'login' reads 'token=' as it is typed (and 'lang=' in any case): 'Token=…' is a
    # password it takes, so it is one a change may set (a review, s28)
    await vera.send("password first1 Token=Abc9")
    await vera.expect("ok", cmd="password")
    back = await LineClient.connect(port, "back")
    await back.send("style machine")
    await back.send("login vera Token=Abc9")
    assert (await back.expect("ok", cmd="login"))["guest"] == "0"
    await back.aclose()
    guest = await connect.machine(port, "gleb")
    await guest.send("password a b")
    assert await guest.expect("error") == {
        "code": "not-allowed",
        "text": "a guest has no password: 'login NAME PASSWORD' registers a free name",
    }
    anon = await connect.raw(port, "anon")
    await anon.send("password a b")  # not logged in: nobody's password
    assert (await anon.read_until(lambda x: x.startswith("Error"))).startswith(
        "Error (not-logged-in)"
    )


async def test_new_passwords_are_limited_as_registrations_are(
    start_server: StartServer, connect: Connector
) -> None:
    """A new password is hashed in the registrations' pool (one thread): it counts as a
    registration from its address (registrations_per_address), or a loop of changes,
    20 a minute an address (the checks' limit), would fill that pool as no loop of
    registrations may (docs/security.md §1)."""
    with structlog.testing.capture_logs() as logs:
        port = await start_server(registrations_per_address=2)
        vera = await connect.machine(port, "vera", password="first1")  # registered: one
        await vera.send("password first1 second2")  # two
        await vera.expect("ok", cmd="password")
        await vera.send("password second2 third3")
        refused = await vera.expect("error")
        # the wait till the first of the hour's two leaves the window (registration_window)
        wait_ms = int(refused.pop("wait_ms"))
        assert 3_590_000 < wait_ms <= 3_600_000
        assert refused == {
            "code": "slow-down",
            "text": "too many names registered or passwords changed from your address: "
            f"wait {-(-wait_ms // 1000)} s",
        }
    # logged as a login's refusal is, for a ban tool (a review, s28: it was not)
    [failed] = [entry for entry in logs if entry["event"] == "login_failed"]
    assert (failed["name"], failed["reason"], failed["command"]) == (
        "vera",
        "slow-down",
        "password",
    )
    assert not [entry for entry in logs if "second2" in repr(entry) or "third3" in repr(entry)]
    again = await machine_client(port, "vera", "second2")  # unchanged
    await again.aclose()


async def test_a_bug_in_a_change_logs_neither_password(
    start_server: StartServer, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug's command_error line said the line as typed, its first 100 characters:
    'password OLD NEW' (or a 'login') in the server's log (commands.for_log)."""

    async def broken(*args: object) -> NoReturn:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Accounts, "change_password", broken)
    with structlog.testing.capture_logs() as logs:
        port = await start_server()
        vera = await connect.machine(port, "vera", password="first1")
        await vera.send("password first1 n3wsecret")
        assert (await vera.expect("error"))["code"] == "internal"
    [logged] = [entry for entry in logs if entry["event"] == "command_error"]
    assert "password" in logged["item"], logged
    assert "first1" not in repr(logged) and "n3wsecret" not in repr(logged), logged


async def test_a_wrong_old_password_is_logged_for_a_ban_tool(
    start_server: StartServer, connect: Connector
) -> None:
    """docs/settings.md, "Logs": login_failed reason=bad-password command=password, a
    line each (fail2ban reads them), neither password in it."""
    with structlog.testing.capture_logs() as logs:
        port = await start_server()
        vera = await connect.machine(port, "vera", password="first1")
        await vera.send("password gue55 n3wsecret")
        await vera.expect("error", code="bad-password")
    [failed] = [entry for entry in logs if entry["event"] == "login_failed"]
    assert (failed["name"], failed["reason"], failed["command"]) == (
        "vera",
        "bad-password",
        "password",
    )
    assert not [entry for entry in logs if "gue55" in repr(entry) or "n3wsecret" in repr(entry)]


async def test_a_wrong_old_password_is_told_as_the_old_one_in_russian(
    port: int, connect: Connector
) -> None:
    """Which of the two is wrong: the login's 'wrong password for that name' named
    neither (a tryout, s43)."""
    vera = await connect.raw(port, "vera")
    await vera.send("login vera first1 lang=ru")
    await vera.read_until(lambda x: x.startswith("Здравствуйте, "))
    await vera.send("password guess new-one1")
    assert await vera.read_until(lambda x: x.startswith("Ошибка (")) == (
        "Ошибка (bad-password): СТАРЫЙ — не ваш пароль (password СТАРЫЙ НОВЫЙ)"
    )
