"""A PostgreSQL address's password is shown as ``***`` in every message about it
(docs/scaling.md), also when libpq cannot read the address: its reason quotes the
address whole, or the bad part alone, which may be the password itself."""

from __future__ import annotations

import subprocess
import sys

import pytest

from deberc_net.server.store import StoreError, open_store

SECRET = "s3cret"
# addresses libpq cannot read, each quoting the password in its reason
UNREADABLE = (
    f"postgresql://ann:{SECRET}@[::1/deberc",  # '… in URI: "postgresql://ann:…"'
    f"postgresql://ann:{SECRET}%zz@db.example/deberc",  # 'invalid percent-encoded token'
    "postgresql://ann@db.example/deberc?password=s3cret%zzpw",  # (its value: that token)
)


@pytest.mark.parametrize("address", UNREADABLE)
def test_an_unreadable_addresss_password_is_not_in_its_error(address: str) -> None:
    with pytest.raises(StoreError) as refused:
        open_store(address)
    said = str(refused.value)
    assert said.startswith("not a PostgreSQL address: "), said
    assert SECRET not in said, said
    assert "***" in said, said  # what was hidden is said to be there


@pytest.mark.parametrize("command", (["serve", "--port", "0"], ["ladder", "table"]))
def test_a_command_given_an_unreadable_address_does_not_print_its_password(
    command: list[str], tmp_path: object
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", *command, "--db", UNREADABLE[0]],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(tmp_path),
    )
    assert done.returncode == 2, done
    assert "not a PostgreSQL address" in done.stderr, done.stderr
    assert SECRET not in done.stdout + done.stderr, done.stderr
