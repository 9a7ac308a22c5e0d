"""A PostgreSQL address's password is shown as ``***`` in every message about it
(docs/scaling.md), also when libpq cannot read the address: its reason quotes the
address whole, or the bad part alone, which may be the password itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


# serve without its web face: the default port 7580 is bound before the store opens
# (server/app.py), so another server on 7580 would end it with "port in use" first
SERVE = ["serve", "--port", "0", "--http-port", "off"]


@pytest.mark.parametrize("command", (SERVE, ["ladder", "table"]))
def test_a_command_given_an_unreadable_address_does_not_print_its_password(
    command: list[str], tmp_path: Path
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


# an address of another scheme (SQLAlchemy's spelling): no PostgreSQL address, so it was
# taken for an SQLite file's path, and the refusal to create its folder named it whole
OTHER_SCHEME = f"postgresql+psycopg://ann:{SECRET}@db.example/deberc"


@pytest.mark.parametrize(
    "command",
    (
        SERVE,
        ["ladder", "table"],
        ["records", "export"],
        ["admin", "ann"],
    ),
)
def test_an_address_of_another_scheme_is_refused_without_its_password(
    command: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "deberc_net", *command, "--db", OTHER_SCHEME],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(tmp_path),
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done
    assert SECRET not in done.stdout + done.stderr, done.stderr
    assert "--db expects an SQLite file's path or a postgresql:// address" in done.stderr
    assert "postgresql+psycopg://ann:***@db.example/deberc" in done.stderr
    assert list(tmp_path.iterdir()) == []  # no folder, no file made of it


def test_a_settings_files_address_of_another_scheme_is_refused_without_its_password(
    tmp_path: Path,
) -> None:
    settings = tmp_path / "club.toml"
    settings.write_text(f'[server]\ndb = "{OTHER_SCHEME}"\n', encoding="utf-8")
    for command in (["serve", "--port", "0"], ["ladder", "table"]):
        done = subprocess.run(
            [sys.executable, "-m", "deberc_net", *command, "--config", str(settings)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=str(tmp_path),
        )
        assert done.returncode == 2, done
        assert SECRET not in done.stdout + done.stderr, done.stderr
        assert "setting db expects an SQLite file's path or a postgresql://" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["club.toml"]
