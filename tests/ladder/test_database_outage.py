"""A distributed ladder on a real PostgreSQL whose database goes away for a few seconds
(every backend terminated, new connections refused): ``ladder run --distributed`` and
``ladder worker`` wait for it and go on, a board's release the outage cut off is asked
again, and ``ladder finish`` counts a run whose waiting process is gone
(docs/bots.md "Distributed ladders")."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from deberc_net.ladder.queue import BoardQueue
from deberc_net.server.store import StoreError
from tests.ladder.helpers import HEUR, RAND, ladder_argv, run_cli
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)

TIME_LIMIT_S = 50  # under pytest's own limit
OUTAGE_S = 1.0  # past the first tries (0.25 s, then 0.5 s more): each is refused
WAITING = "waiting for the database at"

# The first time a released board's kept result leaves ``running`` (the release's
# write, on the worker's own server), every backend of the database is terminated, the
# releasing one last: its release fails as in a restart. A sequence, as it outlives the
# transaction the termination rolls back.
OUTAGE_AT_RELEASE = """
CREATE SEQUENCE outage_at_release;
CREATE FUNCTION outage_at_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF nextval('outage_at_release') = 1 THEN
        PERFORM pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() ORDER BY pid = pg_backend_pid();
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER outage_at_release AFTER DELETE ON running
    FOR EACH ROW WHEN (OLD.board IS NOT NULL) EXECUTE FUNCTION outage_at_release();
"""


# A copy of each board's kept result as its release takes it out of ``running``.
KEEP_RELEASED = """
CREATE TABLE kept_copy AS SELECT * FROM running WITH NO DATA;
CREATE FUNCTION keep_released() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO kept_copy SELECT OLD.*;
    RETURN OLD;
END $$;
CREATE TRIGGER keep_released BEFORE DELETE ON running
    FOR EACH ROW WHEN (OLD.board IS NOT NULL) EXECUTE FUNCTION keep_released();
"""


# every board done, and none kept withheld in ``running`` (its release answered)
PLAYED_AND_RELEASED = (
    "SELECT bool_and(done), (SELECT count(*) FROM running WHERE board IS NOT NULL)"
    " FROM ladder_boards"
)


def _query(url: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(sql.encode(), params).fetchall()]


def _queued(url: str) -> int:
    return int(_query(url, "SELECT count(*) FROM ladder_boards")[0][0])


def _cut(url: str) -> bool:
    """Whether the release has cut every connection (this look's own, maybe)."""
    try:
        return bool(_query(url, "SELECT is_called FROM outage_at_release")[0][0])
    except psycopg.OperationalError:
        return True


def _wait_for(what: str, check: Any, deadline: float) -> None:
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@contextlib.contextmanager
def _database_away(url: str) -> Iterator[None]:
    """The database refuses connections and every one it had is terminated, until the
    block ends."""
    name = url.rsplit("/", 1)[1]
    server = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false".encode())
        try:
            conn.execute(
                b"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
            yield
        finally:
            conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true".encode())


def _worker(url: str, log: Path, *more: str) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "deberc_net", "ladder", "worker", "--db", url, *more]
    with log.open("w") as out:
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=out, text=True)


def _said(text: str) -> list[str]:
    """What a process said: its own lines, not its server's log lines (JSON or
    key=value records; a worker's server logs the writes the outage failed)."""
    return [line for line in text.splitlines() if line.startswith("deberc-net ")]


def _raw_traceback(text: str) -> bool:
    """A process's own traceback (its server's log records keep theirs in a field)."""
    return any(line.startswith("Traceback") for line in text.splitlines())


def _stop(*processes: subprocess.Popen[str]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_an_outage_mid_run_is_waited_out_and_a_release_it_cut_off_is_asked_again(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """The first board's release meets a database going away (every connection
    terminated, then none taken for 1 s): the waiting run and the worker each say
    once that they wait for it, then go on; the run ends with every game counted and
    every board released, each stored once. Failed before: the run died on
    ``queue.progress`` with a traceback (the run never counted), and the worker on the
    release's ``internal`` error (or on ``complete``), its board done but withheld."""
    BoardQueue(postgres_url).close()  # the tables, for the trigger
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(OUTAGE_AT_RELEASE.encode())
    # one board: no seating is played as the database goes (a match's end its server
    # cannot store fails its table, docs/scaling.md, which stops a worker)
    args = ("--bot", HEUR, "--bot", RAND, "--deals", "1", "--seed", "outage")
    argv = ladder_argv(postgres_url, *args, "--concurrency", "1", "--json", "--distributed")
    deadline = time.monotonic() + TIME_LIMIT_S
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: list[subprocess.Popen[str]] = []
    try:
        _wait_for("the boards to be queued", lambda: _queued(postgres_url) == 1, deadline)
        worker = _worker(postgres_url, tmp_path / "worker.log", "--exit-when-done")
        workers.append(worker)
        _wait_for("the release that cuts every connection", lambda: _cut(postgres_url), deadline)
        with _database_away(postgres_url):
            time.sleep(OUTAGE_S)
        out, err = run.communicate(timeout=max(1.0, deadline - time.monotonic()))
        worked = worker.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        _stop(run, *workers)
    said = (tmp_path / "worker.log").read_text()
    assert run.returncode == 0, err[-3000:]
    assert worked == 0, said[-3000:]
    assert not _raw_traceback(err) and not _raw_traceback(said)
    assert _said(err) == [line for line in _said(err) if WAITING in line]
    assert 1 <= len(_said(err)) <= 2, err  # once an outage: the cut, then the refusals
    worker_said = _said(said)
    assert worker_said and all(WAITING in line for line in worker_said), said[-3000:]
    summary = json.loads(out)
    assert summary["games"] == 2 and summary["boards_played"] == 1
    boards = _query(postgres_url, "SELECT board, done FROM ladder_boards ORDER BY board")
    assert boards == [(1, True)]
    games = _query(postgres_url, "SELECT board, seating FROM ladder_games")
    assert len(games) == 2 and len(set(games)) == 2
    # every board released: nothing kept for a release in ``running``
    assert _query(postgres_url, "SELECT count(*) FROM running WHERE board IS NOT NULL") == [(0,)]
    assert _query(postgres_url, "SELECT summary IS NOT NULL FROM ladder_runs") == [(True,)]


def test_an_idle_worker_waits_out_an_outage_and_a_run_whose_waiter_died_is_finished(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """A worker waiting for boards outlives an outage (one line), then plays a run
    queued after it; that run's ``ladder run --distributed`` was killed, and ``ladder
    finish RUN`` counts it (the ratings take it in) once, a second time refused.
    Failed before: the idle worker died on ``claim`` with a traceback, and no command
    finished the run."""
    BoardQueue(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(KEEP_RELEASED.encode())
    deadline = time.monotonic() + TIME_LIMIT_S
    worker = _worker(postgres_url, tmp_path / "worker.log")
    try:
        log = tmp_path / "worker.log"
        _wait_for("the worker to start", lambda: "ladder worker " in log.read_text(), deadline)
        with _database_away(postgres_url):
            time.sleep(OUTAGE_S)
        assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
        args = ("--bot", HEUR, "--bot", RAND, "--deals", "2", "--seed", "later")
        run = subprocess.Popen(
            ladder_argv(postgres_url, *args, "--concurrency", "1", "--distributed"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for("the boards to be queued", lambda: _queued(postgres_url) == 2, deadline)
            queued = time.monotonic()
        finally:
            run.kill()
            run.wait()
        # played and released: a board is done before the worker asks its release, and a
        # SIGTERM in between leaves it withheld (for the run's count), not kept_copy's one
        _wait_for(
            "the boards to be played and released",
            lambda: _query(postgres_url, PLAYED_AND_RELEASED) == [(True, 0)],
            deadline,
        )
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0
    finally:
        _stop(worker)
    said = (tmp_path / "worker.log").read_text()
    assert not _raw_traceback(said)
    assert [line for line in _said(said) if WAITING in line] == _said(said), said[-3000:]
    assert len(_said(said)) == 1, said[-3000:]

    # a board's records withheld though it is done (an older worker stored it before
    # its release was answered, and that release failed): one of its kept results
    # back in ``running``, as before its release
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(b"INSERT INTO running SELECT * FROM kept_copy LIMIT 1")
    assert _query(postgres_url, "SELECT count(*) FROM running WHERE board IS NOT NULL") == [(1,)]
    ((run_id,),) = _query(postgres_url, "SELECT id FROM ladder_runs")
    ((key,),) = _query(postgres_url, "SELECT board FROM running")
    table = run_cli(["ladder", "table", "--db", postgres_url])
    assert f"run {run_id} (distributed): every board played, not counted" in table.stdout
    assert f"board {key}: 1 result withheld until its release" in table.stdout
    counted = time.monotonic()
    finished = run_cli(["ladder", "finish", str(run_id), "--db", postgres_url, "--json"])
    assert finished.returncode == 0, finished.stderr
    summary = json.loads(finished.stdout)
    assert summary["games"] == 4 and summary["seed"] == "later"
    # its time from its queuing, as its waiter's (failed before: the count's own, ~0 s,
    # and a rate of thousands of deals a second)
    assert summary["seconds"] >= counted - queued, summary
    # released by the run's count
    assert _query(postgres_url, "SELECT count(*) FROM running WHERE board IS NOT NULL") == [(0,)]
    rows = json.loads(run_cli(["ladder", "table", "--db", postgres_url, "--json"]).stdout)
    assert sorted((r["bot"], r["games"]) for r in rows) == [("heur", 4), ("rand", 4)]
    table = run_cli(["ladder", "table", "--db", postgres_url])
    assert "(distributed)" not in table.stdout and "withheld" not in table.stdout
    again = run_cli(["ladder", "finish", str(run_id), "--db", postgres_url])
    assert again.returncode == 2
    assert again.stderr.strip() == f"deberc-net ladder finish: run {run_id} is finished already"


def test_a_database_gone_past_the_limit_is_one_clear_error(
    postgres_url: str,  # noqa: F811 (the fixture)
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The queue's calls wait for the database up to their limit, saying so once, and
    then give up with StoreError (the CLI's one line, status 2)."""
    queue = BoardQueue(postgres_url, "ladder worker", limit_s=0.5)
    try:
        gone = pytest.raises(StoreError, match=r"did not answer for 0\.5 s; gave up")
        with _database_away(postgres_url), gone:
            queue.progress(1)
        assert queue.progress(1) == (0, 0)  # back: the next call reconnects
    finally:
        queue.close()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"deberc-net ladder worker: {WAITING}"), err


def test_db_wait_sets_how_long_a_worker_and_a_run_wait_for_the_database(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """``--db-wait 0.5``: an idle worker, then a run waiting for its boards (no worker
    left to play them), each say they wait for the database (up to 0.5 s), then give up
    with one line and status 2, while it is still away. Failed before: no such flag
    (the wait was 300 s, fixed)."""
    gave_up = "did not answer for 0.5 s; gave up"
    worker_log = tmp_path / "worker.log"
    worker = _worker(postgres_url, worker_log, "--db-wait", "0.5")
    try:
        deadline = time.monotonic() + TIME_LIMIT_S / 2
        _wait_for("the worker", lambda: "ladder worker " in worker_log.read_text(), deadline)
        with _database_away(postgres_url):
            worked = worker.wait(timeout=20)
    finally:
        _stop(worker)
    worker_said = _said(worker_log.read_text())
    assert worked == 2, worker_said
    assert len(worker_said) == 2 and WAITING in worker_said[0], worker_said
    assert "(up to 0.5 s)" in worker_said[0] and gave_up in worker_said[1], worker_said

    args = ("--bot", HEUR, "--bot", RAND, "--deals", "1", "--seed", "patience")
    argv = ladder_argv(postgres_url, *args, "--json", "--distributed", "--db-wait", "0.5")
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + TIME_LIMIT_S / 2
        _wait_for("the boards to be queued", lambda: _queued(postgres_url) == 1, deadline)
        with _database_away(postgres_url):
            out, err = run.communicate(timeout=20)
    finally:
        _stop(run)
    said = _said(err)
    assert run.returncode == 2 and out == "", err
    assert len(said) == 2 and WAITING in said[0] and "(up to 0.5 s)" in said[0], said
    assert said[1].startswith("deberc-net ladder: ") and gave_up in said[1], said
    assert "the workers play on: `deberc-net ladder finish" in said[1], said


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (("run", "--db-wait", "0", "--distributed"), "--db-wait takes seconds above 0"),
        (("worker", "--db-wait", "-1"), "--db-wait takes seconds above 0"),
        (("finish", "1", "--db-wait", "nan"), "--db-wait takes seconds above 0"),
        (("run", "--db-wait", "5"), "--db-wait is for --distributed"),
    ],
)
def test_db_wait_refused_where_it_means_nothing(
    postgres_url: str,  # noqa: F811 (the fixture)
    command: tuple[str, ...],
    said: str,
) -> None:
    bots = ("--bot", HEUR, "--bot", RAND) if command[0] == "run" else ()
    done = run_cli(["ladder", *command, "--db", postgres_url, *bots])
    assert done.returncode == 2 and said in done.stderr and done.stdout == "", done.stderr
