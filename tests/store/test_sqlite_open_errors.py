"""An SQLite store that opens but then fails says the real cause in its one sentence:
another program's lock as such, a migration's failure as that (its traceback in the
log), never a bare "cannot open the database"."""

from __future__ import annotations

import contextlib
import os
import pwd
import sqlite3
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest
import structlog

from deberc_net.server.store import StoreError
from deberc_net.server.store.migrations import MIGRATIONS, Migration
from deberc_net.server.store.sqlite import SQLiteStore

# where another user may reach a folder made for him: /tmp (sticky, open to all), not
# pytest's folder nor make test's TMPDIR (mktemp -d: 0700, root's), closed to others
OPEN_TO_ALL = "/tmp"


def test_a_migration_that_fails_is_said_as_such_with_its_traceback_in_the_log(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.sqlite3"
    broken = Migration(len(MIGRATIONS) + 1, "a broken one", "CREATE TABLE broken (", "")
    with structlog.testing.capture_logs() as logs, pytest.raises(StoreError) as refused:
        SQLiteStore(db, migrations=[*MIGRATIONS, broken])
    said = str(refused.value)
    assert said.startswith(f"the database {db} opened, but bringing it up to date"), said
    assert said.endswith('failed: near ";": syntax error (the log has the details)'), said
    [logged] = [e for e in logs if e["event"] == "store_open_failed"]
    assert isinstance(logged["exc_info"], sqlite3.OperationalError)


def test_a_database_another_program_holds_is_said_to_be_locked(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    SQLiteStore(db).close()  # made and migrated: the next open reads, then writes its row
    held = sqlite3.connect(db, isolation_level=None)
    held.execute("BEGIN IMMEDIATE")  # a writer's lock: readers (WAL) go on
    try:
        with pytest.raises(StoreError) as refused:
            SQLiteStore(db, serving=True, busy_timeout_s=0.05)
    finally:
        held.close()
    said = str(refused.value)
    assert said.startswith(f"the database {db} is locked by another program"), said
    assert said.endswith("while writing this server's row: try again once it is done"), said


def test_switching_a_new_file_to_wal_waits_as_long_as_busy_timeout_s_says(
    tmp_path: Path,
) -> None:
    """A new file another program holds (its writer's lock): the switch to write-ahead
    logging is tried again for busy_timeout_s, not on a fixed schedule of its own (it
    gave up after 1.9 s whatever the setting, and waited 20 busy timeouts behind an
    exclusive lock: 100 s at the default 5 s)."""
    db = tmp_path / "s.sqlite3"
    held = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    held.execute("CREATE TABLE x (a)")  # a file not yet in WAL mode
    held.execute("BEGIN IMMEDIATE")
    held.execute("INSERT INTO x VALUES (1)")
    letting_go = threading.Timer(2.5, held.rollback)  # past the old 1.9 s, within 10 s
    letting_go.start()
    try:
        SQLiteStore(db, busy_timeout_s=10.0).close()  # it waited, and opened
    finally:
        letting_go.join()
    held.close()
    other = tmp_path / "other.sqlite3"
    held = sqlite3.connect(other, isolation_level=None)
    held.execute("CREATE TABLE x (a)")
    held.execute("BEGIN EXCLUSIVE")  # not even a reader passes: each try waits the timeout
    try:
        with pytest.raises(StoreError) as refused:
            SQLiteStore(other, busy_timeout_s=0.2)
    finally:
        held.close()
    waited = float(str(refused.value).split("still after ")[1].split(" s ")[0])
    assert waited < 2.0, refused.value  # about 0.2 s; it was 20 tries of 0.2 s and more


def _opened_as_another_user(db: Path) -> str:
    """What opening ``db`` says to a server run as a user who may not write it: as
    root, a child process that became 'nobody'; as anyone else, the file made 0400."""
    if os.geteuid() != 0:
        db.chmod(0o400)
        try:
            SQLiteStore(db, serving=True)
        except StoreError as exc:
            return str(exc)
        return "opened"
    return _opened_as_nobody(db)


def _opened_as_nobody(db: Path) -> str:
    """What opening ``db`` says to a child process of root's that became 'nobody'."""
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # (the child: no pytest past this point, only its answer)
        said = "opened"
        try:
            nobody = pwd.getpwnam("nobody")
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            SQLiteStore(db, serving=True)
        except StoreError as exc:
            said = str(exc)
        except BaseException as exc:  # (said to the parent, not raised in the child)
            said = f"failed: {exc!r}"
        os.write(writing, said.encode())
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as answer:
        said = answer.read().decode()
    os.waitpid(child, 0)
    return said


def test_a_database_the_servers_user_may_not_write_says_whose_it_is_and_what_to_do(
    tmp_path: Path,
) -> None:
    """A store made by root ('deberc-net admin' run as root: 0600, root's) and served by
    another user said only `cannot open the database …: unable to open database file`
    (or, readable, `writing this server's row failed: attempt to write a readonly
    database`): it names the server's user, the file's owner and mode, and the fix."""
    with tempfile.TemporaryDirectory(dir=OPEN_TO_ALL) as folder:
        os.chmod(folder, 0o777)  # (the folder is not what is tested)
        _not_the_servers_users(Path(folder) / "club.sqlite3")
    if os.geteuid() == 0:  # a folder on the way closed to the server's user
        said = _opened_as_another_user(tmp_path / "new.sqlite3")
        assert said == (
            f"cannot open the database {tmp_path / 'new.sqlite3'}: this server runs as nobody,"
            f" who may not reach its folder {tmp_path} (a folder on the way is closed to"
            " nobody): open it to nobody, or give a path in a folder of its own"
        )


def _not_the_servers_users(db: Path) -> None:
    SQLiteStore(db).close()
    user = pwd.getpwuid(os.geteuid()).pw_name if os.geteuid() != 0 else "nobody"
    owner = pwd.getpwuid(os.stat(db).st_uid).pw_name
    said = _opened_as_another_user(db)
    mode = f"{os.stat(db).st_mode & 0o777:04o}"
    assert said == (
        f"cannot open the database {db}: this server runs as {user}, who may not read and"
        f" write {db} ({owner}'s, mode {mode}): chown it to {user}, or run the server as"
        " its owner (a file that 'deberc-net admin' run as root made is root's)"
    )
    if os.geteuid() == 0:  # readable by all, writable by root only: the readonly case
        db.chmod(0o644)
        said = _opened_as_another_user(db)
        assert said.startswith(f"cannot write the database {db}: this server runs as nobody")
        assert f"({owner}'s, mode 0644): chown it to nobody" in said


def test_a_full_disk_as_the_store_opens_is_said_as_such_with_no_traceback(
    tmp_path: Path,
) -> None:
    """A migration (or the server's row) that finds the disk full is no bug: one
    sentence says so and what to do, no `store_open_failed` traceback in the log (it
    said `… failed: database or disk is full (the log has the details)`, its traceback
    an error line, to an operator's `admin` on a full disk)."""
    db = tmp_path / "s.sqlite3"
    filling = Migration(
        len(MIGRATIONS) + 1,
        "a disk that fills",  # SQLite's page limit, for real: its 'database or disk is full'
        "PRAGMA max_page_count = 1; CREATE TABLE filler (x);"
        " INSERT INTO filler VALUES (zeroblob(1000000));",
        "",
    )
    with structlog.testing.capture_logs() as logs, pytest.raises(StoreError) as refused:
        SQLiteStore(db, migrations=[*MIGRATIONS, filling])
    assert str(refused.value) == (
        f"the database {db} opened, but bringing it up to date (its migrations) failed: its"
        " disk is full (or its quota): make room, then start again (what was written"
        " before stays whole)"
    )
    assert [e for e in logs if e["log_level"] == "error"] == []


def test_a_full_disk_before_the_store_opens_is_said_as_such_not_as_an_io_error(
    small_mount: Path,
) -> None:
    """A tryout's operator (s50) started a server on a database whose disk had filled
    while it was stopped: `cannot open the database …: disk I/O error` (SQLite's, for
    the -shm it could not make), which reads as a failing disk; a new database there
    was told SQLite's `database or disk is full` with no remedy. Both say the disk."""
    db, new = small_mount / "club.sqlite3", small_mount / "new.sqlite3"
    SQLiteStore(db).close()
    with open(small_mount / "filler", "wb") as filler, contextlib.suppress(OSError):
        while True:  # till the file system refuses (ENOSPC)
            filler.write(b"\0" * 65536)
            filler.flush()
    for path in (db, new):
        with pytest.raises(StoreError) as refused:
            SQLiteStore(path, serving=True)
        assert str(refused.value) == (
            f"cannot open the database {path}: its disk is full (or its quota): make room,"
            " then start again"
        )


def test_a_database_on_a_read_only_file_system_is_said_so_not_as_its_owners(
    small_mount: Path,
) -> None:
    """A server whose database is on a file system mounted read-only (a systemd unit's
    ProtectSystem=strict without ReadWritePaths= for its folder) was told `this server
    runs as root, who may not read and write … (root's, mode 0600): chown it to root`
    (tried on a tmpfs remounted read-only): the file its own, the mode right, the
    remedy none. It says the mount."""
    db = small_mount / "club.sqlite3"
    SQLiteStore(db).close()
    subprocess.run(["mount", "-o", "remount,ro", str(small_mount)], check=True)
    with pytest.raises(StoreError) as refused:
        SQLiteStore(db, serving=True)
    said = str(refused.value)
    assert said == (
        f"cannot open the database {db}: its folder {small_mount} is on a file system"
        " mounted read-only here (a systemd unit's ProtectSystem=strict or ReadOnlyPaths="
        " mounts it so for the server, unless its ReadWritePaths= names the folder): let"
        " the server write there, or give a path on a writable file system"
    ), said


def test_a_symlinked_databases_wal_folder_is_the_one_its_link_leads_to(tmp_path: Path) -> None:
    """SQLite makes a symlinked file's -wal and -shm beside the file the link leads to
    (/etc/deberc/club.sqlite3 -> /var/lib/deberc/club.sqlite3: in /var/lib/deberc), and
    that is the folder its server's user must write; the link's own folder was looked
    at, and a server that could not write the file's said only `unable to open database
    file`."""
    with tempfile.TemporaryDirectory(dir=OPEN_TO_ALL) as top:
        os.chmod(top, 0o777)
        links, files = Path(top) / "etc", Path(top) / "var"
        links.mkdir(mode=0o777)
        files.mkdir()
        links.chmod(0o777)  # (the link's folder anyone may write: not the one SQLite uses)
        db = files / "club.sqlite3"
        SQLiteStore(db).close()
        (links / "club.sqlite3").symlink_to(db)
        if os.geteuid() == 0:  # the file nobody's, its folder root's (0755)
            nobody = pwd.getpwnam("nobody")
            os.chown(db, nobody.pw_uid, nobody.pw_gid)
            user, said = "nobody", _opened_as_nobody(links / "club.sqlite3")
        else:  # the file ours, its folder closed to writing
            files.chmod(0o555)
            user = pwd.getpwuid(os.geteuid()).pw_name
            try:
                SQLiteStore(links / "club.sqlite3", serving=True)
                said = "opened"
            except StoreError as exc:
                said = str(exc)
            finally:
                files.chmod(0o755)
        mode = f"{os.stat(files).st_mode & 0o777:04o}"
        owner = pwd.getpwuid(os.stat(files).st_uid).pw_name
        assert said == (
            f"cannot open the database {links / 'club.sqlite3'}: this server runs as {user},"
            f" who may not make files in {files} ({owner}'s, mode {mode}), where SQLite keeps"
            f" the database's -wal and -shm: chown the folder to {user}, or give a path in a"
            " folder of its own"
        ), said
