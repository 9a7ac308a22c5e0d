"""The commands that open the store take the server's settings file too (`--config`):
its `db` is theirs unless `--db` is given (docs/settings.md), so an operator whose
database is named in the file need not repeat it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from deberc_net.cli import build_parser, main, serve_config
from deberc_net.server.config import Config
from deberc_net.server.store import describe, open_store
from tests.server.process import start_server_process


def _settings(tmp_path: Path, db: Path) -> Path:
    path = tmp_path / "club.toml"
    path.write_text(f'[server]\ndb = "{db}"\nadmins = ["boss"]\n', encoding="utf-8")
    return path


def test_admin_registers_in_the_settings_files_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.sqlite3"
    monkeypatch.chdir(tmp_path)  # the default file would be made here
    settings = _settings(tmp_path, db)
    monkeypatch.setattr("sys.stdin", io.StringIO("bosspw1\n"))
    assert main(["admin", "boss", "--config", str(settings)]) == 0
    out = capsys.readouterr().out
    assert out == (
        f"boss is registered in {db}; {settings} lists it in admins (a server reads the file"
        " when it starts: one started before the name was listed knows it after a restart)\n"
    )
    assert not (tmp_path / "deberc.sqlite3").exists()
    store = open_store(str(db))
    try:
        assert store.account("boss") is not None
    finally:
        store.close()


def test_admin_says_when_the_files_admins_leave_the_name_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db, settings = tmp_path / "club.sqlite3", _settings(tmp_path, tmp_path / "other.sqlite3")
    monkeypatch.setattr("sys.stdin", io.StringIO("annapw1\n"))
    assert main(["admin", "anna", "--config", str(settings), "--db", str(db)]) == 0
    out = capsys.readouterr().out  # --db won; the file's admins were still read
    assert out == (
        f"anna is registered in {db}; list it in admins in {settings} (it is not there yet),"
        " then restart the server: it reads the file when it starts\n"
    )


def test_a_players_password_reset_is_not_told_to_list_him_in_admins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`admin NAME --replace` is how a forgotten password is reset (docs/protocol.md
    §5.20): for a player's name it said "list it in admins … then restart the server",
    as if the reset needed him made an admin and a restart."""
    db = tmp_path / "club.sqlite3"
    settings = _settings(tmp_path, db)
    for name, password in (("dan", "danpw-1\n"), ("boss", "bosspw1\n")):
        monkeypatch.setattr("sys.stdin", io.StringIO(password))
        assert main(["admin", name, "--config", str(settings)]) == 0
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("danpw-2\n"))
    assert main(["admin", "dan", "--replace", "--config", str(settings)]) == 0
    assert capsys.readouterr().out == (
        f"dan has a new password in {db} (the old one no longer works); a player's name"
        f" ({settings} does not list it in admins): it logs in with the new password at"
        " once, at a running server too\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("danpw-3\n"))
    assert main(["admin", "dan", "--replace", "--db", str(db)]) == 0
    assert capsys.readouterr().out == (
        f"dan has a new password in {db} (the old one no longer works); it logs in with it"
        " at once, at a running server too (an admin's name must be in the server's admins"
        " as well: a server reads them when it starts)\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("bosspw2\n"))
    assert main(["admin", "boss", "--replace", "--config", str(settings)]) == 0
    assert capsys.readouterr().out.startswith(
        f"boss has a new password in {db} (the old one no longer works); {settings} lists it"
        " in admins ("
    )


def test_admin_finds_the_name_in_the_files_admins_in_any_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server takes 'Boss' for the admin its file lists as 'boss' (names compared as
    logins compare them): the command must not tell the operator to list it again."""
    db = tmp_path / "club.sqlite3"
    settings = _settings(tmp_path, db)
    monkeypatch.setattr("sys.stdin", io.StringIO("bosspw1\n"))
    assert main(["admin", "Boss", "--config", str(settings)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Boss is registered in {db}; {settings} lists it in admins (")


@pytest.mark.parametrize(
    "command", [["records", "export"], ["ladder", "table"]], ids=lambda c: " ".join(c)
)
def test_a_store_command_reads_db_from_the_file_and_db_wins_over_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    settings = str(_settings(tmp_path, tmp_path / "in-file.sqlite3"))
    assert main([*command, "--config", settings]) == 2
    assert f"no database at {tmp_path / 'in-file.sqlite3'}" in capsys.readouterr().err
    given = tmp_path / "given.sqlite3"
    assert main([*command, "--config", settings, "--db", str(given)]) == 2
    assert f"no database at {given}" in capsys.readouterr().err


def test_ladder_run_and_worker_take_the_files_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = str(_settings(tmp_path, tmp_path / "l.sqlite3"))
    # a worker's queue is PostgreSQL: the file's SQLite db is refused as --db's would be
    assert main(["ladder", "worker", "--config", settings]) == 2
    assert "--db takes a postgresql:// address" in capsys.readouterr().err
    # neither: the default file, which a worker cannot use, is named
    assert main(["ladder", "worker"]) == 2
    said = capsys.readouterr().err
    assert "--db takes a postgresql:// address (the runs' queue), not deberc.sqlite3" in said
    bots = ["--bot", "a=py:clients.random_bot", "--bot", "b=py:clients.random_bot"]
    assert main(["ladder", "run", *bots, "--config", settings, "--distributed"]) == 2
    assert "--distributed needs --db postgresql://" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["admin", "boss"], "deberc-net admin: unknown settings in"),
        (["records", "export"], "deberc-net records export: unknown settings in"),
        (["ladder", "table"], "deberc-net ladder table: unknown settings in"),
    ],
)
def test_a_bad_settings_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], said: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[server]\ndbb = 'x.sqlite3'\n", encoding="utf-8")
    assert main([*command, "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(said) and "dbb (db?)" in err and err.count("\n") == 1
    assert not (tmp_path / "x.sqlite3").exists()


def test_a_relative_db_in_the_file_is_beside_the_file_not_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A service started in another working directory (systemd's) with a file saying
    `db = "club.sqlite3"` opened a new empty database there: the operator's tryout wrote
    an account into another person's database so. The file's relative db is its own
    folder's (docs/settings.md). Failed before: the current directory's."""
    etc, elsewhere = tmp_path / "etc", tmp_path / "elsewhere"
    etc.mkdir()
    elsewhere.mkdir()
    (etc / "club.toml").write_text('[server]\ndb = "club.sqlite3"\nadmins = ["boss"]\n')
    monkeypatch.chdir(elsewhere)
    settings = "../etc/club.toml"  # given relative to the current directory, as --db is
    assert Config.from_toml(settings).db == str(etc / "club.sqlite3")
    monkeypatch.setattr("sys.stdin", io.StringIO("bosspw1\n"))
    assert main(["admin", "boss", "--config", settings]) == 0
    assert f"registered in {etc / 'club.sqlite3'};" in capsys.readouterr().out
    assert list(elsewhere.iterdir()) == []  # nothing made here
    store = open_store(str(etc / "club.sqlite3"))
    try:
        assert store.account("boss") is not None
    finally:
        store.close()


def test_a_relative_db_on_the_command_line_stays_the_current_directorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "etc").mkdir()
    settings = tmp_path / "etc" / "club.toml"
    settings.write_text('[server]\ndb = "club.sqlite3"\n')
    monkeypatch.chdir(tmp_path)
    assert Config.from_toml(settings, db="here.sqlite3").db == "here.sqlite3"
    args = build_parser().parse_args(["serve", "--config", str(settings), "--db", "here.sqlite3"])
    assert serve_config(args).db == "here.sqlite3"
    monkeypatch.setattr("sys.stdin", io.StringIO("annapw1\n"))
    assert main(["admin", "anna", "--config", str(settings), "--db", "here.sqlite3"]) == 0
    assert (tmp_path / "here.sqlite3").exists() and not (tmp_path / "etc" / "club.sqlite3").exists()


@pytest.mark.parametrize("db", ["postgresql://u@h/d", "/srv/deberc/club.sqlite3", ":memory:"])
def test_a_files_address_absolute_path_or_memory_db_stays_as_written(
    tmp_path: Path, db: str
) -> None:
    settings = tmp_path / "club.toml"
    settings.write_text(f'[server]\ndb = "{db}"\n')
    assert Config.from_toml(settings).db == db


def test_the_logs_and_admin_name_a_relative_sqlite_store_by_its_whole_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An operator's tryout: a settings file without `db`, under a service's working
    directory, put the store in that directory, and `listening` said only `"db":
    "deberc.sqlite3"`: where it was, the log did not say. Every line that names an
    SQLite store names it whole (its folder too), as a file's relative db always was.
    Failed before: `deberc.sqlite3`, `here.sqlite3` as given."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club.toml").write_text('[server]\nadmins = ["boss"]\n')
    monkeypatch.setattr("sys.stdin", io.StringIO("bosspw1\n"))
    assert main(["admin", "boss", "--config", "club.toml"]) == 0
    assert f"boss is registered in {tmp_path / 'deberc.sqlite3'};" in capsys.readouterr().out
    said: list[dict[str, Any]] = []
    proc, _ = start_server_process(Path("here.sqlite3"), said=said)
    try:
        [listening] = [e for e in said if e["event"] == "listening"]
        assert listening["db"] == str(tmp_path / "here.sqlite3")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert describe(":memory:") == ":memory:"
