"""`deberc-net backup` (docs/security.md, "Backups and upgrades"): a consistent copy of a
live SQLite store, 0600, never over a file unless told, and PostgreSQL sent to pg_dump.
An operator's `cp` of a live file had no match at all: it was all in the -wal."""

from __future__ import annotations

import signal
import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest

from deberc_net.cli import main
from deberc_net.server.store import open_store
from deberc_net.server.store.migrations import MIGRATIONS
from tests.server.process import read_until, start_server_process

from .records import finish, opened


def _a_match_ended_by_a_forfeit(port: int) -> str:
    """ann opens a table, bob sits, ann leaves: the match's id, ended (stored before its
    end is told, docs/protocol.md §5.2)."""
    with (
        socket.create_connection(("127.0.0.1", port), timeout=30) as ann,
        socket.create_connection(("127.0.0.1", port), timeout=30) as bob,
    ):
        ann.sendall(b"style machine\nlogin ann\nnew 2\n")
        table = read_until(ann, b"cmd=sit").split(b"table=")[1].split()[0]
        bob.sendall(b"style machine\nlogin bob\nsit " + table + b"\n")
        read_until(bob, b"kind=start")
        ann.sendall(b"leave\n")
        told = read_until(bob, b"kind=match-end")
        while b"\n" not in told.split(b"kind=match-end")[1]:  # the line whole
            told += bob.recv(65536)
    end = told.split(b"kind=match-end")[1].split(b"\n")[0]
    return end.split(b"match=")[1].split()[0].decode()


def _stop(proc: object) -> None:
    import subprocess

    assert isinstance(proc, subprocess.Popen)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_a_backup_taken_while_a_server_runs_holds_its_match_and_serves_it_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: no such command (and `cp` of the live file, the operator's way,
    gave a database without the match)."""
    db, out = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    proc, port = start_server_process(db, "shutdown_grace_ms = 100")
    try:
        match = _a_match_ended_by_a_forfeit(port)
        assert main(["backup", "--db", str(db), str(out)]) == 0  # the server still runs
    finally:
        _stop(proc)
    said = capsys.readouterr().out
    assert said.startswith(f"copied {db} to {out} (schema ") and "1 match, " in said
    assert "password hashes" in said
    assert out.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".deberc-backup-")] == []
    # restoring is pointing --db at the copy: a server on it lists the match
    proc, port = start_server_process(out, "shutdown_grace_ms = 100")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as carl:
            carl.sendall(b"style machine\nlogin carl\ngames ann\n")
            listed = read_until(carl, f"match={match} ".encode())
        assert f"match={match} ".encode() in listed and b"reason=left" in listed
    finally:
        _stop(proc)


def _a_store_with_a_match(path: Path) -> None:
    store = open_store(path)
    try:
        store.add_account("ann", b"salt", b"hash")
        finish(store, "m1", ["ann", "bob"], winner="ann")
    finally:
        store.close()


def test_a_backup_never_writes_over_a_file_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, out = tmp_path / "db.sqlite3", tmp_path / "copy.sqlite3"
    _a_store_with_a_match(db)
    out.write_text("last week's\n")
    assert main(["backup", "--db", str(db), str(out)]) == 2
    assert capsys.readouterr().err == (
        f"deberc-net backup: {out} exists already: --replace writes over it, or give another name\n"
    )
    assert out.read_text() == "last week's\n"
    assert main(["backup", "--db", str(db), str(out), "--replace"]) == 0
    assert "1 account, 1 match, 0 deals" in capsys.readouterr().out
    with sqlite3.connect(out) as copy:
        assert copy.execute("SELECT id FROM matches").fetchall() == [("m1",)]
    copy.close()


def test_a_backup_refuses_the_database_itself_and_a_file_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, live = tmp_path / "db.sqlite3", tmp_path / "live.sqlite3"
    _a_store_with_a_match(db)
    assert main(["backup", "--db", str(db), str(db), "--replace"]) == 2
    assert "is the database itself" in capsys.readouterr().err
    proc, port = start_server_process(live, "shutdown_grace_ms = 100")
    try:
        match = _a_match_ended_by_a_forfeit(port)
        assert main(["backup", "--db", str(db), str(live), "--replace"]) == 2
    finally:
        _stop(proc)
    assert capsys.readouterr().err == (
        f"deberc-net backup: {live} is in use: a server (or another program) has it open;"
        " stop it first (a restore is made with its server stopped), or give another name\n"
    )
    with sqlite3.connect(live) as kept:
        assert kept.execute("SELECT id FROM matches").fetchall() == [(match,)]
    kept.close()


@pytest.mark.timeout(60)
def test_a_restore_over_a_killed_servers_database_leaves_nothing_of_its_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server killed outright (SIGKILL, the OOM killer, a power cut) leaves its -wal
    and -shm beside the file; restoring the backup over it, as docs/security.md says,
    was refused: "is in use (…-wal is there): give another name", with no server
    running. The copy restored is the backup's: the killed server's log is not read
    into it."""
    db, out = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    proc, port = start_server_process(db, "shutdown_grace_ms = 100")
    try:
        before = _a_match_ended_by_a_forfeit(port)
        assert main(["backup", "--db", str(db), str(out)]) == 0
        after = _a_match_ended_by_a_forfeit(port)
    finally:
        proc.kill()
        proc.wait(timeout=20)
    assert (tmp_path / "live.sqlite3-wal").exists()  # as the killed server left it
    capsys.readouterr()
    assert main(["backup", "--db", str(out), str(db), "--replace"]) == 0
    assert capsys.readouterr().out.startswith(f"copied {out} to {db} (schema ")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("live.sqlite3-")]
    proc, port = start_server_process(db, "shutdown_grace_ms = 100")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as carl:
            carl.sendall(b"style machine\nlogin carl\ngames ann\n")
            listed = read_until(carl, f"match={before} ".encode())
            while b"\n" not in listed.split(f"match={before} ".encode())[1]:  # the line whole
                listed += carl.recv(65536)
    finally:
        _stop(proc)
    assert b"games name=ann count=1\r\n" in listed and f"match={after} ".encode() not in listed


def test_a_log_without_its_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, out = tmp_path / "db.sqlite3", tmp_path / "gone.sqlite3"
    _a_store_with_a_match(db)
    (tmp_path / "gone.sqlite3-wal").write_bytes(b"")  # the next open would read it
    assert main(["backup", "--db", str(db), str(out)]) == 2
    assert capsys.readouterr().err == (
        f"deberc-net backup: {out}-wal is there without {out}: remove it, or give another name\n"
    )
    assert not out.exists()


def test_a_backup_refuses_the_databases_own_files_and_says_why_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # named as the database's -wal (a running server's log, --replace would write over
    # it), it was written; a folder named OUT with --replace gave a traceback
    db = tmp_path / "db.sqlite3"
    _a_store_with_a_match(db)
    for own in ("db.sqlite3-wal", "db.sqlite3-shm", "db.sqlite3-journal"):
        assert main(["backup", "--db", str(db), str(tmp_path / own), "--replace"]) == 2, own
        assert "is the database's own file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.sqlite3"]


@pytest.mark.parametrize("replace", [[], ["--replace"]], ids=["plain", "replace"])
@pytest.mark.parametrize("slash", ["", "/"], ids=["folder", "folder/"])
def test_a_backup_into_a_folder_says_to_name_the_copys_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], replace: list[str], slash: str
) -> None:
    # an operator's 'backup /var/backups/' was told the folder 'exists already:
    # --replace writes over it', and with --replace 'cannot write …: Not a directory'
    db, folder = tmp_path / "db.sqlite3", tmp_path / "backups"
    _a_store_with_a_match(db)
    folder.mkdir()
    out = f"{folder}{slash}"
    assert main(["backup", "--db", str(db), out, *replace]) == 2
    assert capsys.readouterr().err == (
        f"deberc-net backup: {out} is a folder: OUT is the copy's file, such as"
        f" {folder / 'db.sqlite3'}\n"
    )
    assert list(folder.iterdir()) == []


def test_a_backup_into_the_databases_own_folder_names_a_copy_that_is_not_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tryout (s50) typed 'backup /dev/shm/club/' beside its club.sqlite3 and was told
    to give OUT 'such as /dev/shm/club/club.sqlite3': the database itself."""
    db = tmp_path / "club.sqlite3"
    _a_store_with_a_match(db)
    out = f"{tmp_path}/"
    assert main(["backup", "--db", str(db), out]) == 2
    assert capsys.readouterr().err == (
        f"deberc-net backup: {out} is a folder: OUT is the copy's file, such as"
        f" {tmp_path / 'club-backup.sqlite3'}\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.sqlite3"]


def test_a_database_on_a_read_only_file_system_is_said_so_by_backup(
    small_mount: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tryout (s50) backed up a database on a file system mounted read-only (a
    snapshot, a unit's ReadOnlyPaths=) and was told only SQLite's `cannot copy …: unable
    to open database file`: SQLite must make the -shm beside the file even to read it."""
    db = small_mount / "club.sqlite3"
    _a_store_with_a_match(db)
    subprocess.run(["mount", "-o", "remount,ro", str(small_mount)], check=True)
    out = tmp_path / "copy.sqlite3"
    assert main(["backup", "--db", str(db), str(out)]) == 2
    assert capsys.readouterr().err == (
        f"deberc-net backup: cannot copy {db}: its folder {small_mount} is on a file"
        " system mounted read-only here, and SQLite writes the database's -shm beside it"
        " even to read it: back it up where that folder may be written (beside its"
        " server), or from a copy on a writable file system\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro"]


def test_a_backup_by_the_new_code_keeps_the_old_schema_of_file_and_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/security.md, "Upgrading": the backup taken first, with the new deberc-net
    installed already, is the way back only if neither the database nor the copy is
    migrated by it; restored by the same command, the copy keeps that schema too."""
    db, out, back = tmp_path / "db.sqlite3", tmp_path / "before.sqlite3", tmp_path / "r.sqlite3"
    older = len(MIGRATIONS) - 1
    opened(str(db), migrations=MIGRATIONS[:older]).close()
    assert main(["backup", "--db", str(db), str(out)]) == 0
    assert f"(schema {older})" in capsys.readouterr().out
    assert main(["backup", "--db", str(out), str(back)]) == 0
    for path in (db, out, back):
        with sqlite3.connect(path) as copy:
            assert copy.execute("SELECT max(number) FROM schema_migrations").fetchone() == (
                older,
            ), path
        copy.close()


def test_a_backup_of_no_database_makes_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "nothing.sqlite3"
    assert main(["backup", "--db", str(db), str(tmp_path / "copy.sqlite3")]) == 2
    assert capsys.readouterr().err == f"deberc-net backup: no database at {db}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_postgresql_store_is_sent_to_pg_dump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql://deberc:secret@db.example/deberc"
    assert main(["backup", "--db", url, str(tmp_path / "copy")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deberc-net backup: postgresql://deberc:***@db.example/deberc is a")
    assert "pg_dump" in err and "secret" not in err
    # the dump holds the hashes: the command said to write it as the umask has it (0644)
    assert "(umask 077; pg_dump --format=custom --file OUT 'postgresql://…')" in err
    assert list(tmp_path.iterdir()) == []


def test_a_postgresql_address_as_the_copy_is_refused_pointing_to_the_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An operator moving his club to PostgreSQL tried `backup postgresql://…` and was
    told "cannot write in postgresql://deberc@127.0.0.1:5433: No such file or directory"."""
    db = tmp_path / "db.sqlite3"
    _a_store_with_a_match(db)
    url = "postgresql://deberc:secret@127.0.0.1:5433/deberc"
    assert main(["backup", "--db", str(db), url]) == 2
    err = capsys.readouterr().err
    assert err == (
        "deberc-net backup: postgresql://deberc:***@127.0.0.1:5433/deberc is a PostgreSQL"
        " address: the copy is an SQLite file (OUT is its path); the store moves into"
        " PostgreSQL by 'deberc-net move-store postgresql://…', its server stopped first"
        ' (docs/scaling.md, "From SQLite to PostgreSQL")\n'
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.sqlite3"]
