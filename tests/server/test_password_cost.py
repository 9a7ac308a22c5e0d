"""What a server stores for a password, at the production cost: the suite's own process
hashes cheaply (tests/conftest.py), servers the tests start as processes and this test
do not."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import trio

from deberc_net.server.store import open_store

from .conftest import Connector


@pytest.mark.production_password_cost
async def test_a_registered_password_is_kept_as_scrypt_at_the_production_cost(
    port: int, connect: Connector, db_path: Path
) -> None:
    ann = await connect.machine(port, "ann", "s3cret-pass")  # a first login registers
    assert ann.lines[-1].startswith("ok cmd=login name=ann guest=0")

    def stored() -> tuple[bytes, bytes] | None:
        store = open_store(db_path)
        try:
            return store.account("ann")
        finally:
            store.close()

    account = await trio.to_thread.run_sync(stored)
    assert account is not None
    salt, digest = account
    assert len(salt) == 16
    assert digest == hashlib.scrypt(b"s3cret-pass", salt=salt, n=2**14, r=8, p=1, dklen=32)
