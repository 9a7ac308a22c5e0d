"""A worker SIGKILLed between storing a board and releasing it, on a real PostgreSQL
(docs/bots.md "Distributed ladders"): a board is never left to be played again with its
decks already public. The worker stores the board done first, then releases it; one
killed at its store leaves the board undone and withheld (another worker plays it
again, under the same keys, decks unseen); one killed at its release leaves it done and
withheld, and the run's count releases it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from deberc_net.ladder.queue import BoardQueue
from tests.ladder.helpers import HEUR, RAND, ladder_argv, run_cli
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)

TIME_LIMIT_S = 60  # under pytest's own limit

DOOMED = "doomed worker"  # its connections' application_name (libpq's PGAPPNAME)

THE_RUN = "the run"  # a 'ladder run' process's application_name, where a test sets it

# The first time the doomed worker's step runs, its backend says its pid (a sequence:
# outside the transaction) and sleeps, holding the worker there until the test kills it;
# so, once, is a run's own release of a withheld board, where the run is named THE_RUN.
# Only those backends are held (their application_name), not the run's count's
HOLD = f"""
CREATE SEQUENCE held_at;
CREATE SEQUENCE run_held_at;
CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('application_name') = '{DOOMED}'
            AND NOT (SELECT is_called FROM held_at) THEN
        PERFORM setval('held_at', pg_backend_pid());
        PERFORM pg_sleep(120);
    ELSIF current_setting('application_name') = '{THE_RUN}'
            AND NOT (SELECT is_called FROM run_held_at) THEN
        PERFORM setval('run_held_at', pg_backend_pid());
        PERFORM pg_sleep(120);
    END IF;
    RETURN NULL;
END $$;
"""
AT_STORE = (
    "CREATE TRIGGER hold AFTER UPDATE ON ladder_boards FOR EACH ROW"
    " WHEN (NEW.done AND NOT OLD.done) EXECUTE FUNCTION hold()"
)
AT_RELEASE = (
    "CREATE TRIGGER hold AFTER DELETE ON running FOR EACH ROW"
    " WHEN (OLD.board IS NOT NULL) EXECUTE FUNCTION hold()"
)


def _query(url: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(sql.encode(), params).fetchall()]


def _wait_for(what: str, check: Any, deadline: float) -> None:
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _held_backend(url: str, sequence: str, what: str, deadline: float) -> int:
    """The pid of the backend the trigger holds, once it does (``sequence`` says it)."""
    _wait_for(what, lambda: _query(url, f"SELECT is_called FROM {sequence}") == [(True,)],
              deadline)  # fmt: skip
    ((held,),) = _query(url, f"SELECT last_value FROM {sequence}")
    return int(held)


def _stop_all(processes: list[subprocess.Popen[str]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()


def _assert_counted_and_released(url: str, out: str, claims: int) -> None:
    """The run's one board counted (its two seatings) and released, claimed so often."""
    summary = json.loads(out)
    assert summary["games"] == 2 and summary["boards_played"] == 1
    assert _query(url, "SELECT count(*) FROM ladder_games") == [(2,)]
    assert _query(url, "SELECT count(*) FROM running WHERE board IS NOT NULL") == [(0,)]
    assert _query(url, "SELECT done, claims FROM ladder_boards") == [(True, claims)]


def _worker(url: str, log: Path, name: str = "survivor") -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "deberc_net", "ladder", "worker", "--db", url]
    # a short lease: a killed worker's board is free as the next worker starts (one
    # worker at a time, so no renewal of a live one is ever raced)
    argv += ["--lease-s", "0.5", "--exit-when-done"]
    env = {**os.environ, "PGAPPNAME": name}  # (libpq names its connections so)
    with log.open("w") as out:
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=out, text=True, env=env)


@pytest.mark.timeout(TIME_LIMIT_S + 30)
@pytest.mark.parametrize("step", ["store", "release"])
def test_a_worker_killed_between_storing_and_releasing_a_board_leaves_it_fair(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
    step: str,
) -> None:
    """Failed before (``store``): the worker released the board first, so killed at its
    store it left the board undone with its decks public, to be played again."""
    BoardQueue(postgres_url).close()  # the tables, for the trigger
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(HOLD.encode())
        conn.execute((AT_STORE if step == "store" else AT_RELEASE).encode())
    args = ("--bot", HEUR, "--bot", RAND, "--deals", "1", "--seed", "fair", "--json")
    argv = ladder_argv(postgres_url, *args, "--concurrency", "1", "--distributed")
    deadline = time.monotonic() + TIME_LIMIT_S
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    processes: list[subprocess.Popen[str]] = [run]
    try:
        _wait_for("the board to be queued",
                  lambda: _query(postgres_url, "SELECT count(*) FROM ladder_boards") == [(1,)],
                  deadline)  # fmt: skip
        # the run's count frozen until the test has looked: seeing the board done, it
        # releases it (as a dead worker's), at once once the held release rolls back
        run.send_signal(signal.SIGSTOP)
        doomed = _worker(postgres_url, tmp_path / "doomed.log", DOOMED)
        processes.append(doomed)
        held = _held_backend(postgres_url, "held_at", "the worker held at the step", deadline)
        doomed.kill()
        doomed.wait(timeout=30)
        _query(postgres_url, "SELECT pg_terminate_backend(%s)", held)  # (its step rolled back)
        ((done,),) = _query(postgres_url, "SELECT done FROM ladder_boards")
        ((withheld,),) = _query(
            postgres_url, "SELECT count(*) FROM running WHERE board IS NOT NULL"
        )
        # the seatings' results are kept for the board's release, not public
        assert withheld == 2, f"board done={done}, released while its worker was killed"
        assert done == (step == "release")
        run.send_signal(signal.SIGCONT)
        survivor = _worker(postgres_url, tmp_path / "survivor.log")
        processes.append(survivor)
        out, err = run.communicate(timeout=max(1.0, deadline - time.monotonic()))
        assert run.returncode == 0, err[-3000:]
        assert survivor.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    finally:
        _stop_all(processes)
    # released at last: by the survivor's play of it, or by the run's count
    _assert_counted_and_released(postgres_url, out, claims=2 if step == "store" else 1)


@pytest.mark.timeout(TIME_LIMIT_S + 30)
def test_an_idle_worker_stopped_by_sigterm_ends_quietly(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """Between boards (none queued) SIGTERM ends a worker with status 0, as during one.
    Failed before: the signal's default action killed it (-15); a SIGTERM as a run's
    ladder ended was handed back by trio to that default action too."""
    log = tmp_path / "worker.log"
    argv = [sys.executable, "-m", "deberc_net", "ladder", "worker", "--db", postgres_url]
    with log.open("w") as out:
        worker = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=out, text=True)
    try:
        deadline = time.monotonic() + TIME_LIMIT_S
        _wait_for("the worker to start", lambda: "ladder worker " in log.read_text(), deadline)
        time.sleep(0.2)  # (a look for boards done: it sleeps between them)
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0, log.read_text()[-2000:]
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()


@pytest.mark.timeout(TIME_LIMIT_S + 30)
def test_a_distributed_run_counted_after_another_rated_its_bots_builds_on_it(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """Run A is queued (its waiter reads the leaderboard then), run B of the same bots
    finishes meanwhile, then A's boards are played and counted: the leaderboard equals
    B then A run one after the other. Failed before: A's count started from the
    ratings read when it was queued and overwrote B's."""
    bots = ("--bot", HEUR, "--bot", RAND, "--deals", "1", "--concurrency", "1")
    one_by_one = tmp_path / "sequential.sqlite3"
    for seed in ("b", "a"):
        done = run_cli(["ladder", "run", "--db", str(one_by_one), *bots, "--seed", seed, "--json"])
        assert done.returncode == 0, done.stderr
    deadline = time.monotonic() + TIME_LIMIT_S
    argv = ladder_argv(postgres_url, *bots, "--seed", "a", "--json", "--distributed")
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    processes: list[subprocess.Popen[str]] = [run]
    try:
        _wait_for("the board to be queued",
                  lambda: _query(postgres_url, "SELECT to_regclass('ladder_boards') IS NOT NULL"
                                 " AND EXISTS (SELECT 1 FROM ladder_runs)") == [(True,)]
                  and _query(postgres_url, "SELECT count(*) FROM ladder_boards") == [(1,)],
                  deadline)  # fmt: skip
        other = run_cli(["ladder", "run", "--db", postgres_url, *bots, "--seed", "b", "--json"])
        assert other.returncode == 0, other.stderr
        worker = _worker(postgres_url, tmp_path / "worker.log")
        processes.append(worker)
        out, err = run.communicate(timeout=max(1.0, deadline - time.monotonic()))
        assert run.returncode == 0, err[-3000:]
        assert worker.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    finally:
        _stop_all(processes)

    def table(db: str) -> list[tuple[Any, ...]]:
        listed = run_cli(["ladder", "table", "--db", db, "--json"])
        assert listed.returncode == 0, listed.stderr
        return [(r["bot"], r["mu"], r["sigma"], r["games"]) for r in json.loads(listed.stdout)]

    assert table(postgres_url) == table(str(one_by_one))
    # A's report says the ratings it wrote
    said = sorted((r["bot"], r["mu"], r["sigma"]) for r in json.loads(out)["ratings"])
    assert said == sorted(row[:3] for row in table(postgres_url))
    assert [r["games"] for r in json.loads(run_cli(["ladder", "table", "--db", postgres_url,
                                                     "--json"]).stdout)] == [4, 4]  # fmt: skip


@pytest.mark.timeout(TIME_LIMIT_S + 30)
def test_the_runs_release_of_a_withheld_board_waits_out_a_lost_connection(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """A worker killed at its release leaves the board done and withheld; the run's
    count releases it, and its connection is ended (an administrator, a restart) in the
    middle of that release: the run reconnects and releases it again, as it waits out
    an outage elsewhere (docs/bots.md). Failed before: `cannot release board …`, 2."""
    BoardQueue(postgres_url).close()  # the tables, for the trigger
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(HOLD.encode())
        conn.execute(AT_RELEASE.encode())
    args = ("--bot", HEUR, "--bot", RAND, "--deals", "1", "--seed", "fair", "--json")
    argv = ladder_argv(postgres_url, *args, "--concurrency", "1", "--distributed")
    deadline = time.monotonic() + TIME_LIMIT_S
    env = {**os.environ, "PGAPPNAME": THE_RUN}
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    processes: list[subprocess.Popen[str]] = [run]
    try:
        _wait_for("the board to be queued",
                  lambda: _query(postgres_url, "SELECT count(*) FROM ladder_boards") == [(1,)],
                  deadline)  # fmt: skip
        # the run's count frozen until the worker's release is held and undone: seeing
        # the board done first (the worker's release asked of its server after its
        # store, a loaded machine's second or more), it released it itself, held there,
        # and the worker's waited behind it, never held (the test timed out)
        run.send_signal(signal.SIGSTOP)
        doomed = _worker(postgres_url, tmp_path / "doomed.log", DOOMED)
        processes.append(doomed)
        held = _held_backend(postgres_url, "held_at", "the worker held at its release", deadline)
        doomed.kill()
        doomed.wait(timeout=30)
        _query(postgres_url, "SELECT pg_terminate_backend(%s)", held)
        run.send_signal(signal.SIGCONT)
        held = _held_backend(postgres_url, "run_held_at", "the run held at its release", deadline)
        _query(postgres_url, "SELECT pg_terminate_backend(%s)", held)  # its connection cut
        out, err = run.communicate(timeout=max(1.0, deadline - time.monotonic()))
        assert run.returncode == 0, err[-3000:]
    finally:
        _stop_all(processes)
    _assert_counted_and_released(postgres_url, out, claims=1)  # by the run's second try
