"""``deberc-net backup``: a consistent copy of a live SQLite store (docs/security.md,
"Backups and upgrades").

Copying the file with ``cp`` while a server runs gives a file without what is still in
its ``-wal`` (an operator's copy had no match at all). SQLite's online backup API copies
the database as one read transaction sees it, the ``-wal`` included, while the server
goes on writing. The copy holds the password hashes: it is made readable by its owner
only (0600), under a temporary name beside OUT, and named OUT only once whole.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import urllib.parse

import attrs

from . import describe, is_postgres
from .base import StoreError, read_only_mount

# the rows a backup counts, where the database has the table (a ladder's own file has
# no ratings of people, 0.1.0's no ladder)
COUNTED = (
    ("accounts", "account", "accounts"),
    ("matches", "match", "matches"),
    ("deals", "deal", "deals"),
    ("player_ratings", "rating", "ratings"),
    ("ladder_runs", "ladder run", "ladder runs"),
)


@attrs.frozen
class Copied:
    """What a backup copied: the schema version and the rows of each COUNTED table."""

    schema: int
    rows: tuple[str, ...]  # each COUNTED table's, said: '47 matches'

    def said(self, db: str, out: str) -> str:
        counts = ", ".join(self.rows) or "no tables"
        return (
            f"copied {db} to {out} (schema {self.schema}): {counts}. It holds the password"
            " hashes: keep it as private as the database (it is 0600)"
        )


def back_up(db: str, out: str, replace: bool = False) -> Copied:
    """Copy the SQLite store ``db`` to ``out`` (0600); StoreError, one sentence saying
    what to do, if it cannot: a PostgreSQL address (pg_dump's), no database at ``db``,
    ``out`` there already (unless ``replace``), or in use, or a folder, or ``db`` itself;
    a killed server's -wal and -shm beside ``out`` are folded into it and gone first."""
    _refused(db, out, replace)
    part = _private_file_beside(out)
    try:
        copied = _copy(db, part)
        _place(part, out, replace)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise
    return copied


def _refused(db: str, out: str, replace: bool) -> None:
    if is_postgres(db):
        raise StoreError(
            f"{describe(db)} is a PostgreSQL database: back it up with PostgreSQL's pg_dump"
            " ((umask 077; pg_dump --format=custom --file OUT 'postgresql://…')), which copies"
            " it consistently while servers run; the umask keeps the dump, which holds the"
            " password hashes, from being written readable by everyone, as pg_dump writes"
            " it; this command copies an SQLite file"
        )
    if is_postgres(out):  # an operator moving his club: it said "cannot write in postgresql:"
        raise StoreError(
            f"{describe(out)} is a PostgreSQL address: the copy is an SQLite file (OUT is its"
            " path); the store moves into PostgreSQL by 'deberc-net move-store postgresql://…',"
            ' its server stopped first (docs/scaling.md, "From SQLite to PostgreSQL")'
        )
    if not os.path.isfile(db):
        raise StoreError(f"no database at {db}")
    if os.path.exists(out) and os.path.samefile(db, out):
        raise StoreError(f"{out} is the database itself: give the copy another name")
    if os.path.isdir(out):  # 'backup /var/backups/': not a file to write over
        such = os.path.join(out, os.path.basename(db))
        if os.path.exists(such) and os.path.samefile(db, such):  # its own folder (s50)
            stem, suffix = os.path.splitext(os.path.basename(db))
            such = os.path.join(out, f"{stem}-backup{suffix}")
        raise StoreError(f"{out} is a folder: OUT is the copy's file, such as {such}")
    # its -wal, which a running server writes to: a copy named so would replace the
    # server's last writes (with --replace) or be taken for a log the next open resets
    companions = {
        f"{path}{suffix}"
        for path in (os.path.abspath(db), os.path.realpath(db))
        for suffix in ("-wal", "-shm", "-journal")
    }
    if {os.path.abspath(out), os.path.realpath(out)} & companions:
        raise StoreError(f"{out} is the database's own file: give the copy another name")
    if os.path.exists(out) and not replace:
        raise StoreError(_EXISTS.format(out=out))
    for name in (f"{out}-wal", f"{out}-shm"):  # a live database's, or a killed server's
        if os.path.exists(name):
            _not_in_use(out, name)
            break


def _not_in_use(out: str, name: str) -> None:
    """``out``, a database with its ``name`` (-wal or -shm) beside it, that no program
    has open: else StoreError. Every connection to a database in WAL mode holds a shared
    lock on its file (SQLite's wal.c), so an exclusive lock is had only where none is
    open: then the files are a killed server's, whose -wal the next open of ``out``
    would read into the copy put there (a restore after a crash was refused as "in use").
    Had, they are folded into the old file as any open does (SQLite removes its -wal
    when the last connection closes) and its -shm removed: nothing of them is left."""
    if not os.path.isfile(out):
        raise StoreError(f"{name} is there without {out}: remove it, or give another name")
    uri = f"file:{urllib.parse.quote(os.path.abspath(out))}?mode=rw"
    try:
        probe = sqlite3.connect(uri, uri=True, timeout=0, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {out} to see whether it is in use: {exc}") from None
    try:
        # no shared memory: the exclusive lock is on the file itself, as wal.c's close takes it
        probe.execute("PRAGMA locking_mode=EXCLUSIVE")
        probe.execute("BEGIN EXCLUSIVE")
        probe.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise StoreError(f"cannot open {out} to see whether it is in use: {exc}") from None
        raise StoreError(
            f"{out} is in use: a server (or another program) has it open; stop it first"
            " (a restore is made with its server stopped), or give another name"
        ) from None
    except sqlite3.DatabaseError as exc:  # not a database at all
        raise StoreError(f"cannot open {out} to see whether it is in use: {exc}") from None
    finally:
        probe.close()
    with contextlib.suppress(FileNotFoundError):  # nobody's now: the next open makes it anew
        os.unlink(f"{out}-shm")


_EXISTS = "{out} exists already: --replace writes over it, or give another name"


def _private_file_beside(out: str) -> str:
    """A new empty file in ``out``'s folder, 0600 (mkstemp's), for the copy to fill."""
    folder = os.path.dirname(out) or "."
    try:
        handle, part = tempfile.mkstemp(prefix=".deberc-backup-", suffix=".part", dir=folder)
    except OSError as exc:
        raise StoreError(f"cannot write in {folder}: {exc.strerror or exc}") from None
    os.close(handle)
    return part


def _copy(db: str, part: str) -> Copied:
    """``db`` copied into ``part`` by SQLite's online backup (one read transaction: the
    server's writes meanwhile are in the next backup), and what it holds."""
    # mode=rw: never creates a database where there is none (a path gone meanwhile)
    source_uri = f"file:{urllib.parse.quote(os.path.abspath(db))}?mode=rw"
    try:
        source = sqlite3.connect(source_uri, uri=True, timeout=5.0)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the database {db}: {_why(db, exc)}") from None
    try:
        copy = sqlite3.connect(part)
        try:
            source.backup(copy)
            return _what_it_holds(copy)
        finally:
            copy.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot copy {db}: {_why(db, exc)}") from None
    finally:
        source.close()


def _why(db: str, exc: sqlite3.Error) -> str:
    """SQLite's reason, or the mount that is behind it: on a file system mounted
    read-only it said only 'unable to open database file' (a tryout, s50)."""
    folder = os.path.dirname(os.path.abspath(db))
    if not read_only_mount(folder):
        return str(exc)
    return (
        f"its folder {folder} is on a file system mounted read-only here, and SQLite"
        " writes the database's -shm beside it even to read it: back it up where that"
        " folder may be written (beside its server), or from a copy on a writable file"
        " system"
    )


def _what_it_holds(copy: sqlite3.Connection) -> Copied:
    tables = {name for (name,) in copy.execute("SELECT name FROM sqlite_master")}
    rows = []
    for table, one, many in COUNTED:
        if table in tables:
            (n,) = copy.execute(f"SELECT count(*) FROM {table}").fetchone()
            rows.append(f"{n:,} {one if n == 1 else many}")
    schema = 0  # 0.1.0's file: its schema before versions were numbered
    if "schema_migrations" in tables:
        (schema,) = copy.execute("SELECT max(number) FROM schema_migrations").fetchone()
    return Copied(int(schema or 0), tuple(rows))


def _place(part: str, out: str, replace: bool) -> None:
    """Name the whole copy ``out``: over an older one if ``replace``, else only where
    there is none still (a link fails on a file made meanwhile)."""
    try:
        if replace:
            os.replace(part, out)
            return
        os.link(part, out)
    except FileExistsError:
        raise StoreError(_EXISTS.format(out=out)) from None
    except OSError as exc:  # a folder named OUT, a file system without links: a sentence
        raise StoreError(f"cannot write {out}: {exc.strerror or exc}") from None
    os.unlink(part)
