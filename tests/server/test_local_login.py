"""A login the server's own process vouches for (``LocalLink.trust``): a ladder's admin
on its own server logs in over the in-memory link with a secret that never leaves the
process: no account is made and no password hashed, and no other login takes the name
(the same name and secret over TCP, a wrong secret over the link, a guest's login)."""

from __future__ import annotations

import functools
from pathlib import Path

import trio

from deberc_net.server.app import serve
from deberc_net.server.running import LocalLink
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

from .client import LineClient, fields, log_in_machine
from .conftest import make_config


async def _refused_login(client: LineClient, name: str, secret: str) -> dict[str, str]:
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(f"login {name} {secret}")
    return await client.expect("error")


async def test_the_process_vouches_for_its_admin_over_its_own_link_only(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    db = tmp_path / "d.sqlite3"
    links: list[LocalLink] = []
    port = await nursery.start(
        functools.partial(
            serve, make_config(db, admins=["boss"]), rules=rule_book(), local_bound=links.append
        )
    )
    link = links[0]
    link.trust("boss", "s3cret")
    boss = await log_in_machine(await LineClient.over(await link.connect()), "boss", "s3cret")
    assert boss.lines[-1].split()[:4] == ["ok", "cmd=login", "name=boss", "guest=0"]
    await boss.send("reserve 2 seats=pa,pb deals=1")  # an admin's command: it is one
    assert int((await boss.expect("ok", cmd="reserve"))["table"]) >= 1
    await boss.send("password s3cret other")  # no account: nothing to change (§5.20)
    assert await boss.expect("error") == {
        "code": "not-allowed",
        "text": "boss has no password on this server",
    }

    # the same name and secret over TCP: only the link logs the name in
    tcp = await LineClient.connect(port)
    assert (await _refused_login(tcp, "boss", "s3cret"))["code"] == "bad-password"
    # a wrong secret over the link is an ordinary login too
    wrong = await LineClient.over(await link.connect())
    assert (await _refused_login(wrong, "BOSS", "guess"))["code"] == "bad-password"
    # a name nobody vouched for over the link: an ordinary registration (then a guest's
    # login for it needs the password)
    other = await log_in_machine(await LineClient.over(await link.connect()), "other", "pw-other")
    assert fields(other.lines[-1])[1]["guest"] == "0"

    store = open_store(db)
    try:
        assert store.account("boss") is None  # nothing stored, nothing hashed
        assert store.account("other") is not None
    finally:
        store.close()
    for client in (boss, tcp, wrong, other):
        await client.aclose()


async def test_a_vouched_for_name_is_not_taken_by_a_guest_over_tcp(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    links: list[LocalLink] = []
    port = await nursery.start(
        functools.partial(
            serve,
            make_config(tmp_path / "d.sqlite3", admins=["boss"]),
            rules=rule_book(),
            local_bound=links.append,
        )
    )
    link = links[0]
    link.trust("boss", "s3cret")
    boss = await log_in_machine(await LineClient.over(await link.connect()), "boss", "s3cret")
    # a guest's login for the name (it has no account: a ladder's bot could try it)
    tcp = await LineClient.connect(port)
    await tcp.send("style machine")
    await tcp.expect("ok", cmd="style")
    await tcp.send("login Boss")
    assert (await tcp.expect("error"))["code"] == "bad-password"
    # the admin keeps its connection and its name
    await boss.send("who")
    assert (await boss.expect("who"))["names"] == "boss"
    await boss.send("reserve 2 seats=pa,pb deals=1")
    assert int((await boss.expect("ok", cmd="reserve"))["table"]) >= 1
    for client in (boss, tcp):
        await client.aclose()
