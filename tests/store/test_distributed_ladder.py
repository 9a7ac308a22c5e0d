"""A distributed ladder on a real PostgreSQL server: ``ladder run --distributed`` queues
the boards, two ``ladder worker`` processes play them, one is SIGKILLed holding a board;
the results equal those of a single-machine ladder with the same seed."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from deberc_net.ladder.distributed import DISTRIBUTED_INTERRUPTED
from deberc_net.ladder.queue import BoardQueue
from tests.hangup import as_from_a_terminal
from tests.ladder.helpers import GONE, HEUR, PY, RAND, ladder, ladder_argv, run_cli, summary
from tests.store.distributed import ladder_worker, query, queued, wait_for

TIME_LIMIT_S = 45  # under pytest's own limit


def test_two_workers_one_killed_mid_board_give_the_results_of_a_local_run(
    postgres_url: str, tmp_path: Path
) -> None:
    args: tuple[str, ...] = ("--bot", HEUR, "--bot", RAND, "--deals", "4", "--seed", "spread")
    args = (*args, "--concurrency", "1")
    args = (*args, "--json")
    local = summary(ladder(tmp_path, *args, db=tmp_path / "local.sqlite3", timeout=60))

    deadline = time.monotonic() + TIME_LIMIT_S
    run = subprocess.Popen(
        ladder_argv(postgres_url, *args, "--distributed"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # the first worker starts with the run, not once it has queued: each Python's start
    # (0.45 s of CPU to its first query) is most of this test's time on a loaded host
    # (40 s of its 45 at load 20, the two in turn), and it is killed, never done
    doomed = ladder_worker(postgres_url, tmp_path / "doomed.log", exit_when_done=False)
    workers: list[subprocess.Popen[str]] = [doomed]
    watches: list[psycopg.Connection[Any]] = []
    try:
        wait_for(
            "the boards to be queued",
            lambda: (
                query(postgres_url, "SELECT count(*) FROM ladder_boards")[0][0] == 4
                if query(postgres_url, "SELECT to_regclass('ladder_boards')")[0][0]
                else False
            ),
            deadline,
        )
        table = run_cli(["ladder", "table", "--db", postgres_url])
        assert table.returncode == 0, table.stderr
        assert "(distributed): 0 of 4 boards played so far" in table.stdout
        wait_for(
            "the first worker's first claim",
            lambda: bool(
                query(postgres_url, "SELECT 1 FROM ladder_boards WHERE claimed_by IS NOT NULL")
            ),
            deadline,
        )
        survivor = ladder_worker(postgres_url, tmp_path / "survivor.log")
        workers.append(survivor)

        # one open connection and a short poll: the window in which the first worker
        # holds a board with deals played can be short, and a connection a check (as
        # query makes) let a loaded machine miss it
        watch = psycopg.connect(postgres_url, autocommit=True)
        watches.append(watch)

        def doomed_holds_a_board() -> bool:  # while deals have been played
            held = watch.execute(
                b"SELECT board FROM ladder_boards WHERE NOT done AND claimed_by LIKE %s",
                (f"%/{doomed.pid}/%",),
            ).fetchall()
            return bool(held) and watch.execute(b"SELECT count(*) FROM deals").fetchone() != (0,)

        def doomed_is_mid_board() -> bool:
            """Frozen (SIGSTOP) while it holds a board and deals have been played: it
            can finish nothing more before it is killed."""
            if not doomed_holds_a_board():
                return False
            doomed.send_signal(signal.SIGSTOP)
            if doomed_holds_a_board():
                return True
            doomed.send_signal(signal.SIGCONT)
            return False

        wait_for("the first worker to hold a board while deals are played",
                 doomed_is_mid_board, deadline, poll_s=0.005)  # fmt: skip
        held = [
            int(board)
            for (board,) in query(
                postgres_url,
                "SELECT board FROM ladder_boards WHERE NOT done AND claimed_by LIKE %s",
                f"%/{doomed.pid}/%",
            )
        ]
        doomed.kill()
        doomed.wait(timeout=30)

        out, err = run.communicate(timeout=max(1.0, deadline - time.monotonic()))
        assert run.returncode == 0, err[-2000:]
        survived = survivor.wait(timeout=max(1.0, deadline - time.monotonic()))
        assert survived == 0, (tmp_path / "survivor.log").read_text()[-2000:]
    finally:
        for conn in watches:
            conn.close()
        processes: list[subprocess.Popen[Any]] = [run, *workers]
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()

    distributed = json.loads(out)
    for data in (local, distributed):
        data.pop("seconds"), data.pop("deals_per_second")
    assert distributed == local  # pairs, ratings, forfeits: all alike

    boards = query(postgres_url, "SELECT board, done, claims FROM ladder_boards ORDER BY board")
    assert [(b, d) for b, d, _ in boards] == [(1, True), (2, True), (3, True), (4, True)]
    claims = {b: c for b, _, c in boards}
    assert held and all(claims[b] >= 2 for b in held)  # claimed again after the lease
    # each board's games stored once, by the worker that finished it
    games = query(postgres_url, "SELECT board, seating FROM ladder_games ORDER BY board, seating")
    assert len(games) == 8 and len(set(games)) == 8

    table = run_cli(["ladder", "table", "--db", postgres_url, "--json"])
    assert table.returncode == 0, table.stderr
    rows = json.loads(table.stdout)
    assert [(r["bot"], r["games"]) for r in rows] == [(r["bot"], 8) for r in distributed["ratings"]]


def test_a_distributed_ladder_refuses_what_only_one_machine_can_do(
    postgres_url: str, tmp_path: Path
) -> None:
    bots = ("--bot", HEUR, "--bot", RAND, "--distributed")
    sprt = ladder(tmp_path, *bots, "--sprt", "0,10,0.05,0.05", db=postgres_url, timeout=30)
    assert sprt.returncode == 2 and "--sprt needs a single-machine ladder" in sprt.stderr
    given = ladder(tmp_path, *bots, "--server", "127.0.0.1:1", "--admin-password", "x",
                   db=postgres_url, timeout=30)  # fmt: skip
    assert given.returncode == 2 and "not --server" in given.stderr
    assert query(postgres_url, "SELECT count(*) FROM ladder_boards")[0][0] == 0


def test_a_worker_whose_bot_cannot_start_again_fails_the_run_and_releases_its_board(
    postgres_url: str, tmp_path: Path
) -> None:
    """A bot that ran, then cannot be started again: the worker fails the run with the
    bot's error in one line and goes on (status 0, no run left); the board it started
    is released, as a single-machine ladder's would be (the run is never played
    again); the waiting run ends with the failure in one line. Failed before: both
    printed a traceback; then the worker exited 2 and the run waited for ever."""
    path = tmp_path / "gone"
    path.write_text(f"#!{sys.executable}\n{GONE}", encoding="utf-8")
    path.chmod(0o755)
    with _a_waiting_run(postgres_url, HEUR, f"gone={path}") as run:
        worker = run_cli(["ladder", "worker", "--db", postgres_url, "--exit-when-done"])
        assert worker.returncode == 0, worker.stderr
        said = worker.stderr.splitlines()  # its first line names the worker, its last counts
        assert said[1].startswith("deberc-net ladder worker: run 1 failed: worker "), said
        assert "cannot start bot 'gone'" in said[1] and said[1].endswith("; on to other runs")
        assert len(said) == 3, said
        withheld = "SELECT count(*) FROM running WHERE board IS NOT NULL AND result IS NOT NULL"
        assert query(postgres_url, withheld)[0][0] == 0  # the first seating: released
        out, err = run.communicate(timeout=30)
        assert run.returncode == 2 and out == "", err
        assert err.strip().startswith("deberc-net ladder: run 1 failed: worker "), err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_waiting_run_stopped_by_sigterm_or_sighup_says_so_in_one_line(
    postgres_url: str, signum: int
) -> None:
    """The waiter has no trio loop to take them: SIGTERM (a service manager's stop) or
    SIGHUP (its terminal closed) ended it by their default, status 143 and no line
    (the README tryout's), where Ctrl-C says the run can be finished later."""
    with _a_waiting_run(postgres_url, HEUR, RAND) as run:
        _stopped_in_one_line(run, signum)  # no worker plays its boards: it waits


@contextlib.contextmanager
def _a_waiting_run(url: str, *bots: str) -> Iterator[subprocess.Popen[str]]:
    """`ladder run --distributed` of two deals between ``bots`` (SIGHUP at its default),
    its boards queued: the process, killed at the end if it still runs."""
    args = [arg for bot in bots for arg in ("--bot", bot)]
    args += ["--deals", "2", "--concurrency", "1", "--json", "--distributed"]
    run = subprocess.Popen(
        as_from_a_terminal(ladder_argv(url, *args)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + TIME_LIMIT_S
        wait_for("the boards to be queued", lambda: queued(url) == 2, deadline)
        yield run
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


def _stopped_in_one_line(run: subprocess.Popen[str], signum: int) -> None:
    """``signum`` stops the waiting run with Ctrl-C's one line, status 2."""
    run.send_signal(signum)
    out, err = run.communicate(timeout=30)
    assert run.returncode == 2 and out == "", err
    assert err.strip().startswith(f"deberc-net ladder: {DISTRIBUTED_INTERRUPTED}; "), err


def _in_session(sid: int) -> list[int]:
    """The processes running in session ``sid`` but its leader (not zombies)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != sid:
            with contextlib.suppress(ProcessLookupError, FileNotFoundError):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if os.getsid(int(entry.name)) == sid and state != "Z":
                    found.append(int(entry.name))
    return found


def _running(pid: int, module: str) -> bool:
    """Whether process ``pid`` runs ``python -m module`` (exec'd: not the fork before)."""
    try:
        argv = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
    except (ProcessLookupError, FileNotFoundError):
        return False
    return module.encode() in argv


def test_a_worker_stopped_by_sigterm_or_a_hangup_stops_its_bot_processes(
    postgres_url: str, tmp_path: Path
) -> None:
    """SIGTERM, or SIGHUP (its terminal gone), stops a ``ladder worker`` as Ctrl-C does:
    its bot processes stopped with it (status 0, nothing said). Failed before: the
    signal ended the worker outright, and its bot processes, in groups of their own,
    played on."""
    process_bot = f"proc={PY} -m clients.random_bot --seed 1"
    args = ("--bot", HEUR, "--bot", process_bot, "--deals", "400", "--concurrency", "1")
    deadline = time.monotonic() + TIME_LIMIT_S
    run = subprocess.Popen(
        ladder_argv(postgres_url, *args, "--distributed"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[subprocess.Popen[str]] = []
    try:
        wait_for("the boards to be queued", lambda: queued(postgres_url) > 0, deadline)
        for signum in (signal.SIGTERM, signal.SIGHUP):
            argv = ["-m", "deberc_net", "ladder", "worker", "--db", postgres_url]
            worker = subprocess.Popen(  # SIGHUP at its default, even under nohup
                as_from_a_terminal([sys.executable, *argv]),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
            workers.append(worker)
            # its bot process by its command: the first process of its session is not
            # always one (trio's import runs 'ldconfig -p' there, before the worker
            # handles signals: signalled then, it died of SIGTERM, status -15)
            wait_for("its bot process",
                     lambda sid=worker.pid: any(_running(pid, "clients.random_bot")
                                                for pid in _in_session(sid)),
                     deadline)  # fmt: skip
            worker.send_signal(signum)
            _, err = worker.communicate(timeout=30)
            assert worker.returncode == 0, err
            assert _in_session(worker.pid) == [], signum.name
    finally:
        processes: list[subprocess.Popen[Any]] = [run, *workers]
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        for worker in workers:
            for pid in _in_session(worker.pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.timeout(TIME_LIMIT_S + 30)
def test_a_run_stopped_as_its_boards_are_queued_says_so_in_one_line(postgres_url: str) -> None:
    """SIGTERM while the run's boards are being queued (its run stored, its wait not
    begun): the one line and status 2, as in its wait. Failed before: the test's look
    at the queue could come just before the wait, and the KeyboardInterrupt the signal
    raised there ended the process by SIGINT (status -2), no line said."""
    BoardQueue(postgres_url).close()  # the tables, for the trigger
    hold = (
        "CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$"
        " BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$;"
        " CREATE TRIGGER hold AFTER INSERT ON ladder_boards"
        " FOR EACH STATEMENT EXECUTE FUNCTION hold()"
    )
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(hold.encode())
    args = ["--bot", HEUR, "--bot", RAND, "--deals", "2", "--concurrency", "1", "--json"]
    run = subprocess.Popen(
        as_from_a_terminal(ladder_argv(postgres_url, *args, "--distributed")),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        sleeping = (  # (in this database: the run's server is every test's)
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'"
            " AND datname = current_database()"
        )
        deadline = time.monotonic() + TIME_LIMIT_S
        wait_for("the queuing to be held", lambda: query(postgres_url, sleeping)[0][0] == 1,
                 deadline)  # fmt: skip
        _stopped_in_one_line(run, signal.SIGTERM)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
