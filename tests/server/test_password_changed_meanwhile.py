"""A login's password is read, then hashed (after its turn in the hash queue: under a
burst, seconds): a 'password' (docs/protocol.md §5.20) that changed it meanwhile left
the old one good for that login (a review, s28). It is compared with the account as it
stands once hashed."""

from __future__ import annotations

from pathlib import Path

import pytest

from deberc_net.server.accounts import Accounts, set_password
from deberc_net.server.store import open_store
from tests.server.conftest import make_config

ADDRESS = "203.0.113.9"


async def test_a_password_changed_while_a_login_hashed_the_old_one_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = make_config(tmp_path / "db.sqlite")
    store = open_store(config.db)
    try:
        set_password(store, "vera", "old-password")
        accounts = Accounts(store, config)
        read = store.account

        def read_then_changed(name: str) -> tuple[bytes, bytes] | None:
            """The account as the login reads it, then its owner's 'password' at once
            (a real write to the store, before the login's hash)."""
            known = read(name)
            monkeypatch.setattr(store, "account", read)  # (once)
            set_password(store, "vera", "new-password")
            return known

        monkeypatch.setattr(store, "account", read_then_changed)
        refused = await accounts.check_or_register("vera", "old-password", ADDRESS)
        assert refused is not None and refused.code == "bad-password"
        assert await accounts.check_or_register("vera", "new-password", ADDRESS) is None
    finally:
        store.close()
