"""`deberc-net admin NAME` on a name already registered (a player's, or an admin's)
refuses, changing nothing, unless told `--replace`: an operator resets a password on
purpose, never by typing a player's name (docs/security.md). Logins over a real server
show which password works."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio

from deberc_net.cli import main
from deberc_net.server.store import open_store

from .conftest import Connector

StartServer = Callable[..., Awaitable[int]]


def _admin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str, pw: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{pw}\n"))
    code = main(["admin", *argv])
    out, err = capsys.readouterr()
    return code, out, err


async def _login(port: int, connect: Connector, line: str) -> str:
    client = await connect.raw(port)
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(line)
    reply = await client.take(lambda x: x.startswith(("ok cmd=login", "error ")))
    await client.aclose()
    return reply.split(" ", 2)[1]


async def test_admin_on_a_registered_name_refuses_without_replace_and_resets_with_it(
    start_server: StartServer,
    connect: Connector,
    db_path: Path,
    register: Callable[[str, str], Awaitable[None]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await register("newbie", "players-own")
    db = str(db_path)

    def admin(*argv: str, pw: str) -> tuple[int, str, str]:
        return _admin(monkeypatch, capsys, *argv, "--db", db, pw=pw)

    code, out, err = await trio.to_thread.run_sync(lambda: admin("NEWBIE", pw="taken"))
    assert (code, out) == (2, "")  # (no server runs yet to log)
    assert err == (
        f"deberc-net admin: NEWBIE is registered already in {db}: --replace gives it this "
        "password (its old one stops working)\n"
    )
    port = await start_server()
    assert await _login(port, connect, "login newbie players-own") == "cmd=login"
    assert await _login(port, connect, "login newbie taken") == "code=bad-password"

    code, out, err = await trio.to_thread.run_sync(
        lambda: admin("newbie", "--replace", pw="reset-1")
    )
    assert code == 0, err
    said = out.splitlines()[-1]  # (the running server logs to the same capture)
    assert said.startswith(f"newbie has a new password in {db} (the old one no longer works)")
    assert await _login(port, connect, "login newbie reset-1") == "cmd=login"
    assert await _login(port, connect, "login newbie players-own") == "code=bad-password"


def test_admin_help_says_what_name_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    # 'admin --help' showed a bare 'name', where --replace's help speaks of NAME
    with pytest.raises(SystemExit) as ended:
        main(["admin", "--help"])
    assert ended.value.code == 0
    out = " ".join(capsys.readouterr().out.split())  # (argparse wraps it)
    assert "admin [-h] [--replace] [--db DB] [--config FILE.toml] NAME" in out
    assert "2-20 letters, digits, '_' or '-'" in out and "admins setting" in out


def test_admin_registers_a_new_name_with_or_without_replace(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, flags in (("boss", ()), ("chief", ("--replace",))):
        code, out, err = _admin(
            monkeypatch, capsys, name, *flags, "--db", str(db_path), pw="pw-boss"
        )
        assert (code, err) == (0, "")
        assert out == (
            f"{name} is registered in {db_path}; list it in the server's admins (a server"
            " reads them when it starts)\n"
        )


class _NoPasswordHere(io.StringIO):
    """Standard input that fails the test if the command reads a password from it."""

    # typeshed says so of StringIO.readline too: its bases (bytes, str) disagree
    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        raise AssertionError("the password was asked for")


def test_admin_with_a_database_in_a_missing_folder_is_one_sentence_before_the_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "nodir" / "d.sqlite3"
    monkeypatch.setattr("sys.stdin", _NoPasswordHere())  # no password typed in vain
    code = main(["admin", "boss", "--db", str(db)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (
        f"deberc-net admin: cannot create the database {db}: there is no folder "
        f"{db.parent}; create it first, or give another path\n"
    )
    assert not db.parent.exists()


async def test_admin_refuses_a_registered_name_before_asking_for_the_password(
    db_path: Path,
    register: Callable[[str, str], Awaitable[None]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await register("newbie", "players-own")
    monkeypatch.setattr("sys.stdin", _NoPasswordHere())
    assert main(["admin", "newbie", "--db", str(db_path)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == (
        "",
        f"deberc-net admin: newbie is registered already in {db_path}: --replace gives it "
        "this password (its old one stops working)\n",
    )


def test_admin_with_a_bad_password_makes_no_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.sqlite3"
    code, out, err = _admin(monkeypatch, capsys, "boss", "--db", str(db), pw="two words")
    assert (code, out) == (2, "")
    assert err == "deberc-net admin: the password is one word, read from standard input\n"
    assert list(tmp_path.iterdir()) == []


# a password beginning with a word a login reads as its own, or holding a character a
# login's line cannot carry (it is split at any space: a tab, a no-break space): such a
# password, stored, could never be given back
_STARTS = (
    "no login can type a password beginning with token=, lang=, style=, tell=, sort= or"
    " clock= (it reads those words otherwise): choose another"
)
_INVISIBLE = (
    "no login can type a password with a tab, a no-break space or another invisible"
    " character: choose another"
)


@pytest.mark.parametrize(
    ("password", "said"),
    [
        *((pw, _STARTS) for pw in ("token=abc", "lang=ru", "Style=machine", "clock=bot")),
        *((pw, _INVISIBLE) for pw in ("pass\tword", "pass\u00a0word", "pass\u200bword")),
    ],
)
def test_admin_refuses_a_password_no_login_can_type(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    password: str,
    said: str,
) -> None:
    db = tmp_path / "d.sqlite3"
    code, out, err = _admin(monkeypatch, capsys, "boss", "--db", str(db), pw=password)
    assert (code, out) == (2, "")
    assert err == f"deberc-net admin: {said}\n"
    assert list(tmp_path.iterdir()) == []


async def test_admin_takes_no_new_name_against_the_compatibility_rule_but_resets_an_old_one(
    db_path: Path,
    register: Callable[[str, str], Awaitable[None]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'½' is '1⁄2' in the compatibility form names are compared in: no name holding it
    is registered now, but one registered before the rule is its player's, and an
    operator may still give it a new password."""
    db = str(db_path)

    def admin(*argv: str) -> tuple[int, str, str]:
        return _admin(monkeypatch, capsys, *argv, "--db", db, pw="new-one")

    await register("old\u00bd", "his-own")
    code, out, err = await trio.to_thread.run_sync(lambda: admin("new\u00bd"))
    assert (code, out, err) == (
        2,
        "",
        "deberc-net admin: a name is 2-20 letters, digits, '_' or '-'\n",
    )
    code, out, err = await trio.to_thread.run_sync(lambda: admin("old\u00bd", "--replace"))
    assert (code, err) == (0, ""), err
    assert out.startswith("old\u00bd has a new password in ")


async def test_admin_takes_no_new_name_a_login_could_not_register(
    db_path: Path,
    register: Callable[[str, str], Awaitable[None]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A look-alike of a registered name (in Latin, or in Cyrillic letters), a name with
    the house bots' prefix: refused as a login's registration is, before the password
    is asked for, nothing stored; a name that looks like none is registered."""
    await register("Alice", "her-own-1")
    monkeypatch.setattr("sys.stdin", _NoPasswordHere())
    for name, said in [
        ("AIice", "AIice looks like Alice, a name taken (I, l and 1 look alike"),
        ("\u0410lice", "a name keeps to one alphabet"),  # (a Cyrillic А)
        ("\u0430\u04cf\u0456\u0441\u0435", "\u0430\u04cf\u0456\u0441\u0435 looks like Alice"),
        ("house-boss", "names starting 'house-' are the server's bots"),
        ("h0use-boss", "names starting 'house-' are the server's bots"),
        ("\u1d00lice", "a name has no small capitals or phonetic letters"),  # (ᴀ)
    ]:
        assert main(["admin", name, "--db", str(db_path)]) == 2, name
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"deberc-net admin: {said}"), (name, err)
    code, out, err = _admin(monkeypatch, capsys, "alicia", "--db", str(db_path), pw="pw-alicia")
    assert (code, err) == (0, ""), err
    store = open_store(db_path)
    try:
        registered = [
            n
            for n in ("AIice", "house-boss", "h0use-boss", "\u1d00lice", "alicia")
            if store.account(n)
        ]
        assert registered == ["alicia"]
    finally:
        store.close()


def test_admin_refuses_a_short_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # as a login's registration refuses it: nothing stored, no database made
    db = tmp_path / "d.sqlite3"
    code, out, err = _admin(monkeypatch, capsys, "boss", "--db", str(db), pw="boss1")
    assert (code, out) == (2, "")
    assert err == "deberc-net admin: a new password is at least 6 characters: choose a longer one\n"
    assert list(tmp_path.iterdir()) == []
