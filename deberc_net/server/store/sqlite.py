"""The SQLite store: the embedded default, one file, nothing to install.

Plain ``sqlite3`` calls, one at a time (a lock), each write its own transaction, or a
savepoint (a match's later deal: its one statement) of the transaction of a ``group`` of
writes (the store writer's: fewer transactions, so fewer waits for another process's
write lock). The file is created readable by its owner only (SQLite gives its -wal and
-shm files the same mode).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import socket
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import structlog

from .base import (
    ADD_ACCOUNT,
    ADDRESS_BAN,
    ADDRESS_BANS,
    ADDRESS_BANS_RUN_OUT,
    ADDRESS_UNBAN,
    BAN,
    BAN_OF,
    BANS,
    BOARD_RESULTS,
    BOARD_UNLESS_LISTED,
    CUT_OFF_TOLD,
    CUT_OFF_TOLD_KEPT_S,
    CUT_OFF_UNTOLD,
    CUT_OFFS_TOLD_OLD,
    DEAD_AFTER_S,
    DEALT,
    FORGET_ACCOUNT,
    IGNORE,
    IGNORED_BY,
    KEPT_BOARD,
    LAST_DEAL,
    LAST_DEAL_ROW,
    LAST_MATCH_AT,
    LIST_STOPPED,
    LISTED,
    LOOKS_LIKE,
    MATCH_IDS,
    MATCH_INTO,
    MATCH_RECORDS,
    MATCHES_RECORDS,
    MUTE,
    MUTES,
    MUTES_RUN_OUT,
    MUTES_WITH_LIFTS,
    OLD_STOP_FINISHED,
    OLD_STOPS,
    ORPHANED,
    OWN_RUNNING,
    PLAYER_RATINGS,
    PLAYERS_FOLLOW,
    PLAYERS_HEAL,
    PLAYS_ON,
    RANK,
    RATED_COUNTS,
    RATING_HISTORY,
    RATING_HISTORY_LAST,
    RATINGS_FOR,
    RECENT_GAMES,
    RELEASED_RECORDS,
    RUNNING_NOW,
    SAVE_HISTORY,
    SAVE_RATING,
    SERVER_LOST,
    SHUTDOWN,
    SQLITE_BEFORE,
    SQLITE_NUMBER,
    STANDINGS,
    STANDINGS_PAGE,
    UNBOARD_RUNNING,
    UNIGNORE,
    UNMUTE,
    AddressBan,
    Arrival,
    Ban,
    PlayerRating,
    RatingPoint,
    RatingResult,
    StoredMute,
    StoreError,
    address_ban_row,
    ban_row,
    board_finishes,
    board_result,
    by_match,
    covering,
    finished_match_row,
    game_row,
    highest_match_number,
    in_number_order,
    keeps_result,
    late_by,
    latin_look,
    look_alike,
    lost_match_row,
    match_row,
    mute_row,
    name_key,
    old_stop_number,
    player_rating,
    player_rows,
    public_match,
    rating_point,
    rating_rows,
    read_only_mount,
    released,
    withheld,
)
from .gone import ProcessStart, process_start, server_gone, tell_ended_at_start
from .migrations import MIGRATIONS, SQLITE_VERSIONS, Migrated, Migration, pending


def make_private(path: str) -> None:
    """Create a database file that does not exist yet readable by its owner only (0600),
    before SQLite makes it by the umask: it holds the accounts (docs/security.md)."""
    if path != ":memory:" and not os.path.exists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def keep_private(path: str) -> None:
    """An existing database file (and its -wal and -shm) that others may read, made so
    by older code (0.1.0 left the umask's 0644), made its owner's only as a new one is
    (docs/security.md §5); one another user owns, or a read-only disk's, left as it is:
    not ours to change. Nor anything but a file: ``--db`` given a folder by mistake is
    refused (cannot_open), its mode as it was."""
    if path == ":memory:":
        return
    for name in (path, f"{path}-wal", f"{path}-shm"):
        try:
            found = os.stat(name)
        except OSError:  # (none: SQLite makes -wal and -shm with the file's mode)
            continue
        mode = stat.S_IMODE(found.st_mode)
        if not stat.S_ISREG(found.st_mode) or found.st_uid != os.geteuid() or not mode & 0o077:
            continue
        with contextlib.suppress(OSError):
            os.chmod(name, mode & ~0o077)
            # (info: a fix made, nothing left to do; a server logs it, a one-shot command not)
            log.info("store_made_private", file=os.path.abspath(name), was=f"{mode:04o}")


log = structlog.get_logger("deberc.store")
NOW = "datetime('now')"  # (a ban's time, as its column's default)
SINCE = "since"  # (stored as 'YYYY-MM-DD HH:MM:SS', UTC, already)
BUSY_TIMEOUT_S = 5.0  # how long a statement waits for another program's lock


def cannot_use(path: str, exc: sqlite3.DatabaseError, step: str, waited_s: float) -> StoreError:
    """One sentence for a database file that opened but failed at ``step`` (its first
    read, its migrations, the server's row): another program's lock said as such, and
    anything unforeseen (a migration's bug) with its traceback in the log."""
    if "locked" in str(exc):  # 'database is locked', 'database table is locked'
        return StoreError(
            f"the database {path} is locked by another program (a server on it, an sqlite3"
            f" shell?), still after {waited_s:.1f} s while {step}: try again once it is done"
        )
    if step == READING:  # not a database, a disk that fails: said as any open's failure
        return cannot_open(path, exc)
    if "disk is full" in str(exc):  # no bug: no traceback in the log, the remedy said
        return StoreError(
            f"the database {path} opened, but {step} failed: its disk is full (or its"
            " quota): make room, then start again (what was written before stays whole)"
        )
    if "readonly" in str(exc) and (denied := not_allowed(path)) is not None:
        return StoreError(f"cannot write the database {path}: {denied}")
    log.error("store_open_failed", db=path, step=step, exc_info=exc)
    return StoreError(
        f"the database {path} opened, but {step} failed: {exc} (the log has the details)"
    )


READING = "reading it"


def cannot_open(path: str, exc: OSError | sqlite3.Error) -> StoreError:
    """One sentence for a database file that cannot be opened: what is wrong with it and
    what to do (not the system's errno text)."""
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        why = f"{path} is a folder, not a database file: give a file's path"
    elif _closed(folder):  # (isdir is False for a folder it may not reach: not "no folder")
        user = _user_name(os.geteuid())
        why = (
            f"cannot open the database {path}: this server runs as {user}, who may not reach"
            f" its folder {folder} (a folder on the way is closed to {user}): open it to"
            f" {user}, or give a path in a folder of its own"
        )
    elif not os.path.isdir(folder):
        why = (
            f"cannot create the database {path}: there is no folder {folder}; create it"
            " first, or give another path"
        )
    elif isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
        why = f"{path} is not an SQLite database (left as it is): give another file"
    elif _full(folder, exc):
        why = (
            f"cannot open the database {path}: its disk is full (or its quota): make room,"
            " then start again"
        )
    elif (denied := not_allowed(path)) is not None:
        why = f"cannot open the database {path}: {denied}"
    else:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        why = f"cannot open the database {path}: {reason}"
    return StoreError(why)


def not_allowed(path: str) -> str | None:
    """Why this process's user may not use the database at ``path`` (read and write it,
    its -wal and -shm, and make them in its folder), with whose it is and what to do; or
    None. SQLite said only 'unable to open database file' to a server run as another user
    than the one whose 'deberc-net admin' (as root) had made the file."""
    user = _user_name(os.geteuid())
    # a symlink's file: SQLite makes its -wal and -shm beside the file it leads to, in
    # that folder (the link's was looked at, and its user left unsaid)
    path = os.path.realpath(path) if os.path.islink(path) else path
    folder = os.path.dirname(path) or "."
    if read_only_mount(folder):  # no user may write there: no owner or mode is the cause
        return (
            f"its folder {folder} is on a file system mounted read-only here (a systemd"
            " unit's ProtectSystem=strict or ReadOnlyPaths= mounts it so for the server,"
            " unless its ReadWritePaths= names the folder): let the server write there, or"
            " give a path on a writable file system"
        )
    for name in (path, f"{path}-wal", f"{path}-shm"):
        if os.path.exists(name) and not os.access(name, os.R_OK | os.W_OK):
            return (
                f"this server runs as {user}, who may not read and write {name} ({_whose(name)}):"
                f" chown it to {user}, or run the server as its owner (a file that"
                " 'deberc-net admin' run as root made is root's)"
            )
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"this server runs as {user}, who may not make files in {folder} ({_whose(folder)}),"
            f" where SQLite keeps the database's -wal and -shm: chown the folder to {user},"
            " or give a path in a folder of its own"
        )
    return None


# less free than this and SQLite's 'disk I/O error' at an open is the disk full: its
# -shm alone takes 32 KiB, the -wal a page and more
FULL_BELOW = 1 << 20


def _full(folder: str, exc: OSError | sqlite3.Error) -> bool:
    """Whether an open failed for a full disk: SQLite says so as it writes a page, but
    'disk I/O error' when it cannot make the -shm a database in WAL mode needs even to
    read it, which a tryout's operator (s50) was told with a full disk at the start."""
    if "disk is full" in str(exc):
        return True
    if "disk I/O error" not in str(exc):
        return False
    try:
        room = os.statvfs(folder)
    except OSError:
        return False
    return room.f_bavail * room.f_frsize < FULL_BELOW


def _closed(folder: str) -> bool:
    """Whether ``folder`` is out of this process's reach (a folder above it closed)."""
    try:
        os.stat(folder)
    except PermissionError:
        return True
    except OSError:
        return False
    return False


def _whose(name: str) -> str:
    st = os.stat(name)
    return f"{_user_name(st.st_uid)}'s, mode {stat.S_IMODE(st.st_mode):04o}"


def _user_name(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # (a uid with no name: a container's)
        return f"uid {uid}"


class SQLiteStore:
    def __init__(
        self,
        path: str | Path,
        *,
        serving: bool = False,
        migrations: Sequence[Migration] = MIGRATIONS,
        dead_after_s: float = DEAD_AFTER_S,
        busy_timeout_s: float = BUSY_TIMEOUT_S,
        plain: bool = True,
    ) -> None:
        """``serving``: opened by a server, which gets its row in ``servers`` (``plain``:
        a server without a bus, as any on SQLite, its row says: docs/scaling.md); the
        matches of servers that died (silent for ``dead_after_s``), or of a run before
        servers had rows, are over (their records, seedless, become exportable).
        ``busy_timeout_s``: how long a statement waits for another program's lock."""
        self.path = str(path)
        try:
            make_private(self.path)
            self._db = sqlite3.connect(
                self.path, timeout=busy_timeout_s, check_same_thread=False, isolation_level=None
            )
        except (OSError, sqlite3.Error) as exc:
            raise cannot_open(self.path, exc) from None
        self._lock = threading.RLock()  # (re-entered: a group's writes and reads)
        self._group_thread: int | None = None  # the thread inside ``group``, if any
        # the error of a write in the group that rolled its whole transaction back
        # (SQLite does, for a full disk or an I/O error): the group's failure, said
        self._group_lost: BaseException | None = None
        self._busy_waits = True  # SQLite's busy timeout on (sqlite3.connect set it)
        self._busy_timeout_s = busy_timeout_s
        self._busy_timeout_ms = int(busy_timeout_s * 1000)  # (as sqlite3.connect sets it)
        self.server_id: int | None = None
        self._plain = plain
        self._above_stored: set[str] = set()  # the counters moved (ABOVE_STORED) so far
        step, start = READING, time.monotonic()
        try:
            with self._lock:
                # the first read: a file that is no database fails here, its mode as
                # it was (bad input changes nothing); a database is made private
                _use_wal(self._db, busy_timeout_s)
                keep_private(self.path)
                self._db.execute("PRAGMA synchronous=NORMAL")
                step = "bringing it up to date (its migrations)"
                migrated = migrate(self._db, migrations)
            if migrated is not None:
                migrated.tell(os.path.abspath(self.path))  # (its whole path, as `listening`)
            if serving:
                step = "writing this server's row"
                self._register(dead_after_s)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise cannot_use(self.path, exc, step, time.monotonic() - start) from exc
        except BaseException:
            self._db.close()
            raise

    @property
    def connection(self) -> sqlite3.Connection:
        """The store's own SQLite connection, for what a caller sets on it besides (a
        PRAGMA, a trace callback: the tests' full disk is ``max_page_count``); used
        outside the store's lock, at the caller's risk."""
        return self._db

    def _begin(self) -> None:
        """Begin a write transaction holding the write lock (``BEGIN IMMEDIATE``). While
        another process holds it (the other part of 'ladder run --processes' writing a
        deal), tried again after short pauses (WRITE_RETRY_S …) rather than in SQLite's
        busy handler, whose 1, 2, 5, 10 … ms sleeps outlast such a write many times
        (docs/performance.md); for busy_timeout_s in all, as a statement waits, then
        SQLite's own error ('database is locked'). Under ``self._lock``."""
        if self._busy_waits:  # (SQLITE_BUSY at once: ours to wait; left so for the next)
            self._db.execute("PRAGMA busy_timeout = 0")
            self._busy_waits = False
        _while_locked(
            self._db, "BEGIN IMMEDIATE", self._busy_timeout_s, WRITE_RETRY_S, WRITE_RETRY_MAX_S
        )

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Under ``self._lock``, SQLite's busy timeout back for a statement outside a
        write transaction (a read, an autocommit write) to wait for another's lock:
        switched only when a ``_begin`` turned it off, not twice a write."""
        with self._lock:
            if not self._busy_waits:
                self._db.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
                self._busy_waits = True
            yield

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A write method's transaction: its own, committed at the end (rolled back if it
        raises); or, inside this thread's ``group``, a savepoint of the group's, so that
        a write that fails undoes only itself, as its own transaction would."""
        with self._lock:
            if self._group_thread != threading.get_ident():
                with self._db:
                    self._begin()
                    yield
                return
            # (gone: a SAVEPOINT now would begin a transaction of its own, committed by
            # its RELEASE, and the group, failing, would do this write again: twice)
            if not self._db.in_transaction:
                raise _rolled_back(self._group_lost)
            self._db.execute("SAVEPOINT write")
            try:
                yield
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK TO write")
                    self._db.execute("RELEASE write")
                elif self._group_lost is None:  # the group's is gone: it fails at its end
                    self._group_lost = exc
                raise
            self._db.execute("RELEASE write")

    def _alone(self, statement: str, parameters: tuple[Any, ...]) -> sqlite3.Cursor:
        """One statement written in this thread's ``group`` without ``_writing``'s
        savepoint (two statements and a context manager: ~25,000 instructions of a
        deal's write's ~92,000; docs/performance.md, forty-ninth session): SQLite undoes
        a failing statement alone, as rolling back to the savepoint would, or, for a
        full disk or an I/O error, perhaps the group's whole transaction, which is then
        the group's failure, as in ``_writing``."""
        if not self._db.in_transaction:
            raise _rolled_back(self._group_lost)
        try:
            return self._db.execute(statement, parameters)
        except BaseException as exc:
            if not self._db.in_transaction and self._group_lost is None:
                self._group_lost = exc
            raise

    @contextlib.contextmanager
    def group(self) -> Iterator[None]:
        """The writes this thread makes inside it in ONE transaction, committed at its
        end (each write a savepoint, a later deal one statement: one that fails undoes
        only itself); if the group raises (its begin or commit failed, say), nothing of
        it is written. Other threads' calls wait for it. For the store writer
        (server/store_writer.py), which groups the jobs queued: one wait for another
        process's write lock, and one commit, for them all."""
        with self._lock:
            self._begin()
            self._group_thread, self._group_lost = threading.get_ident(), None
            try:
                yield
                if not self._db.in_transaction:  # (not 'cannot commit': why it cannot)
                    raise _rolled_back(self._group_lost)
                self._db.execute("COMMIT")
            finally:
                self._group_thread, self._group_lost = None, None
                if self._db.in_transaction:  # (raised, or the commit failed)
                    self._db.execute("ROLLBACK")

    def _version(self) -> int:
        return version(self._db)

    def hurry(self, timeout_s: float) -> None:
        """(``Store.hurry``: nothing to hurry, a file has no connections to wait for.)"""

    def close(self) -> None:
        """End this server's own matches (listed) and its row, then close the file,
        even if that fails (the file locked, the disk full): the failure is raised."""
        with self._lock:
            try:
                if self.server_id is not None:  # a server's own matches end with it, listed
                    with self._writing():
                        own = OWN_RUNNING.format(p="?")
                        rows = self._db.execute(
                            f"SELECT match_id, board FROM running WHERE {own}", (self.server_id,)
                        )
                        self._list_stopped(rows.fetchall(), SHUTDOWN)
                        self._db.execute(f"DELETE FROM running WHERE {own}", (self.server_id,))
                        self._db.execute("DELETE FROM servers WHERE id = ?", (self.server_id,))
            finally:
                self._db.close()

    # several servers on one database
    def _row(self) -> tuple[int | None, str, int, int]:
        """This server's row in ``servers`` (written again: REVIVE_SERVER)."""
        return (self.server_id, socket.gethostname(), os.getpid(), int(self._plain))

    def _register(self, dead_after_s: float) -> None:
        with self._writing():
            cur = self._db.execute(
                "INSERT INTO servers (host, pid, plain, heartbeat, boot, start_ticks)"
                " VALUES (?, ?, ?, julianday('now'), ?, ?)",
                (socket.gethostname(), os.getpid(), int(self._plain), *_own_start()),
            )
            self.server_id = int(cur.lastrowid or 0)
            self._end_the_gone()
            ended = self._end_the_dead(dead_after_s)
            self._list_old_stops()
            self._db.execute(PLAYERS_HEAL.format(order="rowid"))
        tell_ended_at_start(ended)

    def _end_the_gone(self) -> None:
        """Delete the rows of this host's servers whose process is gone (``kill -9``:
        gone.server_gone), so that their matches end now, not after ``dead_after_s``
        of silence: the file is this host's (docs/scaling.md, "Restarts on one host")."""
        rows = self._db.execute(
            "SELECT id, pid, CAST(strftime('%s', started) AS INTEGER), boot, start_ticks"
            " FROM servers WHERE host = ? AND id != ?",
            (socket.gethostname(), self.server_id),
        ).fetchall()
        for server, pid, started, boot, ticks in rows:
            known = ProcessStart(boot, int(ticks)) if boot and ticks is not None else None
            if started is not None and server_gone(int(pid), float(started), known):
                self._db.execute("DELETE FROM servers WHERE id = ?", (server,))

    def _end_the_dead(self, dead_after_s: float) -> int:
        self._db.execute(
            "DELETE FROM servers WHERE heartbeat < julianday('now') - ? / 86400.0",
            (dead_after_s,),
        )
        orphaned = self._db.execute(f"SELECT match_id, board FROM running WHERE {ORPHANED}")
        self._list_stopped(orphaned.fetchall(), SERVER_LOST)
        cur = self._db.execute(f"DELETE FROM running WHERE {ORPHANED}")
        return cur.rowcount

    def _list_old_stops(self) -> None:
        """The matches an old clean stop left unlisted, listed once (base.OLD_STOPS)."""
        stops = in_number_order([m for (m,) in self._db.execute(OLD_STOPS).fetchall()])
        if not stops:
            return
        self._list_stopped([(m, None) for m in stops], SHUTDOWN)
        finished = OLD_STOP_FINISHED.format(p="?", number=SQLITE_NUMBER, before=SQLITE_BEFORE)
        for match_id in stops:
            number = old_stop_number(match_id)
            self._db.execute(finished, (number, number, match_id))
            self._players_follow(match_id)
        self._db.execute("DELETE FROM old_stops")

    def _list_stopped(self, matches: list[tuple[str, str | None]], reason: str) -> None:
        """List the running matches its server did not finish (``reason``: one of
        STOPPED), each from its last stored deal; one without a deal is not listed. A
        ladder board's (match, board key) is kept withheld, to be listed at its
        board's release: its deck may still be played."""
        for match_id, board in matches:
            last = self._db.execute(LAST_DEAL.format(p="?"), (match_id,)).fetchone()
            if last is None:
                continue  # not one deal stored: nothing to list
            row = lost_match_row(match_id, last[0], reason)
            if board is not None:
                self._db.execute(
                    "UPDATE running SET result = ? WHERE match_id = ?",
                    (board_result(row, None), match_id),
                )
                continue
            listed = self._db.execute(LISTED.format(p="?"), (match_id,)).fetchone()
            self._db.execute(LIST_STOPPED.format(p="?", now="datetime('now')"), row)
            if listed is None:  # (its players' rows are there since its first listing)
                self._list_players(row)
            self._players_follow(match_id)

    def heartbeat(self, dead_after_s: float, every_s: float = 0.0) -> int:
        with self._writing():
            since = self._db.execute(
                "SELECT (julianday('now') - heartbeat) * 86400.0 FROM servers WHERE id = ?",
                (self.server_id,),
            ).fetchone()
            beat = self._db.execute(
                "UPDATE servers SET heartbeat = julianday('now') WHERE id = ?", (self.server_id,)
            )
            if beat.rowcount == 0 and self.server_id is not None:  # thought dead: alive again
                self._db.execute(REVIVE_SERVER, self._row())
            late = late_by(None if since is None else float(since[0]), every_s)
            if late is None:
                return 0
            return self._end_the_dead(dead_after_s + late)

    def new_match_number(self) -> int:
        return self._new_numbers("match_numbers", 1)[0]

    def new_match_numbers(self, count: int) -> list[int]:
        return self._new_numbers("match_numbers", count)

    def new_table_numbers(self, count: int) -> list[int]:
        return self._new_numbers("table_numbers", count)

    def highest_table_number(self) -> int:
        with self._reading():  # (AUTOINCREMENT's highest, given back numbers taken off)
            row = self._db.execute(
                "SELECT seq FROM sqlite_sequence WHERE name = 'table_numbers'"
            ).fetchone()
        return int(row[0]) if row is not None else 0

    def give_back_numbers(self, counter: str, lowest: int, highest: int) -> bool:
        if counter not in ABOVE_STORED or not 0 < lowest <= highest:
            return False
        with self._writing():  # (BEGIN IMMEDIATE: no draw comes between the look and the set)
            row = self._db.execute(
                "SELECT seq FROM sqlite_sequence WHERE name = ?", (counter,)
            ).fetchone()
            if row is None or row[0] != highest:  # another process drew since
                return False
            # the counter keeps only its newest row (_new_numbers): AUTOINCREMENT goes on
            # from the larger of the rows' and sqlite_sequence's highest
            self._db.execute(f"DELETE FROM {counter} WHERE number >= ?", (lowest,))
            self._db.execute(
                "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (lowest - 1, counter)
            )
        return True

    def _new_numbers(self, counter: str, count: int) -> list[int]:
        """``count`` new numbers, ascending, of ``counter`` (match_numbers or
        table_numbers: an AUTOINCREMENT table); this store's first draw of it above
        every number stored (ABOVE_STORED)."""
        if counter not in self._above_stored:
            with self._writing():
                self._db.execute(ABOVE_STORED[counter])
            self._above_stored.add(counter)
        with self._writing():
            numbers = [
                int(self._db.execute(f"INSERT INTO {counter} DEFAULT VALUES").lastrowid or 0)
                for _ in range(count)
            ]
            # AUTOINCREMENT remembers the highest: only the newest row need be kept
            self._db.execute(f"DELETE FROM {counter} WHERE number < ?", (numbers[-1],))
        return numbers

    def schema_version(self) -> int:
        with self._reading():
            return self._version()

    # accounts
    def account(self, name: str) -> tuple[bytes, bytes] | None:
        with self._reading():
            row = self._db.execute(
                "SELECT salt, hash FROM accounts WHERE key = ?", (name_key(name),)
            ).fetchone()
        return (row[0], row[1]) if row else None

    def account_name(self, name: str) -> str | None:
        with self._reading():
            row = self._db.execute(
                "SELECT name FROM accounts WHERE key = ?", (name_key(name),)
            ).fetchone()
        return str(row[0]) if row else None

    def add_account(self, name: str, salt: bytes, digest: bytes) -> bool:
        with self._reading():
            try:
                self._db.execute(ADD_ACCOUNT.format(p="?"), _account_row(name, salt, digest))
            except sqlite3.IntegrityError:
                return False
        return True

    def register(self, name: str, salt: bytes, digest: bytes) -> str | None:
        # BEGIN IMMEDIATE: the file's write lock held from the look-up to the insert, so
        # another registration (this process's, or another's) waits for both
        with self._writing():
            row = self._db.execute(
                "SELECT name FROM accounts WHERE key = ?", (name_key(name),)
            ).fetchone()
            if row is not None:
                return str(row[0])
            alike = self._looks_like(name)
            if alike is None:
                self._db.execute(ADD_ACCOUNT.format(p="?"), _account_row(name, salt, digest))
        return alike

    def _looks_like(self, name: str) -> str | None:
        """A registered name ``name`` (not registered) looks like, or None."""
        rows = self._db.execute(LOOKS_LIKE.format(p="?"), (latin_look(name),)).fetchall()
        return look_alike(name, (str(r[0]) for r in rows))

    def forget_account(self, name: str) -> None:
        with self._writing():
            for forget in FORGET_ACCOUNT:
                self._db.execute(forget.format(p="?"), (name_key(name),))

    def set_account_secret(self, name: str, salt: bytes, digest: bytes) -> bool:
        with self._reading():
            changed = self._db.execute(
                "UPDATE accounts SET salt = ?, hash = ? WHERE key = ?",
                (salt, digest, name_key(name)),
            )
        return changed.rowcount == 1

    # bans
    def ban(self, name: str, admin: str, reason: str) -> None:
        with self._writing():
            self._db.execute(BAN.format(p="?", now=NOW), (name_key(name), name, admin, reason))

    def unban(self, name: str) -> bool:
        with self._writing():
            gone = self._db.execute("DELETE FROM bans WHERE key = ?", (name_key(name),))
        return gone.rowcount == 1

    def ban_of(self, name: str) -> Ban | None:
        with self._reading():
            row = self._db.execute(BAN_OF.format(p="?", since=SINCE), (name_key(name),)).fetchone()
        return None if row is None else ban_row(row)

    def arrival(
        self,
        name: str,
        ignored_most: int = 0,
        address: str | None = None,
        now_s: float | None = None,
    ) -> Arrival:
        key = (name_key(name),)
        ignored: list[Any] = []
        alike: str | None = None
        address_bans: list[Any] = []
        with self._reading():
            ban = self._db.execute(BAN_OF.format(p="?", since=SINCE), key).fetchone()
            account = self._db.execute("SELECT name FROM accounts WHERE key = ?", key).fetchone()
            if account is None:  # a new name: a registered one it looks like
                alike = self._looks_like(name)
            if account is None and address is not None:  # (a member logs in from it)
                query = ADDRESS_BANS.format(p="?", since=SINCE)
                when = time.time() if now_s is None else now_s
                address_bans = self._db.execute(query, (when,)).fetchall()
            if ignored_most > 0:
                query = IGNORED_BY.format(p="?")
                ignored = self._db.execute(query, (*key, ignored_most)).fetchall()
        ban_read = None if ban is None else ban_row(ban)
        spelling = None if account is None else str(account[0])
        held = None if address is None else covering(address_bans, address)
        return Arrival(ban_read, spelling, tuple(str(r[0]) for r in ignored), alike, held)

    def bans(self) -> list[Ban]:
        with self._reading():
            rows = self._db.execute(BANS.format(since=SINCE)).fetchall()
        return [ban_row(r) for r in rows]

    # bans of addresses
    def ban_address(self, network: str, admin: str, reason: str, until_s: float) -> None:
        with self._writing():
            self._db.execute(ADDRESS_BANS_RUN_OUT.format(p="?"), (time.time(),))
            row = (network, admin, reason, until_s)
            self._db.execute(ADDRESS_BAN.format(p="?", now=NOW), row)

    def unban_address(self, network: str, now_s: float) -> bool:
        with self._writing():
            gone = self._db.execute(ADDRESS_UNBAN.format(p="?"), (network, now_s))
        return gone.rowcount == 1

    def address_bans(self, now_s: float) -> list[AddressBan]:
        with self._reading():
            rows = self._db.execute(ADDRESS_BANS.format(p="?", since=SINCE), (now_s,)).fetchall()
        return [address_ban_row(r) for r in rows]

    # mutes
    def mute(self, name: str, admin: str, reason: str, until_s: float) -> None:
        with self._writing():
            self._db.execute(MUTES_RUN_OUT.format(p="?"), (time.time(),))
            self._db.execute(MUTE.format(p="?"), (name_key(name), name, admin, reason, until_s))

    def unmute(self, name: str, admin: str) -> bool:
        with self._writing():
            lifted = self._db.execute(UNMUTE.format(p="?"), (admin, name_key(name), time.time()))
        return lifted.rowcount == 1

    def mutes(self, now_s: float) -> list[StoredMute]:
        return self._mutes(MUTES, now_s)

    def mutes_with_lifts(self, now_s: float) -> list[StoredMute]:
        return self._mutes(MUTES_WITH_LIFTS, now_s)

    def _mutes(self, query: str, now_s: float) -> list[StoredMute]:
        with self._reading():
            rows = self._db.execute(query.format(p="?"), (now_s,)).fetchall()
        return [mute_row(r) for r in rows]

    def tell_cut_off_once(self, name: str, match: str, now_s: float) -> bool:
        with self._writing():
            self._db.execute(CUT_OFFS_TOLD_OLD.format(p="?"), (now_s - CUT_OFF_TOLD_KEPT_S,))
            told = self._db.execute(CUT_OFF_TOLD.format(p="?"), (name_key(name), match, now_s))
            return told.rowcount == 1

    def untell_cut_off(self, name: str, match: str) -> None:
        with self._writing():
            self._db.execute(CUT_OFF_UNTOLD.format(p="?"), (name_key(name), match))

    # ignore lists (read by arrival)
    def ignore(self, name: str, other: str) -> None:
        row = (name_key(name), name_key(other), other, time.time())
        with self._writing():
            self._db.execute(IGNORE.format(p="?"), row)

    def unignore(self, name: str, other: str) -> None:
        with self._writing():
            self._db.execute(UNIGNORE.format(p="?"), (name_key(name), name_key(other)))

    # records
    def add_deal(
        self, record: dict[str, Any], board: str | None = None, *, text: str | None = None
    ) -> None:
        match_id = record["match"]
        deal = (match_id, record["deal_no"], withheld(record) if text is None else text)
        # one statement a deal as a rule: the deal, if its match is withheld (another
        # process's ending of this server is a transaction before or after this one,
        # deleting the server's row and its matches' running rows at once); in the store
        # writer's group (the thread's own: no other sets it so) without a savepoint
        tried = deal[1] == 1
        if not tried and self._group_thread == threading.get_ident():
            if self._alone(DEAL_IF_RUNNING, (*deal, match_id)).rowcount:
                return
            tried = True
        with self._writing():
            if not tried and self._db.execute(DEAL_IF_RUNNING, (*deal, match_id)).rowcount:
                return
            # its first deal, or its server thought dead (its matches ended by another
            # server) and on: the match withheld again, the server alive again, with it
            if self.server_id is not None:
                self._db.execute(REVIVE_SERVER, self._row())
            if board is None:
                self._db.execute(RUNNING_ROW, (match_id, self.server_id))
            else:
                self._db.execute(RUNNING_BOARD_ROW, (match_id, self.server_id, match_id, board))
            self._db.execute(DEAL, deal)

    def finish_match(
        self,
        match_id: str,
        table_id: int,
        players: list[str],
        variant: str,
        options: list[str],
        winner: str | None,
        reason: str,
        totals: list[int],
        seeds: dict[int, str] | None = None,
        board: str | None = None,
        ratings: list[RatingResult] | None = None,
        forfeit: int | None = None,
        public_table: bool = False,
    ) -> None:
        # read, then write: a deferred transaction whose read another process's write
        # overtakes cannot become a writer ('database is locked' at once, busy timeout
        # or not): the servers of 'ladder run --processes' share a file (_begin)
        with self._writing():
            row = match_row(
                match_id,
                table_id,
                players,
                variant,
                options,
                winner,
                reason,
                totals,
                forfeit,
                public_table,
            )
            if board is not None and self._keeps_result(match_id):  # till the release
                self._db.execute(
                    "INSERT INTO running (match_id, server, board, result) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (match_id) DO UPDATE SET board = excluded.board,"
                    " result = excluded.result",
                    (match_id, self.server_id, board, board_result(row, seeds)),
                )
                return
            self._finish(row, seeds)
            if ratings:
                self._save_ratings(match_id, variant, len(players), ratings)

    def release_board(self, board: str) -> int:
        with self._writing():
            self._db.execute(UNBOARD_RUNNING.format(p="?"), (board,))
            kept = self._db.execute(BOARD_RESULTS.format(p="?"), (board,)).fetchall()
            for row, seeds in board_finishes(result for _, result in kept):
                self._finish(row, seeds)
        return len(kept)

    def _keeps_result(self, match_id: str) -> bool:
        running = self._db.execute(KEPT_BOARD.format(p="?"), (match_id,)).fetchone()
        listed = self._db.execute(LISTED.format(p="?"), (match_id,)).fetchone()
        return keeps_result(running, listed)

    def _finish(self, row: tuple[Any, ...], seeds: dict[int, str] | None) -> None:
        """``finish_match``'s writes of its ``matches`` row, in the caller's transaction."""
        match_id = row[0]
        rows = self._db.execute(
            "SELECT id, record FROM deals WHERE match_id = ?", (match_id,)
        ).fetchall()
        self._db.executemany(  # (one statement prepared once, not one a deal)
            "UPDATE deals SET record = ? WHERE id = ?",
            [(released(body, seeds), row_id) for row_id, body in rows],
        )
        self._db.execute("DELETE FROM running WHERE match_id = ?", (match_id,))
        # listed already: ended as stopped while it ran on (its server thought dead), or
        # a board's seating its release listed; its players' rows are there (once)
        listed = self._db.execute(LISTED.format(p="?"), (match_id,)).fetchone()
        self._db.execute(
            "INSERT OR REPLACE " + MATCH_INTO.format(p="?"),
            row,
        )
        if listed is None:
            self._list_players(row)
        self._players_follow(match_id)  # (REPLACE gave the row a new rowid, now)

    def _list_players(self, row: tuple[Any, ...]) -> None:
        """The ``match_players`` rows of a match listed for the first time (its
        ``matches`` row: ``row``); ``_players_follow`` fills in its time."""
        self._db.executemany(
            "INSERT INTO match_players (match_id, key) VALUES (?, ?)",
            player_rows(row[0], json.loads(row[2])),
        )

    def _players_follow(self, match_id: str) -> None:
        """Its players' rows take its ``matches`` row's time and place (base.PLAYERS_FOLLOW)."""
        self._db.execute(PLAYERS_FOLLOW.format(p="?", order="rowid"), (match_id, match_id))

    def records(self) -> Iterator[str]:
        with self._reading():
            rows = self._db.execute(RELEASED_RECORDS).fetchall()
        for (body,) in rows:
            yield body

    def match_records(self, match_id: str) -> list[str]:
        with self._reading():
            rows = self._db.execute(MATCH_RECORDS.format(p="?"), (match_id,)).fetchall()
        return [body for (body,) in rows]

    def matches_records(self, match_ids: Sequence[str], after: int = 0) -> dict[str, list[str]]:
        ids = json.dumps(list(match_ids))  # (one parameter: SQLite limits how many)
        query = MATCHES_RECORDS.format(ids="SELECT value FROM json_each(?)", after="?")
        with self._reading():
            rows = self._db.execute(query, (ids, after)).fetchall()
        return by_match(rows)

    def last_deal(self) -> int:
        with self._reading():
            return int(self._db.execute(LAST_DEAL_ROW).fetchone()[0])

    def recent_games(self, name: str, limit: int = 10) -> list[dict[str, Any]]:
        with self._reading():
            rows = self._db.execute(
                RECENT_GAMES.format(p="?", finished="m.finished"), (name_key(name), limit)
            ).fetchall()
        return [game_row(r) for r in rows]

    def finished_match(self, match_id: str) -> dict[str, Any] | None:
        with self._reading():
            row = self._db.execute(
                "SELECT id, table_id, players, variant, winner, reason, totals, finished,"
                " forfeit, options, " + DEALT.format(m="matches") + " FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
        return finished_match_row(row)

    def last_match_at(self, table_id: int) -> str | None:
        with self._reading():
            row = self._db.execute(
                LAST_MATCH_AT.format(p="?", order="rowid"), (table_id,)
            ).fetchone()
        return public_match(row)

    def max_match_number(self) -> int:
        with self._reading():
            rows = self._db.execute(MATCH_IDS).fetchall()
        return highest_match_number([r[0] for r in rows])

    # people's ratings
    def ratings_for(
        self, names: list[str], variant: str, players: int
    ) -> dict[str, tuple[float, float]]:
        keys = sorted({name_key(n) for n in names})
        sql = RATINGS_FOR.format(p="?", keys=", ".join("?" * len(keys)))
        with self._reading():
            rows = self._db.execute(sql, (variant, players, *keys)).fetchall()
        return {key: (float(mu), float(sigma)) for key, mu, sigma in rows}

    def ratings_held(
        self, names: list[str], variant: str, players: int
    ) -> contextlib.AbstractContextManager[None]:
        # inside the store writer's group its write transaction holds the file's lock
        # already; outside one (a group that could not begin, another server holding the
        # file: its jobs done one by one; a job after the writer closed) a transaction of
        # its own, or another server on the file could write them between read and write
        if self._group_thread == threading.get_ident():
            return contextlib.nullcontext()
        return self.group()

    def save_ratings(
        self, match_id: str, variant: str, players: int, results: list[RatingResult]
    ) -> None:
        with self._writing():
            self._save_ratings(match_id, variant, players, results)

    def _save_ratings(
        self, match_id: str, variant: str, players: int, results: list[RatingResult]
    ) -> None:
        """``save_ratings``' writes, in the caller's transaction."""
        ratings, history = rating_rows(match_id, variant, players, results)
        self._db.executemany(SAVE_RATING.format(p="?"), ratings)
        self._db.executemany(SAVE_HISTORY.format(p="?"), history)

    def standings(self, variant: str, players: int) -> list[PlayerRating]:
        with self._reading():
            rows = self._db.execute(STANDINGS.format(p="?"), (variant, players)).fetchall()
        return [player_rating(r) for r in rows]

    def standings_page(
        self, variant: str, players: int, first: int, count: int
    ) -> list[PlayerRating]:
        sql = STANDINGS_PAGE.format(p="?")
        with self._reading():
            rows = self._db.execute(sql, (variant, players, count, first)).fetchall()
        return [player_rating(r) for r in rows]

    def rated_counts(self) -> dict[tuple[str, int], int]:
        with self._reading():
            rows = self._db.execute(RATED_COUNTS).fetchall()
        return {(str(variant), int(players)): int(n) for variant, players, n in rows}

    def rank(self, rating: PlayerRating) -> int:
        args = (rating.variant, rating.players, rating.rating, rating.rating, name_key(rating.name))
        with self._reading():
            row = self._db.execute(RANK.format(p="?"), args).fetchone()
        assert row is not None
        return int(row[0])

    def player_ratings(self, name: str) -> list[PlayerRating]:
        with self._reading():
            rows = self._db.execute(PLAYER_RATINGS.format(p="?"), (name_key(name),)).fetchall()
        return [player_rating(r) for r in rows]

    def rating_history(self, name: str, last: int | None = None) -> list[RatingPoint]:
        key = name_key(name)
        with self._reading():
            if last is None:
                rows = self._db.execute(RATING_HISTORY.format(p="?"), (key,)).fetchall()
            else:
                newest = self._db.execute(RATING_HISTORY_LAST.format(p="?"), (key, last))
                rows = newest.fetchall()[::-1]
        return [rating_point(r) for r in rows]


def _above(counter: str, highest: str) -> str:
    """The statement that moves ``counter`` past ``highest`` (a query of one number ``n``,
    NULL for none) if it is behind it: an explicit number in an AUTOINCREMENT table
    raises its sqlite_sequence, and never lowers it."""
    return (
        f"INSERT OR IGNORE INTO {counter} (number) SELECT n FROM ({highest}) WHERE n >"
        f" coalesce((SELECT seq FROM sqlite_sequence WHERE name = '{counter}'), 0)"
    )


# Each counter moved past the highest number the matches hold, if it is behind it, at a
# store's first draw: a database of 0.1.0's (migration 6 started the table counter at
# 1, whatever its matches' tables), or one that 0.1.0's code wrote to after its upgrade
# (its own tables from 1 again, its match numbers past the highest stored, which the
# next draw would give again: a match written over). docs/protocol.md §5.2.
ABOVE_STORED = {
    "table_numbers": _above("table_numbers", "SELECT max(table_id) AS n FROM matches"),
    "match_numbers": _above("match_numbers", f"SELECT max({SQLITE_NUMBER}) AS n FROM matches e"),
}


# add_deal's statements: as a rule one, the deal stored if its match's running row is
# there (without a kept result: base.RUNNING_NOW); else (a match's first deal; a match
# another server ended, its server thought dead) the server's row if it is gone (a
# server storing a deal is alive), the running row (its kept result gone), and the deal.
DEAL = "INSERT OR REPLACE INTO deals (match_id, deal_no, record) VALUES (?, ?, ?)"
DEAL_IF_RUNNING = (
    "INSERT OR REPLACE INTO deals (match_id, deal_no, record) SELECT ?, ?, ?"
    f" WHERE EXISTS ({RUNNING_NOW.format(p='?')})"
)
REVIVE_SERVER = (
    "INSERT OR IGNORE INTO servers (id, host, pid, plain, heartbeat)"
    " VALUES (?, ?, ?, ?, julianday('now'))"
)
RUNNING_ROW = "INSERT INTO running (match_id, server) VALUES (?, ?)" + PLAYS_ON
RUNNING_BOARD_ROW = (
    "INSERT INTO running (match_id, server, board)"
    f" VALUES (?, ?, {BOARD_UNLESS_LISTED.format(p='?')})" + PLAYS_ON
)


def _account_row(name: str, salt: bytes, digest: bytes) -> tuple[str, str, bytes, bytes, str]:
    """An account's row (ADD_ACCOUNT), its ``look`` (migration 21) with it."""
    return (name_key(name), name, salt, digest, latin_look(name))


def migrate(
    db: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS
) -> Migrated | None:
    """Apply the migrations ``db`` lacks, each in its own transaction with its row (on an
    autocommit connection: ``isolation_level=None``); what this call applied (None:
    nothing, another process's doing included), each committed."""
    # (a file from before migrations were numbered has tables, and no versions)
    (tables,) = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
    db.execute(SQLITE_VERSIONS)
    before = version(db)
    applied = None
    for migration in pending(before, migrations):
        quoted = migration.description.replace("'", "''")
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sqlite};\n"
            "INSERT INTO schema_migrations (number, description) VALUES "
            f"({migration.number}, '{quoted}');\nCOMMIT;"
        )
        try:
            db.executescript(script)
        except sqlite3.Error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if version(db) < migration.number:  # not another process's doing
                raise
            continue
        applied = migration.number
    return None if applied is None else Migrated(before, applied, new=tables == 0)


def version(db: sqlite3.Connection) -> int:
    (number,) = db.execute("SELECT coalesce(max(number), 0) FROM schema_migrations").fetchone()
    return int(number)


def _rolled_back(lost: BaseException | None) -> sqlite3.OperationalError:
    """A group's failure once a write's error rolled its transaction back: that error."""
    failed = sqlite3.OperationalError(
        f"a write's error rolled the group's transaction back ({lost or 'unknown'})"
    )
    failed.__cause__ = lost
    return failed


def _use_wal(db: sqlite3.Connection, busy_timeout_s: float) -> None:
    """Write-ahead logging. Switching a new file to it needs a lock that SQLite's busy
    timeout does not wait for: servers started at once on one new file take turns,
    trying again for ``busy_timeout_s`` in all, as a statement waits for a lock."""
    _while_locked(db, "PRAGMA journal_mode=WAL", busy_timeout_s, WAL_RETRY_S, WAL_RETRY_MAX_S)


def _while_locked(
    db: sqlite3.Connection, statement: str, busy_timeout_s: float, first_s: float, most_s: float
) -> None:
    """``statement`` on ``db``, tried again while another holds the lock it needs
    (SQLITE_BUSY: 'database is locked'), for ``busy_timeout_s`` in all after the first
    refusal, pausing ``first_s`` longer at each try up to ``most_s``; the last try's error
    raised."""
    deadline: float | None = None
    for attempt in itertools.count(1):
        try:
            db.execute(statement)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):  # (SQLITE_BUSY: 'database is locked')
                raise
            now = time.monotonic()
            if deadline is None:
                deadline = now + busy_timeout_s
            left = deadline - now
            if left <= 0:
                raise
            time.sleep(min(first_s * attempt, most_s, left))


# A write transaction's pauses for another process's write lock: its writes (a deal, a
# finish) hold it well under a millisecond here.
WRITE_RETRY_S = 0.0002  # the first pause, growing by as much at each try
WRITE_RETRY_MAX_S = 0.001
WAL_RETRY_S = 0.01  # the first pause, growing by as much at each try
WAL_RETRY_MAX_S = 0.2


def _own_start() -> tuple[str | None, int | None]:
    """This process's start for its ``servers`` row (store/gone.py), NULLs if unknown."""
    start = process_start(os.getpid())
    return (None, None) if start is None else (start.boot, start.ticks)
