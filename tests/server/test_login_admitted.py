"""How a login with a password is let in (accounts.Admitted, what Login._check_password
hands on): a free name's first login registers it (REGISTERED: logged 'register', its
welcome says so), the right password of a registered name lets it in (PASSWORD: as any
registered name's); neither is a guest's, and neither is given a token. A token is no
password: a registered name given one is refused and nothing changes. Only the refusals
(None) were tested at this step before."""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import structlog

from deberc_net.server.accounts import Accounts, Admitted
from deberc_net.server.store import open_store
from tests.server.conftest import make_config

from .conftest import Connector

ADDRESS = "203.0.113.7"


def _events(logs: Sequence[MutableMapping[str, Any]], event: str) -> list[MutableMapping[str, Any]]:
    return [line for line in logs if line["event"] == event]


async def test_admit_says_a_registration_from_a_right_password(tmp_path: Path) -> None:
    config = make_config(tmp_path / "db.sqlite")
    store = open_store(config.db)
    try:
        accounts = Accounts(store, config)
        assert store.account("vera") is None
        assert await accounts.admit("vera", "her-password", ADDRESS) is Admitted.REGISTERED
        assert store.account("vera") is not None
        assert await accounts.admit("VERA", "her-password", ADDRESS) is Admitted.PASSWORD
        wrong = await accounts.admit("vera", "not-hers", ADDRESS)
        assert not isinstance(wrong, Admitted) and wrong.code == "bad-password"
    finally:
        store.close()


@pytest.mark.timeout(60)
async def test_each_way_in_as_the_login_tells_it(port: int, connect: Connector) -> None:
    with structlog.testing.capture_logs() as logs:
        first = await connect.raw(port, "first")
        await first.send("style machine")
        await first.expect("ok", cmd="style")
        await first.send("login vera her-password")
        registered = await first.expect("ok", cmd="login")
        await first.send("quit")
        await first.wait_closed()
    assert (registered["name"], registered["guest"]) == ("vera", "0")
    assert "token" not in registered
    assert "registered now, with the password you typed" in registered["text"]
    assert [line["name"] for line in _events(logs, "register")] == ["vera"]

    with structlog.testing.capture_logs() as logs:
        again = await connect.raw(port, "again")
        await again.send("style machine")
        await again.expect("ok", cmd="style")
        await again.send("login Vera her-password")
        back = await again.expect("ok", cmd="login")
    assert (back["name"], back["guest"]) == ("vera", "0")  # the account's spelling
    assert "token" not in back
    assert "(registered)" in back["text"] and "registered now" not in back["text"]
    assert _events(logs, "register") == []

    guest = await connect.machine(port, "gus")  # a guest's name: a token to resume it
    assert guest.token is not None
    stranger = await connect.raw(port, "stranger")
    await stranger.send("style machine")
    await stranger.expect("ok", cmd="style")
    await stranger.send(f"login vera token={guest.token}")
    refused = await stranger.expect("error")
    assert refused["code"] == "bad-password" and "give the password" in refused["text"]
    await again.send("ping")  # vera's connection was not taken over
    await again.expect("ok", cmd="ping")
