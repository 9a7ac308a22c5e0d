"""`deberc-net move-store` (docs/scaling.md, "From SQLite to PostgreSQL"): a club's
SQLite store, filled by a real server and a ladder, moved whole into an empty PostgreSQL
database, where a server lets the old players in, keeps the bans and mutes, says what
the SQLite server said of games and ratings, replays the old matches and numbers the new
ones past them. Every table of the schema is carried (found in the catalogue: a new
migration's table too); a database that holds a club, or a move that fails mid-way,
leaves PostgreSQL as it was; one whose commit fails says it may be written."""

from __future__ import annotations

import contextlib
import datetime
import functools
import random
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.server.store import open_store
from deberc_net.server.store.migrations import MIGRATIONS, Migration
from deberc_net.server.store.move import move
from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.web import ladders as web_ladders
from deberc_net.testing import rule_book
from tests.ladder.helpers import run_cli
from tests.server.client import LineClient, fields, is_event, play_machine
from tests.server.conftest import Connector, make_config
from tests.web.conftest import WebServer

from .postgres_server import PostgresServer
from .records import deal

TIME_LIMIT_S = 120


@asynccontextmanager
async def _served(config: Config) -> AsyncIterator[WebServer]:
    """The server and its web face in this process, stopped (its store closed) at the end."""
    async with trio.open_nursery() as nursery:
        bound: list[int] = []
        port = await nursery.start(
            functools.partial(serve, config, rules=rule_book(), http_bound=bound.append)
        )
        yield WebServer(port, bound[0])
        nursery.cancel_scope.cancel()


async def _answer(client: LineClient, command: str) -> list[str]:
    """The lines answering ``command`` (a ping marks their end)."""
    await client.send(command)
    await client.send("ping")
    lines = []
    while (line := await client.read_until(lambda _: True)) != "ok cmd=ping text=pong":
        lines.append(line)
    return lines


async def _whole_match(ann: LineClient, bob: LineClient) -> str:
    """ann and bob play a short match at a public table, to its end: its id."""
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, ann, random.Random(3))
        nursery.start_soon(play_machine, bob, random.Random(4))
    start = [x for x in ann.lines if is_event(x, "start")][-1]
    return fields(start)[1]["match"]


async def _left_match(guest: LineClient, ann: LineClient) -> str:
    """A guest opens a table, ann sits, the guest leaves: the match's id."""
    await guest.send("new 2")
    table = (await guest.expect("ok", cmd="sit"))["table"]
    await ann.send(f"sit {table}")
    start = await ann.expect("event", kind="start")
    await guest.send("leave")
    await ann.expect("event", kind="match-end")
    return start["match"]


CLUB_QUESTIONS = ("games ann", "games carl", "finger ann", "finger bob", "top", "bans")


async def _what_the_club_says(web: WebServer, connect: Connector, matches: list[str]) -> Any:
    """What a server says of the club: its lists, the replay pages, the ladders."""
    boss = await connect.machine(web.port, "boss", "pw-boss")
    said = {q: await _answer(boss, q) for q in CLUB_QUESTIONS}
    pages = {m: await web.get(f"/games/{m}") for m in matches}
    return said, pages


async def _refused_login(web: WebServer, connect: Connector, login: str) -> dict[str, str]:
    client = await connect.raw(web.port, "refused")
    await client.send("style machine")
    await client.expect("ok", cmd="style")
    await client.send(login)
    return await client.expect("error")


async def test_a_club_moved_to_postgresql_is_served_there_as_it_was(
    tmp_path: Path, new_postgres_url: str
) -> None:
    club, url = tmp_path / "club.sqlite3", new_postgres_url
    store = open_store(club)
    set_password(store, "boss", "pw-boss")  # 'deberc-net admin boss'
    store.close()
    connect = Connector()
    try:
        with trio.fail_after(TIME_LIMIT_S):
            # the club on SQLite: registered players, a guest, a ban, a mute, matches
            async with _served(make_config(club, admins=["boss"], http_port=0)) as web:
                ann = await connect.machine(web.port, "ann", "pw-ann")  # registers her
                bob = await connect.machine(web.port, "bob", "pw-bob")
                carl = await connect.machine(web.port, "carl")  # a guest
                matches = [await _whole_match(ann, bob), await _whole_match(bob, ann)]
                matches.append(await _left_match(carl, ann))
                boss = await connect.machine(web.port, "boss", "pw-boss")
                await boss.send("ban troll spamming the lobby")
                await boss.expect("ok", cmd="ban")
                await boss.send("mute bob 600 calling names")
                await boss.expect("ok", cmd="mute")
                await connect.aclose()
            # and a ladder's run in the same file (its /ladders)
            bots = [f"--bot=rand{n}=py:clients.random_bot --seed {n}" for n in (1, 2)]
            argv = ["ladder", "run", *bots, "--deals", "1", "--seed", "s", "--db", str(club)]
            ladder = await trio.to_thread.run_sync(run_cli, argv)
            assert ladder.returncode == 0, ladder.stderr[-2000:]
            async with _served(make_config(club, admins=["boss"], http_port=0)) as web:
                before = await _what_the_club_says(web, connect, matches)
                await connect.aclose()
            ladders_before = web_ladders.ladders(str(club))
            said, pages = before
            assert said["top"][0].startswith("top ") and len(said["top"]) == 3  # ann, bob
            assert len(said["games ann"]) == 4 and len(said["bans"]) == 2
            assert all(status == 200 for status, _ in pages.values())
            assert len(ladders_before.runs) == 1

            settings = tmp_path / "club.toml"  # the server's file names the database
            settings.write_text(f'[server]\ndb = "{club}"\nadmins = ["boss"]\n')
            argv = ["move-store", url, "--config", str(settings)]
            moved = await trio.to_thread.run_sync(run_cli, argv)
            assert moved.returncode == 0, moved.stderr
            assert moved.stdout.startswith(f"moved {club} into postgresql://")
            assert "\n  accounts        3 rows\n" in moved.stdout
            assert "\n  matches         5 rows\n" in moved.stdout  # the ladder's two too
            assert "\n  ladder_runs     1 row\n" in moved.stdout
            # the file the server's settings name: the operator is told to change them
            # (a 'serve --config' after the move would go on from the file, apart)
            assert moved.stdout.endswith(
                f'\n{settings}\'s db is {club} still: set db = "{url}" there, for serve'
                " and the other commands (or give them --db)\n"
            )

            # a server on PostgreSQL: the same club
            async with _served(make_config(url, admins=["boss"], http_port=0)) as web:
                assert await _what_the_club_says(web, connect, matches) == before
                wrong = await _refused_login(web, connect, "login ann pw-bob")
                assert wrong["code"] == "bad-password"  # another's password is not hers
                banned = await _refused_login(web, connect, "login Troll")
                assert banned == {
                    "code": "banned",
                    "text": "Troll is banned from this server: spamming the lobby",
                }
                ann = await connect.machine(web.port, "ann", "pw-ann")  # her own
                bob = await connect.machine(web.port, "bob", "pw-bob")
                await bob.send("say hello again")
                assert (await bob.expect("error"))["code"] == "muted"
                await ann.send("new 2")
                table = int((await ann.expect("ok", cmd="sit"))["table"])
                await bob.send(f"sit {table}")
                start = await ann.expect("event", kind="start")
                assert int(start["match"][1:]) > max(int(m[1:]) for m in matches)
                assert table > max(_old_tables(url))
                await connect.aclose()
            assert web_ladders.ladders(url) == ladders_before
    finally:
        await connect.aclose()


def _old_tables(url: str) -> list[int]:
    with psycopg.connect(url) as conn:
        return [int(r[0]) for r in conn.execute("SELECT table_id FROM matches").fetchall()]


# a value for a column of each SQLite type (a REAL is a julian day where PostgreSQL keeps
# a time: 2025-11-20, a server long dead)
# (a text that is a time too: a TEXT column may be a time on PostgreSQL, as
# match_players.finished, added by migration 15 without a default)
SOME = {"INTEGER": 7, "REAL": 2461000.0, "TEXT": "2026-12-06 02:00:00", "BLOB": b"\x00\xffbytes"}


def _fill_every_table(db: Path) -> set[str]:
    """One row in every table of a new store's file but its schema_migrations, each
    column without a default given a value of its type (a new migration's table is
    filled too): the tables filled."""
    SQLiteStore(db).close()
    with sqlite3.connect(db) as conn:
        tables = {
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        } - {"schema_migrations"}
        for table in tables:
            info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
            given = [(r[1], SOME[r[2]]) for r in info if r[4] is None]  # (no default)
            names = ", ".join(f'"{n}"' for n, _ in given)
            marks = ", ".join("?" for _ in given)
            conn.execute(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', [v for _, v in given])
    conn.close()
    return tables


def _as_sqlite_keeps_it(value: Any, kept: Any) -> Any:
    """A PostgreSQL value as SQLite's ``kept`` holds it: a time as its text or julian
    day, a flag as the number SQLite held if that was as true (0 false, any other true:
    the 7 given a flag without a default, migration 23's ``public_table``), bytes as
    bytes."""
    if isinstance(value, datetime.datetime):
        utc = value.astimezone(datetime.UTC)
        if isinstance(kept, float):
            return round(utc.timestamp() / 86400.0 + 2440587.5, 6)
        return utc.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, bool):
        return kept if value == bool(kept) else int(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


def test_every_table_of_the_schema_is_moved_row_for_row(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """The tables are the catalogue's: a table a new migration adds is filled here, and
    this fails until the move carries it."""
    club = tmp_path / "club.sqlite3"
    tables = _fill_every_table(club)
    moved = move(str(club), new_postgres_url)
    assert {t for t, _ in moved.rows} | {c for c, _ in moved.counters} == tables
    assert all(n == 1 for _, n in moved.rows)
    with sqlite3.connect(club) as source, psycopg.connect(new_postgres_url) as target:
        for table, _ in moved.rows:
            kept = source.execute(f'SELECT * FROM "{table}"').fetchone()
            names = [d[0] for d in source.execute(f'SELECT * FROM "{table}"').description]
            there = target.execute(f'SELECT {", ".join(names)} FROM "{table}"').fetchone()
            assert there is not None, table
            as_kept = tuple(_as_sqlite_keeps_it(v, k) for v, k in zip(there, kept, strict=True))
            expected = tuple(round(k, 6) if isinstance(k, float) else k for k in kept)
            assert as_kept == expected, table
        # each counter goes on after the SQLite one (a match or table number: 7)
        for counter, at in moved.counters:
            assert at == 7
            assert target.execute(f"SELECT nextval('{counter}')").fetchone() == (8,), counter
        # and each identity after the ids copied: the next deal, rating point, run
        (deal_id,) = target.execute(
            "INSERT INTO deals (match_id, deal_no, record) VALUES ('m9', 1, '{}') RETURNING id"
        ).fetchone() or (None,)
        assert deal_id == 8
    source.close()


EXTRA = Migration(
    len(MIGRATIONS) + 1,
    "a table a later deberc-net adds",
    sqlite="CREATE TABLE trophies (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);",
    postgres="CREATE TABLE trophies"
    " (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name TEXT NOT NULL);",
)


def test_a_table_a_new_migration_adds_is_moved_with_its_counter(
    tmp_path: Path, new_postgres_url: str
) -> None:
    club = tmp_path / "club.sqlite3"
    SQLiteStore(club, migrations=(*MIGRATIONS, EXTRA)).close()
    with sqlite3.connect(club) as conn:
        conn.execute("INSERT INTO trophies (id, name) VALUES (40, 'the cup')")
    conn.close()
    moved = move(str(club), new_postgres_url, migrations=(*MIGRATIONS, EXTRA))
    assert ("trophies", 1) in moved.rows and moved.schema == EXTRA.number
    with psycopg.connect(new_postgres_url) as target:
        assert target.execute("SELECT id, name FROM trophies").fetchall() == [(40, "the cup")]
        row = target.execute("INSERT INTO trophies (name) VALUES ('a plate') RETURNING id")
        assert row.fetchone() == (41,)


def _state(url: str) -> Any:
    """Everything a move could change in the database at ``url``: every table's rows and
    every sequence's place."""
    with psycopg.connect(url) as conn:
        names = conn.execute(
            "SELECT relname, relkind FROM pg_class c JOIN pg_namespace n"
            " ON n.oid = c.relnamespace WHERE nspname = 'public' AND relkind IN ('r', 'S')"
            " ORDER BY relname"
        ).fetchall()
        return {
            name: conn.execute(
                f'SELECT * FROM "{name}"' if kind == "r" else f"SELECT last_value FROM {name}"
            ).fetchall()
            for name, kind in names
        }


def _a_club(path: Path) -> None:
    store = open_store(path)
    try:
        set_password(store, "ann", "pw-ann")
        store.new_match_numbers(3)
        store.add_deal(deal("m3", 1))
        store.finish_match("m3", 1, ["ann", "bob"], "moscow", [], "ann", "left", [0, 0])
    finally:
        store.close()


def test_a_database_that_holds_a_club_is_refused_and_left_as_it_was(
    tmp_path: Path, postgres_url: str
) -> None:
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    other = open_store(postgres_url)  # another club there already: one account, a number
    try:
        set_password(other, "vera", "pw-vera")
        other.new_match_number()
    finally:
        other.close()
    before = _state(postgres_url)
    done = run_cli(["move-store", postgres_url, "--db", str(club)])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "deberc-net move-store: the PostgreSQL database holds a club already (rows in"
        " accounts): the move goes into an empty database only (createdb a new one);"
        " nothing was written\n"
    )
    assert _state(postgres_url) == before


def test_a_move_that_fails_mid_way_leaves_the_database_as_it_was(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """A text PostgreSQL cannot hold (a NUL), in a table copied after others: nothing,
    not even the schema, is left in the new database."""
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    store = open_store(club)
    store.mute("bob", "boss", "a\x00b", time.time() + 600)
    store.close()
    assert _state(new_postgres_url) == {}
    done = run_cli(["move-store", new_postgres_url, "--db", str(club)])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("deberc-net move-store: the move into postgresql://")
    assert "failed and wrote nothing there: " in done.stderr and "NUL" in done.stderr
    assert done.stderr.count("\n") == 1
    assert _state(new_postgres_url) == {}


def test_bad_addresses_and_files_are_refused_in_one_line(
    tmp_path: Path, postgres_server: PostgresServer, postgres_url: str
) -> None:
    club, missing = tmp_path / "club.sqlite3", tmp_path / "nothing.sqlite3"
    _a_club(club)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database, and long enough to be read as one's header\n" * 4)
    notes.chmod(0o644)  # (a database others may read is made 0600; this is none)
    nowhere = postgres_url.rsplit(":", 1)[0] + ":1/nowhere"
    no_database = postgres_url.rsplit("/", 1)[0] + "/no_such_database"
    for argv, said in [
        ([postgres_url, "--db", str(missing)], f"no database at {missing}"),
        ([str(tmp_path / "new.sqlite3"), "--db", str(club)], "is not a PostgreSQL address"),
        ([postgres_url, "--db", postgres_url], "is a PostgreSQL database already"),
        ([nowhere, "--db", str(club)], "cannot connect to PostgreSQL at postgresql://"),
        ([no_database, "--db", str(club)], '"no_such_database" does not exist'),
        (["postgresql://a b", "--db", str(club)], "not a PostgreSQL address"),
        ([postgres_url, "--db", str(tmp_path)], "is a folder, not a database file"),
        ([postgres_url, "--db", str(notes)], f"{notes} is not an SQLite database"),
    ]:
        done = run_cli(["move-store", *argv])
        assert (done.returncode, done.stdout) == (2, ""), argv
        assert done.stderr.startswith("deberc-net move-store: ") and said in done.stderr, argv
        assert done.stderr.count("\n") == 1, argv
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.sqlite3", "notes.txt"]
    assert stat.S_IMODE(notes.stat().st_mode) == 0o644  # (nor its mode changed)
    assert _state(postgres_url)["accounts"] == []


def test_a_file_in_use_or_newer_than_the_code_is_refused(
    tmp_path: Path, new_postgres_url: str
) -> None:
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    server = SQLiteStore(club, serving=True)  # a server running on it
    try:
        done = run_cli(["move-store", new_postgres_url, "--db", str(club)])
    finally:
        server.close()
    assert done.returncode == 2
    assert f"a server runs on {club} (server 1, pid " in done.stderr
    writer = sqlite3.connect(club, isolation_level=None)  # a program writing to it
    writer.execute("BEGIN IMMEDIATE")
    try:
        done = run_cli(["move-store", new_postgres_url, "--db", str(club)])
    finally:
        writer.close()
    assert done.returncode == 2
    assert f"{club} is being written by another program" in done.stderr
    newer = tmp_path / "newer.sqlite3"
    SQLiteStore(newer, migrations=(*MIGRATIONS, EXTRA)).close()
    done = run_cli(["move-store", new_postgres_url, "--db", str(newer)])
    assert done.returncode == 2
    assert done.stderr == (
        f"deberc-net move-store: {newer}: the database's schema is at version {EXTRA.number},"
        f" newer than this deberc-net knows ({len(MIGRATIONS)}): upgrade deberc-net\n"
    )
    assert _state(new_postgres_url) == {}


def test_a_store_whose_matches_outran_its_counters_says_the_numbers_it_goes_on_from(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """A match or table numbered past its counter (a database of 0.1.0's, a bench's
    fill): the move sets the counter past it and says so, not 'counter at 7'."""
    club = tmp_path / "club.sqlite3"
    _fill_every_table(club)
    with sqlite3.connect(club) as conn:
        conn.execute("UPDATE matches SET id = 'm50', table_id = 40")
    conn.close()
    moved = move(str(club), new_postgres_url)
    assert dict(moved.counters) == {"match_numbers": 50, "table_numbers": 40}
    with psycopg.connect(new_postgres_url) as target:
        for counter, following in (("match_numbers", 51), ("table_numbers", 41)):
            assert target.execute(f"SELECT nextval('{counter}')").fetchone() == (following,)


@pytest.mark.timeout(120)
def test_ctrl_c_mid_move_says_nothing_was_written_and_writes_nothing(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """Ctrl-C while the rows are copied ended the command silently (a tryout's): it
    says that nothing was written, ends by SIGINT as Ctrl-C does, and the database
    holds nothing of the club."""
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    with sqlite3.connect(club) as conn:  # enough rows that the copy takes a while
        conn.execute(  # (made by SQLite itself: a Python loop's rows took seconds)
            "WITH RECURSIVE n(no) AS (SELECT 2 UNION ALL SELECT no + 1 FROM n"
            " WHERE no < 300001)"
            " INSERT INTO deals (match_id, deal_no, record)"
            " SELECT 'm3', no, '{}' || printf('%300s', '') FROM n"
        )
    conn.close()
    mover = subprocess.Popen(
        [sys.executable, "-m", "deberc_net", "move-store", new_postgres_url, "--db", str(club)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with psycopg.connect(new_postgres_url, autocommit=True) as watcher:
            for _ in range(600):  # until its COPY runs (the migrations are before it)
                # in this database: the run's PostgreSQL server is every test's, and
                # another's COPY (pg_dump's, another move's) sent the signal too early
                copying = watcher.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY%'"
                    " AND pid <> pg_backend_pid() AND datname = current_database()"
                ).fetchone()
                if (copying and copying[0]) or mover.poll() is not None:
                    break
                time.sleep(0.05)
        assert mover.poll() is None, "the move ended before it could be interrupted"
        mover.send_signal(signal.SIGINT)
        out, err = mover.communicate(timeout=60)
    finally:
        if mover.poll() is None:
            mover.kill()
    assert (mover.returncode, out) == (-signal.SIGINT, ""), err
    assert err.startswith("deberc-net move-store: interrupted: nothing was written into ")
    assert err.count("\n") == 1, err
    assert "accounts" not in _state(new_postgres_url)  # not even the schema is left


# (a key of the test's own: the migrations' lock is another)
COMMIT_HELD = 7331


@pytest.mark.timeout(120)
def test_ctrl_c_during_the_commit_says_it_may_be_written_and_how_to_know(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """Ctrl-C inside the final commit ended the command silently: whether PostgreSQL
    committed is not known there, and it says so and how to know. The interruption
    lands inside the commit for certain: a deferred trigger of the (migrated, empty)
    database makes the COMMIT wait for a lock the test holds until the signal."""
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    open_store(new_postgres_url).close()  # migrated, no rows: a database the move takes
    with psycopg.connect(new_postgres_url, autocommit=True) as holder:
        holder.execute(
            "CREATE FUNCTION held_commit() RETURNS trigger LANGUAGE plpgsql AS"
            f" $$ BEGIN PERFORM pg_advisory_xact_lock({COMMIT_HELD}); RETURN NULL; END $$"
        )
        holder.execute(
            "CREATE CONSTRAINT TRIGGER held_commit AFTER INSERT ON accounts"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION held_commit()"
        )
        holder.execute("SELECT pg_advisory_lock(%s)", (COMMIT_HELD,))
        argv = ["move-store", new_postgres_url, "--db", str(club)]
        mover = subprocess.Popen(
            [sys.executable, "-m", "deberc_net", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            for _ in range(1200):  # until its COMMIT waits for the lock
                committing = holder.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE query = 'COMMIT'"
                    " AND wait_event = 'advisory' AND datname = current_database()"
                ).fetchone()
                if (committing and committing[0]) or mover.poll() is not None:
                    break
                time.sleep(0.05)
            assert mover.poll() is None, "the move ended before its commit could be held"
            mover.send_signal(signal.SIGINT)
            out, err = mover.communicate(timeout=60)
        finally:
            if mover.poll() is None:
                mover.kill()
        holder.execute("SELECT pg_advisory_unlock(%s)", (COMMIT_HELD,))
        holder.execute("DROP TRIGGER held_commit ON accounts")
    assert (mover.returncode, out) == (-signal.SIGINT, ""), err
    assert err == (
        "deberc-net move-store: interrupted during the commit: the move into"
        f" {new_postgres_url} is written whole or not at all (one transaction), which of"
        " the two is not known here. Run the move again to know: it moves the club if"
        " nothing was written, or says that the database holds a club already (this"
        " move's)\n"
    )
    # (here the signal cancelled the waiting COMMIT: the move again, as it says, moves)
    again = run_cli(argv)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"moved {club} into {new_postgres_url} ")


def test_an_error_postgresql_answers_the_commit_with_says_nothing_was_written(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """An error PostgreSQL answers the COMMIT with was told as 'not known here', as a
    connection lost: PostgreSQL rolled the transaction back, and the move says what any
    failure says, 'failed and wrote nothing there', the error named. A deferred trigger
    of the (migrated, empty) database raises at the commit; the move again, the trigger
    gone, moves the club."""
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    open_store(new_postgres_url).close()  # migrated, no rows: a database the move takes
    with psycopg.connect(new_postgres_url, autocommit=True) as holder:
        holder.execute(
            "CREATE FUNCTION refused_commit() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'no commit today'; END $$"
        )
        holder.execute(
            "CREATE CONSTRAINT TRIGGER refused_commit AFTER INSERT ON accounts"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refused_commit()"
        )
    # the tables' rows (a sequence's setval is not undone by a rollback: PostgreSQL's)
    before = _state(new_postgres_url)
    sequences = {"match_numbers", "table_numbers"}
    argv = ["move-store", new_postgres_url, "--db", str(club)]
    done = run_cli(argv)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith(
        f"deberc-net move-store: the move into {new_postgres_url} failed and wrote nothing"
        " there: no commit today"
    )
    assert done.stderr.count("\n") == 1
    after = _state(new_postgres_url)
    assert {t: after[t] for t in after.keys() - sequences} == {
        t: before[t] for t in before.keys() - sequences
    }
    with psycopg.connect(new_postgres_url, autocommit=True) as holder:
        holder.execute("DROP TRIGGER refused_commit ON accounts")
    again = run_cli(argv)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"moved {club} into {new_postgres_url} ")


# a simple Query message 'Q' of "COMMIT" (its length counts itself and the NUL): how
# psycopg sends a commit
COMMIT_QUERY = b"Q" + (4 + len(b"COMMIT\0")).to_bytes(4, "big") + b"COMMIT\0"


class _CommitCutter:
    """A TCP proxy on loopback (port 0) to the PostgreSQL at ``upstream``: it passes the
    bytes both ways, and when a client sends COMMIT it closes both sides instead, the
    COMMIT never passed on: the connection lost at the commit, PostgreSQL rolling the
    transaction back. ``cut`` is set then."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.cut = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.sockets: list[socket.socket] = []
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def close(self) -> None:
        _shut(self.listener)  # (wakes the accepting thread)
        self.listener.close()
        for sock in self.sockets:
            _shut(sock)
        for thread in self.threads:
            thread.join(timeout=30)
        for sock in self.sockets:
            sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # the listener closed
                return
            server = socket.create_connection(self.upstream, timeout=30)
            server.settimeout(None)  # (the move may be quiet a while between queries)
            self.sockets += [client, server]
            for pump in (self._to_server, self._to_client):
                thread = threading.Thread(target=pump, args=(client, server), daemon=True)
                self.threads.append(thread)
                thread.start()

    def _to_server(self, client: socket.socket, server: socket.socket) -> None:
        tail = b""
        try:
            while data := _received(client):
                if COMMIT_QUERY in tail + data:
                    self.cut.set()
                    return
                server.sendall(data)
                tail = (tail + data)[-len(COMMIT_QUERY) :]
        except OSError:  # the server's side gone
            pass
        finally:  # either side ended: both (the other pump's recv wakes)
            _shut(client)
            _shut(server)

    def _to_client(self, client: socket.socket, server: socket.socket) -> None:
        try:
            while data := _received(server):
                client.sendall(data)
        except OSError:  # the client's side gone
            pass
        finally:
            _shut(client)
            _shut(server)


def _received(sock: socket.socket) -> bytes:
    """The next bytes from ``sock``; none once it is closed or shut down."""
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # (not connected any more)
        sock.shutdown(socket.SHUT_RDWR)


@pytest.mark.timeout(120)
def test_the_connection_lost_at_the_commit_says_it_may_be_written_and_how_to_know(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """The connection lost at the commit leaves no answer: PostgreSQL may have
    committed before it was lost, or never had the COMMIT. The move says so and how to
    know, the error named. A proxy between the move and PostgreSQL closes both sides at
    the COMMIT (so nothing was written, and the move again moves the club)."""
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    address = psycopg.conninfo.conninfo_to_dict(new_postgres_url)
    cutter = _CommitCutter((str(address["host"]), int(str(address["port"]))))
    try:
        through = new_postgres_url.replace(f":{address['port']}/", f":{cutter.port}/")
        done = run_cli(["move-store", through, "--db", str(club)])
    finally:
        cutter.close()
    assert cutter.cut.is_set()
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith("deberc-net move-store: a database error (")
    assert done.stderr.endswith(
        ") during the commit: the move into"
        f" {through} is written whole or not at all (one transaction), which of the two"
        " is not known here. Run the move again to know: it moves the club if nothing"
        " was written, or says that the database holds a club already (this move's)\n"
    )
    assert done.stderr.count("\n") == 1
    assert "accounts" not in _state(new_postgres_url)  # rolled back: not even the schema
    again = run_cli(["move-store", new_postgres_url, "--db", str(club)])
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"moved {club} into {new_postgres_url} ")


def test_the_settings_hint_names_the_file_however_its_path_is_written(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """The settings' db (read as its full path) and --db given as 'club.sqlite3' are one
    file: the hint to change the settings was left out when the two strings differed."""
    club = tmp_path / "club.sqlite3"
    _a_club(club)
    (tmp_path / "club.toml").write_text('[server]\ndb = "club.sqlite3"\n')
    argv = ["move-store", new_postgres_url, "--config", "club.toml", "--db", "club.sqlite3"]
    moved = run_cli(argv, cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    assert moved.stdout.endswith(
        f'\nclub.toml\'s db is {club} still: set db = "{new_postgres_url}" there, for'
        " serve and the other commands (or give them --db)\n"
    )
