"""An audit of docs/scaling.md against the code, in the order a server owner needs it:
pointing a server at PostgreSQL, moving a club there, the store and its tables, the
migrations, several servers on one database, then ``serve --workers N``. Each promise,
and (→) the tests that pin it: a module under tests/ and its tests, "here" for this
module's.

The picture ("Who owns what", "When a process dies")
    a dead server's running matches ended by a live one's heartbeat or a start: deals
    exportable, seedless; listed no winner, `server-lost`, the totals after the last
    stored deal; a clean stop lists its own, `shutdown`
    → store/test_store.py test_a_server_ends_only_its_own_matches_and_those_of_dead_servers,
      test_a_serving_open_ends_the_matches_an_earlier_run_left_running
    0.1.0's clean stops (migration 8, `old_stops`) listed once, in their place
    → store/test_store.py
      test_matches_an_old_clean_stop_left_unlisted_are_listed_once_in_their_place,
      test_an_old_stop_numbered_before_every_listed_match_is_listed_before_the_next,
      test_old_stops_finished_at_one_time_are_listed_in_the_order_of_their_numbers
    a ladder board's seatings withheld till its release; the database away
    → the tests the section names (store/test_store.py, server/test_reserve.py,
      store/test_stall_races.py, store/test_serve_stop_database_away.py)

Pointing a server at PostgreSQL
    `--db` or `[server] db` (`--config`, every one of the commands shown) takes a file
    or a libpq address; `postgres://` too
    → test_config_db.py (admin, records export, ladder run/table, serve: the file's db);
    → here: test_the_store_modules_the_document_lists_are_there_and_the_address_picks_one;
    → store/test_store.py (both backends, every store test)
    a database that cannot be reached stops `serve` at once with libpq's reason; the
    password shown as `***`
    → store/test_store.py test_an_unreachable_postgres_is_a_clear_error,
      test_a_logged_address_hides_the_password; store/test_workers.py
      test_workers_that_cannot_start_stop_their_parent;
    → here: test_a_database_that_cannot_be_reached_stops_serve_at_once_its_password_hidden
    the read-only commands end at once on a database that refuses or stops answering,
    one line, status 2 → store/test_ladder_table.py
    the SQLite file is created 0600 → store/test_store.py (st_mode & 0o777 == 0o600)
    the first server on an empty database creates the schema
    → store/test_store.py test_stores_opened_at_once_on_a_new_database_apply_each_migration_once

From SQLite to PostgreSQL (`move-store`)
    every promise of the section, the example's lines, refusals, Ctrl-C, the commit
    → store/test_move_store.py (listed in the document's own *Tests* paragraph)
    the steps' `backup` and `move-store` lines as written (`--config club.toml`), and
    the example's output line for line
    → here: test_the_move_how_to_runs_as_written_and_says_what_its_example_shows
    the example's `(schema 16)`: the code moved to schema 20 (migrations 17-20 came
    after the example was written): a slip, corrected to the schema this code moves a
    club to, and pinned → here: test_the_move_store_example_names_this_codes_schema

The store (its modules, `open_store`, the pool)
    the six modules of the table exist; `postgresql://` and `postgres://` open
    PostgreSQL, anything else an SQLite file; the pool's 4 connections
    → here: test_the_store_modules_the_document_lists_are_there_and_the_address_picks_one
    `recent_games` (limit 10, newest first, by name_key, its keys, `finished`'s form),
    `finished_match` (options; None running or unknown), `records()` (not a running
    match's), `max_match_number()`
    → here: test_what_a_store_offers_reads_as_the_document_says (both backends);
    → store/test_store.py test_recent_games_newest_first_for_any_writing_of_a_name,
      test_a_finished_match_is_found_by_its_id_with_or_without_deals,
      test_records_leave_running_matches_out
    each other method of the list → store/test_store.py and the tests the list names

What is in the database
    the tables listed are the schema's, no more, no fewer; PostgreSQL's counters are
    sequences of those names; records JSON text (not jsonb); `finished`/`created`
    timestamptz; salt and hash bytea; `matches.seq`, `ladder_games.seq`; `servers.plain`
    → here: test_the_tables_the_document_lists_are_the_schemas_own (both backends)
    the table left out the `ignores` table (migration 17, docs/protocol.md §5.21, every
    ignore list of a registered player): a slip, corrected (a row for it)
    each table's rows → store/test_move_store.py test_every_table_of_the_schema_is_moved_row_for_row

Migrations
    numbered 1, 2, 3 … with no gap, each with an SQLite and a PostgreSQL text
    → here: test_the_migrations_are_numbered_without_a_gap_each_for_both_backends;
    → store/test_store.py (applied == 1..LATEST)
    applied in order with their rows, atomically; once under servers started at once;
    a newer database refused; an old file adopted; `migrated` logged
    → the tests the section names (store/test_store.py, test_ladder_store.py,
      test_players_newest_matches.py), both backends

Several servers on one database
    match numbers 16 at a time: a restarted server's next match is m17
    → server/test_persistence.py (m{1 + MATCH_NUMBER_BLOCK}); store/test_serve_postgres.py;
    → here: test_the_numbers_the_document_states_are_the_codes (16, 32)
    heartbeat 5 s, dead after 30 s; under `--workers` 1 s and 5 s unless given
    → server/test_config.py test_workers_on_one_host_take_a_dead_worker_for_dead_in_seconds;
    → here: test_the_numbers_the_document_states_are_the_codes
    the rest (ids, heartbeats, ends of own matches, stalls, mutes)
    → the tests the section names (store/test_store.py, test_serve_postgres.py,
      test_stalled_server.py, test_stall_races.py, test_mutes_across_servers.py)

Every file and test the document cites (a reader's way to what pins a promise)
    → here: test_every_file_and_test_the_document_cites_is_there; two names of
    store/test_workers.py, `test_two_workers_one_lobby_play_watch_and_resume_across`
    and `test_a_worker_killed_its_tables_end_the_others_play_on`, were one test's,
    `test_two_workers_privacy_web_face_play_resume_and_a_worker_killed`: a slip,
    corrected

A PostgreSQL to try it on
    the how-to, run as written (its directory and port this run's; `apt-get` not run:
    the binaries there, `make postgresql` when not), the `serve --workers 2` it starts
    serving, the stop and `rm -rf` leaving nothing
    → here: test_the_howto_to_try_it_on_serves_workers_that_number_house_bots_apart

How the tests get PostgreSQL
    → store/postgres_server.py and conftest.py are it; a run killed mid-way leaves
      no server behind: tests/test_killed_run.py

`serve --workers N`
    `--workers` 1 by default; above 1 an SQLite `--db` refused, status 2
    → store/test_workers.py test_workers_above_one_need_postgresql
    a port in use refused in one line, status 2 → store/test_workers.py
    a worker restarted after `worker_restart_ms` (1 s) → here:
      test_the_numbers_the_document_states_are_the_codes; store/test_workers_restart.py
    the parent logs `listening` with the port once every worker listens; each worker's
    `worker_listening` says its own loopback `port` and the `shared_port`; only worker 0
    serves the web face (one `http_listening`); house bots numbered in each worker's
    stride (worker 0 of 2: house-random-1; worker 1: house-random-2)
    → here: test_the_howto_to_try_it_on_serves_workers_that_number_house_bots_apart;
    each worker's bus counted and logged as `bus_closed` ("Measured")
    → here: test_the_howto_to_try_it_on_serves_workers_that_number_house_bots_apart;
    → store/test_workers_limits.py (`listening` names the database; the two ports)
    an owner that lives but has not answered within `server_dead_ms` holds the line
    no longer, logged `answer_late`
    → store/test_workers_unanswered.py (the line taken);
    → here: test_a_line_not_answered_within_server_dead_ms_is_logged_answer_late
    a worker looks at its tables every 0.25 s; the bus's messages under 8000 bytes
    → here: test_the_numbers_the_document_states_are_the_codes;
    → server/test_bus_tables.py, server/test_bus_payloads.py (each message fits)
    an ignore list told as 12-hex-digit BLAKE2b digests (`ign`)
    → store/test_workers_ignore.py (the filter across workers);
    → here: test_an_ignore_list_crosses_the_bus_as_12_hex_digits_a_name
    drains, stops, restarts, deaths, the bus, the start-up order, logins across
    → the tests the section names, each (store/test_workers_*.py, server/test_node_*.py,
      server/test_bus_*.py)

The long bullets of `serve --workers N` (start-up order, the bus's messages, playing,
seeks and logins across workers, a worker's death, hosts apart, one worker restarted,
the parent killed, PostgreSQL going away, help/rematch/games across, "What differs from
one worker") and "Ratings under `--workers`": read promise by promise in
test_scaling_workers_doc_audit.py. "Several servers on one database" read promise by
promise: test_scaling_shared_doc_audit.py; "Distributed ladders":
tests/ladder/test_distributed_doc_audit.py. Not pinned: "Measured" and "What breaks
first" (bench figures: not pinned by tests, by their nature).
"""

from __future__ import annotations

import glob
import hashlib
import inspect
import json
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
import structlog
import trio

from deberc_net.hangup import drain
from deberc_net.server.cluster.bus import LOBBY, MAX_PAYLOAD
from deberc_net.server.cluster.looks import SNAPSHOT_S
from deberc_net.server.config import Config
from deberc_net.server.ignoring import IGNORE_MOST, digest
from deberc_net.server.lobby import MATCH_NUMBER_BLOCK
from deberc_net.server.store import name_key, open_store
from deberc_net.server.store.migrations import MIGRATIONS
from deberc_net.server.store.postgres import PostgresStore
from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.table_numbers import AHEAD
from tests.ladder.helpers import run_cli
from tests.server.client import LineClient, log_in_machine

from .postgres_server import shared_tmp
from .records import deal, finish, opened
from .workers import (
    OTHER,
    SETTINGS,
    heard_one,
    served_workers,
    settings_file,
    told_table,
    until_listed,
    worker_and_bus,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "scaling.md").read_text()


def _section(heading: str) -> str:
    start = DOC.index(f"\n## {heading}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end]


@pytest.mark.timeout(60)
def test_a_database_that_cannot_be_reached_stops_serve_at_once_its_password_hidden() -> None:
    """§Pointing a server at PostgreSQL: `serve` on a database that cannot be reached
    stops at once with libpq's reason, the address shown with its password as `***`
    (one line, status 2, no traceback): a plain `serve` here, in this process (its
    status and its lines as a process's); `serve --workers 2` alike in
    store/test_workers.py (test_workers_that_cannot_start_stop_their_parent), whose
    processes are what it is about."""
    closed = socket.socket()  # a port nothing listens on: no database there
    closed.bind(("127.0.0.1", 0))
    url = f"postgresql://ann:s3cret@127.0.0.1:{closed.getsockname()[1]}/club"
    shown = url.replace(":s3cret@", ":***@")
    kept = {signum: signal.getsignal(signum) for signum in drain()}  # serve holds these
    try:  # (in the main thread: serve sets signal handlers)
        ended = run_cli(["serve", "--port", "0", "--http-port", "off", "--db", url])
    finally:
        closed.close()
        for signum, handler in kept.items():
            signal.signal(signum, handler)
    said = ended.stdout + ended.stderr
    assert ended.returncode == 2 and "Traceback" not in said, said
    assert "s3cret" not in said
    last = ended.stderr.strip().splitlines()[-1]
    assert last.startswith(f"deberc-net serve: cannot connect to PostgreSQL at {shown}: ")
    assert "Connection refused" in last, last  # libpq's reason


def test_the_move_store_example_names_this_codes_schema() -> None:
    example = re.search(r"into postgresql://\S+ \(schema (\d+)\), in one transaction:", DOC)
    assert example is not None
    assert int(example[1]) == len(MIGRATIONS) == MIGRATIONS[-1].number


def test_the_move_how_to_runs_as_written_and_says_what_its_example_shows(
    tmp_path: Path, new_postgres_url: str
) -> None:
    """§From SQLite to PostgreSQL: the steps' `backup` and `move-store` lines, run as
    written from the club's directory (the file, backup and database this test's), and
    what `move-store` prints line for line as the example shows it (its numbers and
    elisions aside)."""
    block = _section("From SQLite to PostgreSQL").split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [x.split("  #")[0].strip() for x in block.splitlines() if x.startswith("deberc")]
    said = [x.removeprefix("# ") for x in block.splitlines() if x.startswith("# ")]
    example_db, example_url = "/etc/deberc/club.sqlite3", "postgresql://deberc@db.example/deberc"
    club, backup = tmp_path / "club.sqlite3", tmp_path / "club-before-the-move.sqlite3"
    store = open_store(str(club))
    try:
        assert store.add_account("ann", b"salt", b"hash")
        assert store.add_account("bob", b"salt", b"hash")  # (the example's "rows")
    finally:
        store.close()
    (tmp_path / "club.toml").write_text(f'[server]\ndb = "{club}"\n')

    def as_here(line: str) -> str:
        return (
            line.replace("/var/backups/club-before-the-move.sqlite3", str(backup))
            .replace(example_db, str(club))
            .replace(example_url, new_postgres_url)
        )

    backup_line, move_line, serve_line = commands
    assert serve_line == "deberc-net serve --workers 2 --config club.toml"
    done = run_cli(shlex.split(as_here(backup_line))[1:], cwd=tmp_path)
    assert done.returncode == 0 and backup.is_file(), done.stderr
    moved = run_cli(shlex.split(as_here(move_line))[1:], cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    out = moved.stdout.splitlines()
    for shown in said:
        if shown.strip() == "…":
            continue
        pattern = re.escape(as_here(shown)).replace("…", ".*")
        pattern = re.sub(r"\d[\d,]*", r"\\d[\\d,]*", pattern)  # any count: this club's
        assert any(re.fullmatch(pattern, line) for line in out), (shown, out)


def test_the_migrations_are_numbered_without_a_gap_each_for_both_backends() -> None:
    assert [m.number for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert all(m.sqlite.strip() and m.postgres.strip() for m in MIGRATIONS)


def test_the_store_modules_the_document_lists_are_there_and_the_address_picks_one(
    tmp_path: Path, postgres_url: str
) -> None:
    listed = re.findall(r"^\| `(\w+\.py)` \|", _section("The store"), re.M)
    assert sorted(listed) == sorted(
        [
            "base.py",
            "sqlite.py",
            "postgres.py",
            "migrations.py",
            "gone.py",
            "move.py",
            "__init__.py",
        ]
    )
    assert all((ROOT / "deberc_net" / "server" / "store" / name).is_file() for name in listed)
    assert inspect.signature(PostgresStore).parameters["pool_size"].default == 4
    short = postgres_url.replace("postgresql://", "postgres://", 1)
    for db, kind in [(postgres_url, PostgresStore), (short, PostgresStore)]:
        store = open_store(db)
        try:
            assert isinstance(store, kind)
        finally:
            store.close()
    store = open_store(str(tmp_path / "club.sqlite3"))
    try:
        assert isinstance(store, SQLiteStore)
    finally:
        store.close()


def test_what_a_store_offers_reads_as_the_document_says(store_db: str) -> None:
    """§The store's list: `recent_games(name, limit=10)` newest first, by `name_key`,
    with the keys it names and `finished` as `YYYY-MM-DD HH:MM:SS`; `finished_match`
    that row with its `options`, `None` for a match unknown or still running;
    `records()` every stored deal but a running match's, in the order stored;
    `max_match_number()` the highest `m<N>` stored."""
    store = opened(store_db)
    try:
        for n in range(1, 13):
            store.add_deal(deal(f"m{n}", 1))
            finish(store, f"m{n}", ["ann", "bob"], winner="ann")
        store.add_deal(deal("m13", 1))  # m13 still running
        games = store.recent_games("ANN")  # the name in any writing of it
        assert [g["match"] for g in games] == [f"m{n}" for n in range(12, 2, -1)]
        assert {"match", "table", "players", "variant", "winner", "reason", "totals"} <= set(
            games[0]
        )
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", games[0]["finished"])
        assert len(store.recent_games("ann", limit=3)) == 3
        first = store.finished_match("m1")
        assert first is not None and first["options"] == ["to-301"]
        assert store.finished_match("m13") is None and store.finished_match("m99") is None
        assert [json.loads(r)["match"] for r in store.records()] == [f"m{n}" for n in range(1, 13)]
        assert store.max_match_number() == 13
    finally:
        store.close()


def _listed_tables() -> set[str]:
    return set(re.findall(r"^\| `(\w+)` \|", _section("What is in the database"), re.M))


COUNTERS = {"match_numbers", "table_numbers"}  # SQLite's tables, PostgreSQL's sequences


def test_the_tables_the_document_lists_are_the_schemas_own(store_db: str) -> None:
    open_store(store_db).close()  # an SQLite file made, a database as a first open leaves it
    listed = _listed_tables()
    assert listed >= COUNTERS and "schema_migrations" in listed
    if not store_db.startswith("postgresql://"):
        with sqlite3.connect(store_db) as con:
            rows = con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            ).fetchall()
            plain = {r[1] for r in con.execute("PRAGMA table_info(servers)")}
        assert {r[0] for r in rows} == listed
        assert "plain" in plain
        return
    with psycopg.connect(store_db) as con:
        tables = {
            r[0]
            for r in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        }
        sequences = {
            r[0]
            for r in con.execute(
                "SELECT sequence_name FROM information_schema.sequences"
                " WHERE sequence_schema = 'public'"
            )
        }
        types = {
            (r[0], r[1]): r[2]
            for r in con.execute(
                "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = 'public'"
            )
        }
    assert tables == listed - COUNTERS
    assert sequences >= COUNTERS
    assert types[("deals", "record")] == "text"  # JSON text, not jsonb
    assert types[("matches", "finished")] == "timestamp with time zone"
    assert types[("accounts", "created")] == "timestamp with time zone"
    assert types[("accounts", "salt")] == types[("accounts", "hash")] == "bytea"
    assert ("matches", "seq") in types and ("ladder_games", "seq") in types
    assert types[("servers", "plain")] == "boolean"


def test_the_numbers_the_document_states_are_the_codes() -> None:
    several = _section("Several servers on one database")
    assert "16 at a time" in several and MATCH_NUMBER_BLOCK == 16
    assert "numbers its next match `m17`" in several
    assert "`heartbeat_ms`\n  (5 s)" in several and "`server_dead_ms` (30 s)" in several
    defaults = Config()
    assert (defaults.heartbeat_ms, defaults.server_dead_ms) == (5000, 30000)
    workers = _section("`serve --workers N`: one port, one lobby")
    assert "started again after 1 s (`worker_restart_ms`" in workers
    assert defaults.worker_restart_ms == 1000
    assert "(1 s, docs/settings.md)" in workers and defaults.seek_patience_ms == 1000
    assert "drawn 32 at a\n  time ahead of need" in workers and AHEAD == 32
    assert "looks at its own tables every\n  0.25 s" in workers and SNAPSHOT_S == 0.25
    assert "PostgreSQL's 8000-byte limit" in workers and MAX_PAYLOAD < 8000


def test_every_file_and_test_the_document_cites_is_there() -> None:
    """A reader follows the document's `tests/…py::test_…` and bench names to what pins a
    promise: each must be there, not a name a test had before it was merged."""
    files = set(re.findall(r"((?:tests|bench|deberc_net)/[\w/]+\.py)", DOC))
    assert files and all((ROOT / f).is_file() for f in files), sorted(
        f for f in files if not (ROOT / f).is_file()
    )
    defined = {
        m
        for path in (ROOT / "tests").rglob("*.py")
        for m in re.findall(r"^(?:async )?def (test_\w+)", path.read_text(), re.M)
    }
    modules = {Path(f).stem for f in files}
    cited = set(re.findall(r"\b(test_\w+)\b", DOC)) - modules
    assert cited and cited <= defined, sorted(cited - defined)


def _howto() -> list[str]:
    """The lines of the how-to of "A PostgreSQL to try it on", a continued line joined."""
    block = _section("A PostgreSQL to try it on").split("```sh\n", 1)[1].split("```", 1)[0]
    return block.replace("\\\n", "").splitlines()


def _as_written(line: str, scratch: Path, port: int) -> str:
    """A line of the how-to for this run: its scratch directory and port (the document
    says any will do), and, not as root, without `su` and `chown` (as it says too)."""
    line = line.split("  #")[0].replace("/tmp/deberc-pg", str(scratch)).replace("5433", str(port))
    if os.geteuid() != 0:
        line = re.sub(r'su postgres -s /bin/sh -c "(.*)"', r"\1", line)
        line = line.replace(f" && chown postgres {scratch}", "")
    return line


@pytest.mark.timeout(150)  # its fail_after(110), then the workers' and PostgreSQL's stop
async def test_the_howto_to_try_it_on_serves_workers_that_number_house_bots_apart(
    tmp_path: Path,
) -> None:
    """ "A PostgreSQL to try it on", run as written (but `apt-get`: the binaries are
    there or the test is skipped, as the PostgreSQL tests are), and the `serve --workers
    2` it starts: the parent's `listening` comes once every worker listens; only worker
    0 serves the web face (its `http_listening` the only one); worker 0 of 2 names its
    first house bot `house-random-1`, worker 1 `house-random-2` (each its own stride,
    so no two bots share a name); each bus logs its counts at the stop."""
    workers_doc = _section("`serve --workers N`: one port, one lobby")
    assert "worker 0 of 2:\n`house-random-1`, `-3`, `-5` …; worker 1: `-2`, `-4` …" in workers_doc
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI must run the PostgreSQL tests: no initdb")
        pytest.skip("no PostgreSQL binaries (make postgresql)")
    lines = _howto()
    assert lines[0].startswith("apt-get install postgresql ")
    [serve_line] = [x for x in lines if " serve " in x]
    assert serve_line == (
        ".venv/bin/deberc-net serve --workers 2 --db postgresql://deberc@127.0.0.1:5433/deberc"
    )
    # the doc's "any scratch directory the `postgres` user may write": not under make
    # test's TMPDIR, root's own 0700 directory, which that user cannot enter
    scratch = Path(shared_tmp()) / f"deberc-pg-{uuid.uuid4().hex[:8]}"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    start, stop = lines[1 : lines.index(serve_line)], lines[lines.index(serve_line) + 1 :]
    assert len(stop) == 2 and "pg_ctl" in stop[0] and stop[1].startswith("rm -rf ")

    def sh(script: list[str]) -> subprocess.CompletedProcess[str]:
        text = "\n".join(["set -e"] + [_as_written(x, scratch, port) for x in script])
        return subprocess.run(["sh", "-c", text], capture_output=True, text=True, timeout=60)

    settings = settings_file(tmp_path, SETTINGS + "http_port = 0\n")
    opened: list[LineClient] = []
    try:
        started = await trio.to_thread.run_sync(sh, start)
        assert started.returncode == 0, started.stderr
        url = f"postgresql://deberc@127.0.0.1:{port}/deberc"  # the serve line's, this run's
        assert _as_written(serve_line, scratch, port).endswith(f"--db {url}")
        with trio.fail_after(110):
            async with served_workers(url, settings) as workers:
                try:
                    names = {}
                    for worker in (1, 0):  # worker 1 first: its -2 is no skip of worker 0's -1
                        client = await workers.connect(worker, f"host{worker}")
                        opened.append(client)
                        await client.send("new 2")
                        await client.expect("ok", cmd="sit")
                        await client.send("bot random")
                        names[worker] = (await client.expect("ok", cmd="bot"))["name"]
                    assert names == {0: "house-random-1", 1: "house-random-2"}
                    for client in opened:
                        await client.send("leave!")
                finally:
                    for client in opened:
                        await client.aclose()
                events = [e.get("event") for e in workers.events]
                ready = [i for i, e in enumerate(events) if e == "worker_listening"]
                assert len(ready) == 2 and events.index("listening") > max(ready)
                [web] = [e for e in workers.events if e.get("event") == "http_listening"]
                assert web["port"] != workers.port
        # stopped (SIGTERM): each worker's bus logs what it carried, `bus_closed` (the
        # figures of "Measured" count them)
        closed = [e for e in workers.events if e.get("event") == "bus_closed"]
        assert sorted(e["worker"] for e in closed) == [0, 1]
        assert all(e["published"] > 0 and e["heard"] > 0 and e["kinds"] for e in closed), closed
    finally:
        stopped = await trio.to_thread.run_sync(sh, [lines[1], *stop])  # PG=…, then the stop
        if stopped.returncode != 0 and not (scratch / "data" / "postmaster.pid").exists():
            shutil.rmtree(scratch, ignore_errors=True)  # (no server there: a failed start)
    assert stopped.returncode == 0 and "server stopped" in stopped.stdout, stopped.stderr
    assert not scratch.exists()  # its data gone with it


def test_an_ignore_list_crosses_the_bus_as_12_hex_digits_a_name() -> None:
    """§Playing across workers: `ign` gives each name key as 12 hex digits of its
    BLAKE2b digest, so that 100 long names fit in a message (a whole list of long
    Cyrillic names did not)."""
    doc = _section("`serve --workers N`: one port, one lobby")
    assert "each name key as 12 hex digits of its BLAKE2b digest, so that 100 long names" in (
        " ".join(doc.split())
    )
    names = [f"{'Щ' * 30}{n}" for n in range(IGNORE_MOST)]  # long, two bytes a letter
    told = [digest(name_key(n)) for n in names]
    assert IGNORE_MOST == 100 and len(set(told)) == 100
    assert all(re.fullmatch(r"[0-9a-f]{12}", d) for d in told)
    key = name_key(names[0])
    assert told[0] == hashlib.blake2b(key.encode(), digest_size=6).hexdigest()
    # the list leaves most of a notification to what it travels with
    assert len(json.dumps({"ign": sorted(told)}).encode()) < MAX_PAYLOAD // 4


@pytest.mark.timeout(60)  # its fail_after(40), then its clean-up
async def test_a_line_not_answered_within_server_dead_ms_is_logged_answer_late(
    postgres_url: str,
) -> None:
    """§Playing across workers: an owner that lives (it beats) but never says it
    answered does not hold the player's input past `server_dead_ms`: his next line is
    taken, and the log says `answer_late` (warning) with the session and the owner.
    (That the line is taken, and the owner not waited for again:
    store/test_workers_unanswered.py; the log's name is this test's.)"""
    heard: list[dict[str, Any]] = []
    table = 5000
    with structlog.testing.capture_logs() as logs, trio.fail_after(40):
        async with (
            worker_and_bus(postgres_url, heard, OTHER, dead_ms=1000) as (port, owner),
            trio.open_nursery() as nursery,
        ):

            async def beat() -> None:
                while True:
                    owner.publish(
                        LOBBY,
                        {"k": "tables", "open": [told_table(table, ["amy", None])], "gone": []},
                    )
                    await trio.sleep(0.25)

            nursery.start_soon(beat)
            bob = await log_in_machine(await LineClient.connect(port), "bob")
            await until_listed(bob, "tables", f"id={table} ")
            await bob.send_raw(f"sit {table}\nping\n".encode())
            asked = await heard_one(heard, k="post", m="sit", table=table)
            await bob.expect("ok", cmd="ping", timeout=30)
            await bob.aclose()
            nursery.cancel_scope.cancel()
    late = [e for e in logs if e["event"] == "answer_late"]
    assert late and late[0]["log_level"] == "warning"
    assert late[0]["owner"] == OTHER and late[0]["session"] == asked["s"]
