"""``deberc-net move-store``: a club's SQLite store copied whole into an empty PostgreSQL
database, so that it can grow to ``serve --workers`` (docs/scaling.md, "From SQLite to
PostgreSQL").

The tables are the databases' own catalogues', not a list kept here: every table of the
SQLite file goes to the PostgreSQL table of its name, column by column, each value made
what the PostgreSQL column's type takes (SQLite's text times and julian days to
``timestamptz``, its 0/1 to ``boolean``); a PostgreSQL identity column SQLite has no
twin of (``matches.seq``: the order stored) is filled from the row's ``rowid``; an SQLite
counter table (``match_numbers``, ``table_numbers``: AUTOINCREMENT) sets the PostgreSQL
sequence of its name. A table of either side that has no place on the other is refused:
the move carries everything or nothing.

The SQLite file is opened as a server opens it (brought up to this code's schema, one
newer refused) and read under its write lock (``BEGIN IMMEDIATE``): one consistent
snapshot, and no server writes to it meanwhile what the move would leave behind. The
PostgreSQL side is ONE transaction: its migrations, the check that it holds no club,
every row, the counters; a failure anywhere rolls it back whole (a sequence's setval
aside: PostgreSQL never undoes one, docs/scaling.md).
"""

from __future__ import annotations

import datetime
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from . import describe, is_postgres, without_password
from .base import DEAD_AFTER_S, StoreError
from .migrations import MIGRATIONS, Migration

if TYPE_CHECKING:
    import psycopg

    Target = psycopg.Connection[Any]

# what the database keeps of itself: PostgreSQL's rows are written by its own migrations
VERSIONS = "schema_migrations"
JULIAN_UNIX_EPOCH = 2440587.5  # julianday('1970-01-01 00:00:00')
UNIX_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
LOCK_WAIT_S = 2.0  # how long the move waits for another program's write to end


class MoveInterrupted(Exception):
    """Ctrl-C (SIGINT) during the move: its one sentence says what was written into
    PostgreSQL (before the commit: nothing; during it: the whole move or nothing, not
    known here) and how to know."""


@attrs.frozen
class Moved:
    """What a move copied: the schema version, the rows of each table and where each
    counter was set (0: nothing drawn yet), by name."""

    schema: int
    rows: tuple[tuple[str, int], ...]
    counters: tuple[tuple[str, int], ...]

    def said(self, db: str, url: str) -> str:
        lines = [f"moved {db} into {describe(url)} (schema {self.schema}), in one transaction:"]
        width = max(len(name) for name, _ in (*self.rows, *self.counters))
        lines += [
            f"  {name:<{width}}  {n:,} {'row' if n == 1 else 'rows'}" for name, n in self.rows
        ]
        lines += [
            f"  {name:<{width}}  counter at {n:,}: the next is {n + 1:,}"
            for name, n in self.counters
        ]
        lines.append(
            f"{db} is left as it was: keep it, and serve the club from PostgreSQL from now"
            " on (a server started on the file again would play apart from it). The"
            " database holds the password hashes now, as the file does."
        )
        return "\n".join(lines)


def settings_line(settings: str, named: str, url: str) -> str:
    """What the server's settings file, whose ``db`` is ``named`` (the file moved), needs
    now: without it a ``serve --config`` would go on from the file, apart from the club.
    The address as given (its options kept), but a password, which is not echoed."""
    shown = describe(url) if ":***@" in describe(url) else url
    return (
        f'{settings}\'s db is {named} still: set db = "{shown}" there, for serve and the'
        " other commands (or give them --db)"
    )


def move(db: str, url: str, *, migrations: Sequence[Migration] = MIGRATIONS) -> Moved:
    """Copy every table of the SQLite store ``db`` into the empty PostgreSQL database at
    ``url``, migrated to the same schema first; StoreError, one sentence saying what to
    do, if it cannot (nothing written to PostgreSQL then)."""
    _refused(db, url)
    from .sqlite import SQLiteStore  # (the server's own opening: its migrations)

    try:
        store = SQLiteStore(db, migrations=migrations)
    except StoreError as exc:
        raise StoreError(_about(db, str(exc))) from None
    try:
        source = store.connection
        _lock(source, db)
        try:
            _no_live_server(source, db)
            return _copy(source, url, migrations)
        finally:
            if source.in_transaction:  # (nothing was written: the lock let go)
                source.execute("ROLLBACK")
    finally:
        store.close()


def _refused(db: str, url: str) -> None:
    if is_postgres(db):
        raise StoreError(
            f"{describe(db)} is a PostgreSQL database already: the move copies an SQLite"
            " store (--db FILE) into PostgreSQL"
        )
    if not is_postgres(url):
        raise StoreError(
            f"{without_password(url)} is not a PostgreSQL address: give"
            " postgresql://USER@HOST[:PORT]/DB, an empty database (createdb)"
        )
    if not os.path.exists(db):
        raise StoreError(f"no database at {db}")


def _about(db: str, said: str) -> str:
    """An error of the SQLite side that does not say which database: said of ``db``."""
    return said if db in said else f"{db}: {said}"


def _lock(source: sqlite3.Connection, db: str) -> None:
    """The file's write lock, held till the move ends: its rows as of one moment, and no
    server's write after it left behind in the file. Refused if another program holds
    it for longer than LOCK_WAIT_S (a server writing, a ladder)."""
    source.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT_S * 1000)}")
    try:
        source.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc):
            raise StoreError(f"cannot read {db}: {exc}") from None
        raise StoreError(
            f"{db} is being written by another program (a server, a ladder?), still after"
            f' {LOCK_WAIT_S:g} s: stop it first (docs/scaling.md, "From SQLite to'
            ' PostgreSQL")'
        ) from None


def _no_live_server(source: sqlite3.Connection, db: str) -> None:
    """Refused while a server's heartbeat says it runs on the file: what it plays on after
    the move would be lost to the club."""
    row = source.execute(
        "SELECT id, host, pid, (julianday('now') - heartbeat) * 86400.0 FROM servers"
        " WHERE heartbeat > julianday('now') - ? / 86400.0 ORDER BY heartbeat DESC",
        (DEAD_AFTER_S,),
    ).fetchone()
    if row is None:
        return
    server, host, pid, ago = row
    raise StoreError(
        f"a server runs on {db} (server {server}, pid {pid} on {host}, its last heartbeat"
        f" {max(ago, 0):.0f} s ago): stop it first, drained (docs/security.md,"
        f' "Restarts"); a server killed without its stop counts as gone {DEAD_AFTER_S:g} s'
        " after its last heartbeat"
    )


def _copy(source: sqlite3.Connection, url: str, migrations: Sequence[Migration]) -> Moved:
    import psycopg

    from .postgres import connect, redacted

    target = connect(url)
    where = redacted(url)
    try:
        try:
            moved = _into(source, target, where, migrations)
        except KeyboardInterrupt:  # (before the commit: its transaction rolls back)
            raise MoveInterrupted(
                f"interrupted: nothing was written into {where} (the move is one"
                " transaction, not committed); the move can be run again"
            ) from None
        # its COMMIT sent, PostgreSQL may have done it or not: Ctrl-C, or the connection
        # lost (no answer: no sqlstate), may be after the commit was done or before it
        # arrived; an error PostgreSQL answers the COMMIT with (a deferred trigger's, a
        # termination) rolled it back, and is told as any other failure, below
        try:
            target.commit()
        except KeyboardInterrupt:
            raise MoveInterrupted(_commit_not_known("interrupted", where)) from None
        except psycopg.Error as exc:
            if exc.sqlstate is not None:
                raise
            said = _commit_not_known(f"a database error ({_reason(exc)})", where)
            raise StoreError(said) from None
        return moved
    except psycopg.Error as exc:
        raise StoreError(
            f"the move into {where} failed and wrote nothing there: {_reason(exc)}"
        ) from None
    except sqlite3.Error as exc:
        raise StoreError(f"the move failed reading the SQLite file, wrote nothing: {exc}") from None
    finally:
        target.close()  # (uncommitted: rolled back)


def _commit_not_known(what: str, where: str) -> str:
    """The sentence for a move whose commit ``what`` cut short (Ctrl-C, the connection
    lost): whether PostgreSQL committed is not known here, and how to know."""
    return (
        f"{what} during the commit: the move into {where} is written whole or not at"
        " all (one transaction), which of the two is not known here. Run the move again"
        " to know: it moves the club if nothing was written, or says that the database"
        " holds a club already (this move's)"
    )


def _reason(exc: Exception) -> str:
    """A database error's words on one line (libpq's may run over several)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def _into(
    source: sqlite3.Connection, target: Target, where: str, migrations: Sequence[Migration]
) -> Moved:
    """The move's one PostgreSQL transaction (``target``'s at ``where``, committed by the
    caller)."""
    from .postgres import ABOVE_STORED, migrate
    from .sqlite import version

    try:  # (its advisory lock held till the end: a server starting meanwhile waits)
        migrate(target, migrations)
    except StoreError as exc:  # newer than this code
        raise StoreError(f"{where}: {exc}") from None
    schema = version(source)
    there = _one(target, "SELECT coalesce(max(number), 0) FROM schema_migrations")
    if int(there) != schema:  # (both at this code's newest: never, unless a bug)
        raise StoreError(f"the schemas differ: SQLite at {schema}, PostgreSQL at {there}")
    tables, sequences = _postgres_catalogue(target)
    sqlite_tables = _sqlite_tables(source)
    counters = sqlite_tables & sequences
    _same_tables(sqlite_tables, tables, sequences)
    _empty(target, tables - {VERSIONS})
    seqs = dict(source.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
    rows = []
    for table in sorted(tables - {VERSIONS}):
        rows.append((table, _copy_table(source, target, table)))
        _identities_past(target, table, int(seqs.get(table, 0)))
    set_to = []
    for name in sorted(counters):
        (top,) = source.execute(f'SELECT coalesce(max(rowid), 0) FROM "{name}"').fetchone()
        _past(target, name, max(int(top), int(seqs.get(name, 0))))
        if name in ABOVE_STORED:  # (a store whose matches outran its counter: a store's
            # first draw would go past them; the move does it now, and says where it is)
            target.execute(ABOVE_STORED[name])
        drawn = f'SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM "{name}"'
        set_to.append((name, int(_one(target, drawn))))
    return Moved(schema, tuple(rows), tuple(set_to))


def _postgres_catalogue(target: Target) -> tuple[set[str], set[str]]:
    """The tables and the sequences of their own (not an identity's) in the schema."""
    relations = target.execute(
        "SELECT c.relname, c.relkind FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'S')"
        " AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass"
        " AND d.objid = c.oid AND d.deptype IN ('i', 'a'))"
    ).fetchall()
    tables = {str(name) for name, kind in relations if kind != "S"}
    return tables, {str(name) for name, kind in relations if kind == "S"}


def _sqlite_tables(source: sqlite3.Connection) -> set[str]:
    rows = source.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
    ).fetchall()
    return {str(name) for (name,) in rows}


def _same_tables(sqlite_tables: set[str], tables: set[str], sequences: set[str]) -> None:
    """Every SQLite table has its PostgreSQL twin (a table, or a sequence of its name)
    and the other way round: a table or a counter the move would leave behind, or one
    in PostgreSQL it knows nothing of (a database of something else), refused."""
    if not_there := sorted(sqlite_tables - tables - sequences):
        raise StoreError(
            f"the SQLite store's tables {', '.join(not_there)} have no place in PostgreSQL's"
            " schema: this deberc-net cannot move them (a bug: please report it)"
        )
    if unknown := sorted((tables | sequences) - sqlite_tables):
        raise StoreError(
            f"the PostgreSQL database holds tables or sequences this deberc-net does not"
            f" know ({', '.join(unknown)}): give it an empty database of its own (createdb)"
        )


def _empty(target: Target, tables: set[str]) -> None:
    """Refused if any of ``tables`` holds a row: the move never merges two clubs."""
    full = [t for t in sorted(tables) if _one(target, f'SELECT EXISTS (SELECT FROM "{t}")')]
    if full:
        raise StoreError(
            f"the PostgreSQL database holds a club already (rows in {', '.join(full)}): the"
            " move goes into an empty database only (createdb a new one); nothing was written"
        )


@attrs.frozen
class _Column:
    name: str
    kind: str  # PostgreSQL's data_type
    from_rowid: bool  # an identity SQLite has no column for: the row's rowid


def _columns(source: sqlite3.Connection, target: Target, table: str) -> list[_Column]:
    """``table``'s PostgreSQL columns (generated ones left to PostgreSQL), each with what
    fills it; refused where a column of either side has no twin."""
    theirs = {str(r[1]) for r in source.execute(f'PRAGMA table_info("{table}")').fetchall()}
    rows = target.execute(
        "SELECT column_name, data_type, is_identity, is_generated"
        " FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position",
        (table,),
    ).fetchall()
    columns = []
    for name, kind, identity, generated in rows:
        if generated == "ALWAYS":
            continue
        if name not in theirs and identity != "YES":
            raise StoreError(f"{table}.{name} of PostgreSQL has no SQLite twin to fill it")
        columns.append(_Column(str(name), str(kind), name not in theirs))
    if missing := sorted(theirs - {c.name for c in columns}):
        raise StoreError(f"the SQLite columns {table}.{', '.join(missing)} have no PostgreSQL twin")
    return columns


def _copy_table(source: sqlite3.Connection, target: Target, table: str) -> int:
    """Every row of ``table``, in the order stored (rowid), by one COPY; how many."""
    columns = _columns(source, target, table)
    picked = ", ".join("rowid" if c.from_rowid else f'"{c.name}"' for c in columns)
    named = ", ".join(f'"{c.name}"' for c in columns)
    convert = [_CONVERT.get(c.kind, _same) for c in columns]
    count = 0
    # (COPY writes identity columns as given: the ids, match and run numbers kept)
    with target.cursor() as cur, cur.copy(f'COPY "{table}" ({named}) FROM STDIN') as copy:
        for row in _rows(source, f'SELECT {picked} FROM "{table}" ORDER BY rowid'):
            try:
                copy.write_row([c(v) for c, v in zip(convert, row, strict=True)])
            except (ValueError, TypeError, OverflowError) as exc:
                raise StoreError(f"{table} row {count + 1} cannot be moved: {exc}") from None
            count += 1
    return count


def _rows(source: sqlite3.Connection, query: str) -> Iterator[tuple[Any, ...]]:
    cursor = source.execute(query)
    while batch := cursor.fetchmany(1000):
        yield from batch


def _identities_past(target: Target, table: str, counter: int) -> None:
    """Each identity of ``table`` set past its highest value copied and the SQLite
    counter of the table (AUTOINCREMENT's ``counter``: ids never given again)."""
    rows = target.execute(
        "SELECT column_name, pg_get_serial_sequence(quote_ident(%s), column_name)"
        " FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = %s AND is_identity = 'YES'",
        (table, table),
    ).fetchall()
    for column, sequence in rows:
        top = _one(target, f'SELECT coalesce(max("{column}"), 0) FROM "{table}"')
        _past(target, str(sequence), max(int(top), counter))


def _past(target: Target, sequence: str, at: int) -> None:
    """``sequence``'s next value after ``at``; never moved back below one drawn."""
    if at > 0:
        target.execute(
            "SELECT setval(%s::regclass, %s)"
            " WHERE %s > coalesce(pg_sequence_last_value(%s::regclass), 0)",
            (sequence, at, at, sequence),
        )


def _one(target: Target, query: str) -> Any:
    """The one value ``query`` gives."""
    row = target.execute(query).fetchone()
    assert row is not None
    return row[0]


def _moment(value: Any) -> datetime.datetime | None:
    """SQLite's time (UTC text 'YYYY-MM-DD HH:MM:SS', or a julian day) as a UTC moment."""
    if value is None:
        return None
    if isinstance(value, int | float):
        return UNIX_EPOCH + datetime.timedelta(days=value - JULIAN_UNIX_EPOCH)
    moment = datetime.datetime.fromisoformat(str(value))
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _bytes(value: Any) -> bytes | None:
    return value.encode() if isinstance(value, str) else value


def _same(value: Any) -> Any:
    return value


_CONVERT: dict[str, Callable[[Any], Any]] = {
    "timestamp with time zone": _moment,
    "boolean": _flag,
    "bytea": _bytes,
}
