"""End to end on PostgreSQL: ``deberc-net serve --db postgresql://…`` over real sockets;
a game's account, history and records outlive the server, as with the SQLite file. Where
a test is about the server and its store, not about its process (no signal, no kill),
the server runs in the test's process (``running_server``): a Python start-up saved."""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import psycopg
import pytest
import structlog
import structlog.testing
import trio

from deberc_net.server.lobby import MATCH_NUMBER_BLOCK
from deberc_net.server.web import ladders as web_ladders
from tests.ladder.helpers import run_cli
from tests.server.client import LineClient, fields, play_machine, seat_pair
from tests.server.conftest import Connector, make_config, running_server

TIME_LIMIT_S = 30


async def _deberc(*args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    done = await trio.run_process(
        [sys.executable, "-m", "deberc_net", *args],
        stdin=stdin,
        capture_stdout=True,
        capture_stderr=True,
        check=False,
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


async def _deberc_here(*args: str) -> tuple[int, str, str]:
    """As ``_deberc``, with the command's own ``main`` in this process (a thread of its
    own: it runs its own trio loop), where the test is about what it reads or stores in
    PostgreSQL, not about its process."""
    done = await trio.to_thread.run_sync(run_cli, args)
    return done.returncode, done.stdout, done.stderr


@asynccontextmanager
async def served(url: str, settings: Path) -> AsyncIterator[int]:
    """``deberc-net serve`` in its own process on a free port; SIGTERM at the end."""
    async with served_process(url, settings) as (port, _):
        yield port


@asynccontextmanager
async def served_process(url: str, settings: Path) -> AsyncIterator[tuple[int, trio.Process]]:
    """As ``served``, with the process (a test may kill it: then it is not stopped)."""
    async with trio.open_nursery() as nursery:
        command = [
            sys.executable,
            "-m",
            "deberc_net",
            "serve",
            "--db",
            url,
            "--port",
            "0",
            "--config",
            str(settings),
        ]
        process = await nursery.start(
            functools.partial(trio.run_process, command, stderr=subprocess.PIPE, check=False)
        )
        assert process.stderr is not None
        port = None
        buffered = b""
        with trio.fail_after(TIME_LIMIT_S):
            while port is None:
                chunk = await process.stderr.receive_some()
                assert chunk, f"the server ended before listening: {buffered!r}"
                buffered += chunk
                *lines, buffered = buffered.split(b"\n")
                for line in lines:
                    assert line.startswith(b"{"), f"not a log line: {line!r}"
                    entry = json.loads(line)
                    if entry.get("event") == "listening":
                        port = int(entry["port"])
        nursery.start_soon(_drain, process.stderr)
        try:
            yield port, process
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with trio.fail_after(TIME_LIMIT_S):
                    assert await process.wait() == 0


async def _drain(stream: trio.abc.ReceiveStream) -> None:
    while await stream.receive_some():
        pass


async def test_serve_on_postgres_keeps_accounts_and_games_across_a_restart(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = tmp_path / "server.toml"
    settings.write_text("[server]\nlag_ms = 0\nshutdown_grace_ms = 100\n")
    connect = Connector()
    try:
        async with served(postgres_url, settings) as port:
            ann = await connect.machine(port, "ann", "s3cret-pass")  # registers
            assert ann.lines[-1].startswith("ok cmd=login name=ann guest=0")
            bob = await connect.machine(port, "bob")
            await seat_pair(ann, bob, "2 to-301")
            ends: list[str] = []

            async def run(client: LineClient, seed: int) -> None:
                ends.append(await play_machine(client, random.Random(seed), timeout=20))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(run, ann, 1)
                nursery.start_soon(run, bob, 2)
            end = fields(ends[0])[1]
            live = [json.loads(fields(x)[1]["text"]) for x in ann.lines if x.startswith("record ")]
        await connect.aclose()

        with psycopg.connect(postgres_url) as conn:  # a salted hash, never the password
            row = conn.execute("SELECT salt, hash FROM accounts WHERE name = 'ann'").fetchone()
        assert row is not None and b"s3cret" not in bytes(row[1])

        code, out, err = await _deberc_here("records", "export", "--db", postgres_url)
        assert code == 0, err
        stored = [json.loads(line) for line in out.splitlines()]
        assert len(stored) == len(live) >= 1
        assert all(r["seed"] == f"{end['seed']}/{r['deal_no']}" for r in stored)

        async with served(postgres_url, settings) as port:
            wrong = await connect.raw(port, "wrong")
            await wrong.send("style machine")
            await wrong.expect("ok", cmd="style")
            await wrong.send("login ann not-it")
            await wrong.expect("error", code="bad-password")
            again = await connect.machine(port, "ann", "s3cret-pass")
            await again.send("games")
            assert (await again.expect("games", name="ann"))["count"] == "1"
            game = await again.expect("game")
            assert game["match"] == "m1" and game["winner"] == end["name"]
            assert game["totals"] == end["totals"]
            carl = await connect.machine(port, "carl")
            await seat_pair(again, carl)
            # the restarted server draws the block after the first one's (m1 and the
            # rest of its block unused)
            start = await carl.expect("event", kind="start")
            assert start["match"] == f"m{1 + MATCH_NUMBER_BLOCK}"
    finally:
        await connect.aclose()


async def test_admin_and_export_take_a_postgres_address(postgres_url: str) -> None:
    # 'admin' in its own process (its password read from a real pipe); the exports, about
    # what they read from the address, in this one (#8: a Python start-up each saved)
    code, out, err = await _deberc("admin", "boss", "--db", postgres_url, stdin=b"pw-of-boss\n")
    assert code == 0, err
    assert "boss is registered in postgresql://postgres@127.0.0.1:" in out
    code, out, err = await _deberc_here("records", "export", "--db", postgres_url)
    assert (code, out) == (0, "")
    nowhere = postgres_url.rsplit(":", 1)[0] + ":1/nowhere"
    code, out, err = await _deberc_here("records", "export", "--db", nowhere)
    assert code == 2 and "cannot connect to PostgreSQL" in err


async def test_a_ladder_keeps_its_results_and_records_in_postgres(postgres_url: str) -> None:
    bots = [f"--bot=rand{n}=py:clients.random_bot --seed {n}" for n in (1, 2)]
    code, out, err = await _deberc_here(
        "ladder", "run", *bots, "--deals", "1", "--seed", "pg", "--db", postgres_url, "--json"
    )
    assert code == 0, err[-2000:]
    summary = json.loads(out)
    code, out, err = await _deberc_here("ladder", "table", "--db", postgres_url, "--json")
    assert code == 0, err
    board = json.loads(out)
    assert sorted(r["bot"] for r in board) == ["rand1", "rand2"]
    assert summary["games"] == 2  # one board, both seatings: each bot in each game
    assert all(r["games"] == 2 for r in board)
    rated = {r["bot"]: r["rating"] for r in summary["ratings"]}
    assert {r["bot"]: r["rating"] for r in board} == pytest.approx(rated)
    code, out, err = await _deberc_here("records", "export", "--db", postgres_url)
    assert code == 0, err
    assert len(out.splitlines()) >= 2  # both seatings' deals, seeds filled in
    assert all(json.loads(line)["seed"] for line in out.splitlines())
    # the web face's ladder pages read the same results from PostgreSQL
    shown = web_ladders.ladders(postgres_url)
    assert shown.leaderboard == board and [r.summary for r in shown.runs] == [summary]
    found = web_ladders.ladder_run(postgres_url, shown.runs[0].id)  # (its first page)
    assert found is not None and len(found.run.games) == found.paged.count == summary["games"]
    kept = web_ladders.KeptPlots(web_ladders.KEPT_PLOTS_BYTES)
    plot = await web_ladders.finished_plot(postgres_url, found.run, kept)  # (all its games)
    assert plot is not None and plot == web_ladders.elo_plot(found.run)


async def _play_a_deal(a: LineClient, b: LineClient) -> str:
    """Seat ``a`` and ``b`` in a match to 301 and play its first deal; the match id."""
    await seat_pair(a, b, "2 to-301")
    await _play_on(a, b)
    (start,) = [fields(x)[1] for x in a.lines if x.startswith("event ") and "kind=start" in x]
    return start["match"]


async def _play_on(a: LineClient, b: LineClient) -> None:
    """Play until the next deal's record."""
    async with trio.open_nursery() as nursery:

        async def play(client: LineClient, seed: int) -> None:
            await play_machine(client, random.Random(seed), stop=lambda x: x.startswith("record "))
            nursery.cancel_scope.cancel()

        nursery.start_soon(play, a, 1)
        nursery.start_soon(play, b, 2)


def _execute(url: str, statement: str) -> None:
    """One statement on the server's database, behind its back."""
    with psycopg.connect(url) as conn:
        conn.execute(statement)


def _running(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        return {r[0] for r in conn.execute("SELECT match_id FROM running")}


async def _until_running(url: str, matches: set[str]) -> None:
    """Wait until the running matches are ``matches``: a deal told is queued for the
    store and on disk a moment later (server/store_writer.py)."""
    with trio.fail_after(30):
        while await trio.to_thread.run_sync(_running, url) != matches:
            await trio.sleep(0.05)


async def test_two_servers_on_one_database_number_matches_apart_and_end_only_their_own(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = tmp_path / "server.toml"
    # the players sit idle while the test kills a server and exports (seconds under load):
    # a clock long enough that no automatic call moves their deal on meanwhile
    settings.write_text(
        "[server]\nlag_ms = 0\nshutdown_grace_ms = 100\nheartbeat_ms = 100\nserver_dead_ms = 1500\n"
        "bot_clock_ms = 600000\n"
    )
    connect = Connector()
    try:
        async with served_process(postgres_url, settings) as (first, first_process):
            ann, bob = await connect.machine(first, "ann"), await connect.machine(first, "bob")
            on_first = await _play_a_deal(ann, bob)
            await _until_running(postgres_url, {on_first})
            async with served(postgres_url, settings) as second:
                # the second server's start left the first one's running match alone
                assert _running(postgres_url) == {on_first}
                carl = await connect.machine(second, "carl")
                dan = await connect.machine(second, "dan")
                on_second = await _play_a_deal(carl, dan)
                # drawn from the store, a block each: the first of each
                assert {on_first, on_second} == {"m1", f"m{1 + MATCH_NUMBER_BLOCK}"}
                await _until_running(postgres_url, {on_first, on_second})
                code, out, _ = await _deberc_here("records", "export", "--db", postgres_url)
                assert (code, out) == (0, "")  # both withheld while they run

                first_process.kill()  # SIGKILL: no goodbye to the store
                await first_process.wait()
                with trio.fail_after(30):  # the second sees its heartbeat stop
                    while _running(postgres_url) != {on_second}:
                        await trio.sleep(0.1)
                code, out, _ = await _deberc_here("records", "export", "--db", postgres_url)
                (record,) = [json.loads(line) for line in out.splitlines()]
                assert record["match"] == on_first and record["seed"] is None
                await _play_on(carl, dan)  # the second server plays on
                assert _running(postgres_url) == {on_second}
    finally:
        await connect.aclose()


async def test_a_server_plays_on_while_its_heartbeat_cannot_be_stored(postgres_url: str) -> None:
    config = make_config(postgres_url, shutdown_grace_ms=100, heartbeat_ms=100)
    connect = Connector()

    def beats() -> list[object]:
        with psycopg.connect(postgres_url) as conn:
            return [r[0] for r in conn.execute("SELECT heartbeat FROM servers")]

    try:
        # in this process: the server failing would fail the block (its nursery's)
        with structlog.testing.capture_logs() as logged:
            async with running_server(config) as port:
                # heartbeats fail while it is away: two seen failing, not a 0.5 s wait
                # (in which a loaded machine may try none)
                away = "ALTER TABLE servers RENAME TO servers_away"
                await trio.to_thread.run_sync(_execute, postgres_url, away)
                with trio.fail_after(30):
                    while sum(e["event"] == "heartbeat_failed" for e in logged) < 2:
                        await trio.sleep(0.05)
                ann = await connect.machine(port, "ann")
                await ann.send("who")
                await ann.expect("who")
                back = "ALTER TABLE servers_away RENAME TO servers"
                await trio.to_thread.run_sync(_execute, postgres_url, back)
                (before,) = await trio.to_thread.run_sync(beats)
                with trio.fail_after(30):  # and the heartbeat resumes
                    while await trio.to_thread.run_sync(beats) == [before]:
                        await trio.sleep(0.05)
    finally:
        await connect.aclose()


async def test_a_table_whose_match_number_cannot_be_drawn_closes_and_the_server_plays_on(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = tmp_path / "server.toml"
    settings.write_text("[server]\nlag_ms = 0\nshutdown_grace_ms = 100\n")
    connect = Connector()
    try:
        async with served_process(postgres_url, settings) as (port, process):
            ann = await connect.machine(port, "ann")
            _execute(postgres_url, "ALTER SEQUENCE match_numbers RENAME TO match_numbers_away")
            await ann.send("new 2")
            await ann.expect("error")  # the table closed at once: ann is not seated
            await ann.send("who")
            await ann.expect("who", names="ann")
            _execute(postgres_url, "ALTER SEQUENCE match_numbers_away RENAME TO match_numbers")
            await ann.send("new 2")
            assert (await ann.expect("ok", cmd="sit"))["table"] == "2"
            assert process.returncode is None
    finally:
        await connect.aclose()


def _workers_command_lines(settings: Path, *args: str, env: dict[str, str]) -> list[str]:
    """The command lines /proc shows of ``serve --workers 2 … ARGS`` and of its two
    workers, read once it listens; it is stopped (SIGTERM) after."""
    command = [sys.executable, "-m", "deberc_net", "serve", "--workers", "2", "--port", "0"]
    command += ["--http-port", "off", "--config", str(settings), *args]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stderr is not None
        listening = 0
        for line in process.stderr:  # (the test's time limit bounds the wait)
            said = json.loads(line)
            listening += said["event"] == "worker_listening"
            if listening == 2:
                break
        else:
            raise AssertionError(f"serve stopped before it listened ({process.wait()})")
        proc = Path(f"/proc/{process.pid}")
        workers = " ".join(p.read_text() for p in proc.glob("task/*/children")).split()
        assert len(workers) == 2, workers
        return [
            Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
            for pid in (process.pid, *workers)
        ]
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=TIME_LIMIT_S)


@pytest.mark.timeout(90)
def test_a_password_file_keeps_the_password_off_the_command_line(
    postgres_url: str, tmp_path: Path
) -> None:
    """docs/security.md, "A PostgreSQL password": a password in '--db postgresql://…'
    shows in /proc/PID/cmdline of 'serve' and of each of its forked workers; the page's
    way, the address in the settings file and the password in the file PGPASSFILE
    names, shows none, and the server serves. (The suite's PostgreSQL trusts its
    loopback: the password is not checked there, only where it is shown.)"""
    page = (Path(__file__).parents[2] / "docs" / "security.md").read_text()
    section = page.split('<a id="a-postgresql-password"></a>', 1)[1].split("\n- ", 1)[0]
    table = section.split("```toml\n", 1)[1].split("```", 1)[0]
    assert table.splitlines()[0].strip() == "[server]"
    documented = psycopg.conninfo.conninfo_to_dict(table.split('"')[1])
    assert "password" not in documented and "PGPASSFILE=" in section
    parts = psycopg.conninfo.conninfo_to_dict(postgres_url)
    secret = "s3cret-pass"
    with_password = (
        f"postgresql://{parts['user']}:{secret}@{parts['host']}:{parts['port']}/{parts['dbname']}"
    )
    settings = tmp_path / "club.toml"
    settings.write_text("[server]\nshutdown_grace_ms = 100\n")
    lines = _workers_command_lines(settings, "--db", with_password, env=dict(os.environ))
    assert all(secret in line for line in lines), lines  # the parent's and its workers'
    settings.write_text(f'[server]\ndb = "{postgres_url}"\nshutdown_grace_ms = 100\n')
    passfile = tmp_path / "pgpass"
    passfile.write_text(
        f"{parts['host']}:{parts['port']}:{parts['dbname']}:{parts['user']}:{secret}\n"
    )
    passfile.chmod(0o600)
    env = {**os.environ, "PGPASSFILE": str(passfile)}
    lines = _workers_command_lines(settings, env=env)
    assert not any(secret in line or "postgresql" in line for line in lines), lines
