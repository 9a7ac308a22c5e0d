"""Wrong-password limits hold against logins sent all at once (docs/security.md §1):
a check asked and not answered yet counts against them, so a burst cannot all pass the
look at the limits before the first of its guesses is counted (a review found 20
guesses from one address hashed against a limit of 5)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from deberc_net.server.accounts import Accounts, set_password
from deberc_net.server.config import Config
from deberc_net.server.store import open_store
from tests.server.conftest import make_config


async def _burst(accounts: Accounts, addresses: list[str]) -> list[str]:
    answers: list[str] = []

    async def guess(i: int, address: str) -> None:
        error = await accounts.check_or_register("vera", f"guess-{i}", address)
        answers.append("ok" if error is None else error.code)

    async with trio.open_nursery() as nursery:
        for i, address in enumerate(addresses):
            nursery.start_soon(guess, i, address)
    return answers


@pytest.fixture
def vera(tmp_path: Path) -> Iterator[tuple[Accounts, Config]]:
    """The accounts of a store where vera is registered, and their settings."""
    config = make_config(tmp_path / "db.sqlite")
    store = open_store(config.db)
    try:
        set_password(store, "vera", "right-password")
        yield Accounts(store, config), config
    finally:
        store.close()


async def test_a_burst_from_one_address_is_hashed_no_more_than_the_limit(
    vera: tuple[Accounts, Config],
) -> None:
    accounts, config = vera
    answers = await _burst(accounts, ["203.0.113.9"] * 20)
    assert answers.count("bad-password") == config.failed_logins_per_name
    assert answers.count("slow-down") == 20 - config.failed_logins_per_name


async def test_a_burst_from_many_addresses_is_held_to_the_names_limit(
    vera: tuple[Accounts, Config],
) -> None:
    accounts, config = vera
    answers = await _burst(accounts, [f"203.0.113.{n}" for n in range(20)])
    assert answers.count("bad-password") == config.failed_logins_per_name


async def test_the_owner_known_at_her_address_gets_in_past_a_burst(
    vera: tuple[Accounts, Config],
) -> None:
    accounts, _ = vera
    assert await accounts.check_or_register("vera", "right-password", "198.51.100.1") is None
    await _burst(accounts, [f"203.0.113.{n}" for n in range(20)])
    assert await accounts.check_or_register("vera", "right-password", "198.51.100.1") is None
    refused = await accounts.check_or_register("vera", "right-password", "198.51.100.2")
    assert refused is not None and refused.code == "slow-down"
