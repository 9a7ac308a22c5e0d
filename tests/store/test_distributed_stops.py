"""A distributed run that stops before its count, on a real PostgreSQL with real
``ladder run --distributed`` and ``ladder worker`` processes: a run whose bot cannot
run on a worker fails (and the run queued behind it is played), ``ladder cancel``
takes a run out of the queue, queued or being played, and a bot command that cannot
start here is refused before anything is queued (docs/bots.md "Distributed ladders").
Failed before: every worker that claimed a board of a run with a bad command exited
with status 2, the run's waiter waited for ever, and no run could be cancelled."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from deberc_net.ladder.store import open_ladder_store
from tests.ladder.helpers import HEUR, PY, RAND, ladder_argv, run_cli, script
from tests.store.distributed import ladder_worker, query, queued, wait_for

TIME_LIMIT_S = 45  # under pytest's own limit
FAST = ("--deals", "1", "--concurrency", "1", "--json", "--distributed")
NOT_COUNTED = "; the ratings do not take it in"

# a bot that thinks a while at each call: a board takes seconds to play
SLOW = """\
import random, time
from clients.client import Bot, bot_arguments, run_to_end
args = bot_arguments("slow").parse_args()
rng = random.Random(1)
def choose(view):
    time.sleep(0.3)
    return rng.choice(view.legal)
run_to_end(Bot(choose, args.name, args.host, args.port, seek=args.seek))
"""


def _waiter(url: str, *bots: str, deals: str = "1") -> subprocess.Popen[str]:
    """``ladder run --distributed`` of ``bots``, as a process."""
    args = [arg for bot in bots for arg in ("--bot", bot)]
    args += ["--deals", deals, *FAST[2:]]
    return subprocess.Popen(
        ladder_argv(url, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _runs(url: str) -> list[int]:
    return [int(r[0]) for r in query(url, "SELECT id FROM ladder_runs ORDER BY id")]


def _ended(process: subprocess.Popen[str], deadline: float) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
    return process.returncode, out, err


def _killed(processes: list[subprocess.Popen[str]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()


def _bad_interpreter(tmp_path: Path) -> str:
    """A bot whose program is there, and executable, but cannot be executed."""
    path = tmp_path / "bad-bot"
    path.write_text("#!/no/such/interpreter\n", encoding="utf-8")
    path.chmod(0o755)
    return f"bad={path}"


@pytest.mark.timeout(90)
@pytest.mark.parametrize("how", ["cannot be executed", "exits at once"])
def test_a_worker_that_cannot_run_a_bot_fails_the_run_and_plays_the_next(
    postgres_url: str, tmp_path: Path, how: str
) -> None:
    bad = _bad_interpreter(tmp_path) if how == "cannot be executed" else "bad=false"
    said = "cannot start bot 'bad': " if how == "cannot be executed" else "bot 'bad' keeps exiting"
    deadline = time.monotonic() + TIME_LIMIT_S
    processes: list[subprocess.Popen[str]] = []
    try:
        doomed = _waiter(postgres_url, HEUR, bad)
        processes.append(doomed)
        wait_for("the first run's boards", lambda: queued(postgres_url) == 1, deadline)
        fine = _waiter(postgres_url, HEUR, RAND)
        processes.append(fine)
        wait_for("the second run's boards", lambda: queued(postgres_url) == 2, deadline)
        first, second = _runs(postgres_url)
        worker = ladder_worker(postgres_url, tmp_path / "worker.log")
        processes.append(worker)

        code, out, err = _ended(doomed, deadline)
        assert (code, out) == (2, ""), err
        lines = err.strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"deberc-net ladder: run {first} failed: worker "), lines
        assert f"/{worker.pid}/" in lines[0] and said in lines[0], lines
        assert lines[0].endswith(NOT_COUNTED), lines

        code, out, err = _ended(fine, deadline)
        assert code == 0, err[-2000:]
        assert worker.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    finally:
        _killed(processes)
    log = (tmp_path / "worker.log").read_text()
    assert f"deberc-net ladder worker: run {first} failed: worker " in log, log
    assert "; on to other runs" in log and "Traceback" not in log, log

    stopped = "SELECT id, stopped, summary IS NOT NULL FROM ladder_runs ORDER BY id"
    assert query(postgres_url, stopped) == [(first, "failed", False), (second, None, True)]
    # the failed run's board let go, its started seatings released (none withheld)
    assert query(postgres_url, "SELECT claimed_by, done FROM ladder_boards WHERE run_id = %s",
                 first) == [(None, False)]  # fmt: skip
    withheld = "SELECT count(*) FROM running WHERE board IS NOT NULL"
    assert query(postgres_url, withheld) == [(0,)]
    # the ratings: the second run's games alone (2 seatings of 1 board)
    ratings = query(postgres_url, "SELECT bot, games FROM ladder_ratings ORDER BY bot")
    assert ratings == [("heur", 2), ("rand", 2)]

    table = run_cli(["ladder", "table", "--db", postgres_url])
    assert table.returncode == 0, table.stderr
    failed = [line for line in table.stdout.splitlines() if line.startswith(f"run {first} ")]
    assert len(failed) == 1 and failed[0].startswith(f"run {first} failed: worker "), failed
    assert failed[0].endswith("; not counted (0 of 1 boards played, their games stored)")
    finish = run_cli(["ladder", "finish", str(first), "--db", postgres_url])
    assert (finish.returncode, finish.stdout) == (2, "")
    assert finish.stderr.startswith(f"deberc-net ladder finish: run {first} failed: worker ")


@pytest.mark.timeout(90)
def test_the_waiter_says_its_run_number_first(postgres_url: str) -> None:
    """The waiter said no run number: the operator could not 'ladder cancel N' without
    'ladder table' first. Its first line names it (its progress follows as before);
    cancelled by that number, it ends with the one line of a cancelled run."""
    deadline = time.monotonic() + TIME_LIMIT_S
    args = ("--bot", HEUR, "--bot", RAND, "--deals", "2", "--concurrency", "1", "--distributed")
    waiter = subprocess.Popen(
        ladder_argv(postgres_url, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_for("the run's boards", lambda: queued(postgres_url) == 2, deadline)
        (run,) = _runs(postgres_url)
        cancel = run_cli(["ladder", "cancel", str(run), "--db", postgres_url])
        assert cancel.returncode == 0, cancel.stderr
        code, out, err = _ended(waiter, deadline)
        lines = err.strip().splitlines()
        assert (code, out) == (2, "") and lines[0] == (
            f"ladder: run {run} (distributed): 2 boards queued for the workers "
            f"('deberc-net ladder cancel {run}' drops it)"
        ), err
        # the progress as before (if it was shown before the cancel), then the stop
        assert all(x.startswith("ladder: 0/4 games (") for x in lines[1:-1]), err
        assert lines[-1].startswith(f"deberc-net ladder: run {run} was cancelled by "), err
    finally:
        _killed([waiter])


@pytest.mark.timeout(90)
def test_a_queued_run_cancelled_ends_its_waiter_and_the_workers_play_the_next(
    postgres_url: str, tmp_path: Path
) -> None:
    deadline = time.monotonic() + TIME_LIMIT_S
    processes: list[subprocess.Popen[str]] = []
    try:
        cancelled = _waiter(postgres_url, HEUR, RAND)
        processes.append(cancelled)
        wait_for("the first run's boards", lambda: queued(postgres_url) == 1, deadline)
        (first,) = _runs(postgres_url)
        cancel = run_cli(["ladder", "cancel", str(first), "--db", postgres_url])
        assert (cancel.returncode, cancel.stderr) == (0, ""), cancel.stderr
        assert cancel.stdout.strip() == (
            f"run {first} cancelled: 0 of 1 boards were played (their games stay stored, "
            "uncounted); the workers drop the others"
        )
        code, out, err = _ended(cancelled, deadline)
        assert (code, out) == (2, ""), err
        assert err.strip().startswith(
            f"deberc-net ladder: run {first} was cancelled by 'ladder cancel' on "
        ), err
        assert err.strip().endswith(NOT_COUNTED) and len(err.strip().splitlines()) == 1, err

        again = run_cli(["ladder", "cancel", str(first), "--db", postgres_url])
        assert (again.returncode, again.stdout) == (2, "")
        assert again.stderr.startswith(
            f"deberc-net ladder cancel: run {first} is cancelled already (by 'ladder cancel' on "
        ), again.stderr

        fine = _waiter(postgres_url, HEUR, RAND)
        processes.append(fine)
        wait_for("the second run's boards", lambda: queued(postgres_url) == 2, deadline)
        worker = ladder_worker(postgres_url, tmp_path / "worker.log")
        processes.append(worker)
        code, out, err = _ended(fine, deadline)
        assert code == 0, err[-2000:]
        assert worker.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    finally:
        _killed(processes)
    _, second = _runs(postgres_url)
    assert query(postgres_url, "SELECT run_id, done FROM ladder_boards ORDER BY run_id") == [
        (first, False),
        (second, True),
    ]
    store = open_ladder_store(postgres_url)
    try:
        single = store.start_run({"argv": []})
    finally:
        store.close()
    for run, line in (
        (second, f"run {second} is finished already: its report and ratings stand"),
        (single, f"run {single} was not distributed: a single-machine run is stopped where it "
                 "runs (Ctrl-C)"),
        (single + 1, f"there is no run {single + 1}"),
    ):  # fmt: skip
        refused = run_cli(["ladder", "cancel", str(run), "--db", postgres_url])
        assert (refused.returncode, refused.stdout) == (2, "")
        assert refused.stderr.strip() == f"deberc-net ladder cancel: {line}"
    table = run_cli(["ladder", "table", "--db", postgres_url])
    assert table.returncode == 0, table.stderr
    assert any(
        line.startswith(f"run {first} was cancelled by 'ladder cancel' on ")
        and line.endswith("; not counted (0 of 1 boards played, their games stored)")
        for line in table.stdout.splitlines()
    ), table.stdout


@pytest.mark.timeout(90)
def test_a_run_cancelled_while_a_worker_plays_its_board_is_dropped_uncounted(
    postgres_url: str, tmp_path: Path
) -> None:
    slow = script(tmp_path, "slow", SLOW)
    deadline = time.monotonic() + TIME_LIMIT_S
    processes: list[subprocess.Popen[str]] = []
    try:
        run = _waiter(postgres_url, HEUR, slow)
        processes.append(run)
        wait_for("the run's boards", lambda: queued(postgres_url) == 1, deadline)
        (first,) = _runs(postgres_url)
        # (its lease short: renewed, and so the cancel found, every 0.2 s; alone, it
        # loses none)
        worker = ladder_worker(postgres_url, tmp_path / "worker.log", lease_s="0.6")
        processes.append(worker)
        wait_for(
            "a seating of the board being played",
            lambda: (
                query(postgres_url, "SELECT count(*) FROM running WHERE board IS NOT NULL")
                != [(0,)]
            ),
            deadline,
        )
        cancel = run_cli(["ladder", "cancel", str(first), "--db", postgres_url])
        assert cancel.returncode == 0, cancel.stderr
        code, _, err = _ended(run, deadline)
        assert code == 2 and f"run {first} was cancelled" in err, err
        # the worker drops the board at its next renewal (a third of its 0.6 s lease)
        assert worker.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    finally:
        _killed(processes)
    log = (tmp_path / "worker.log").read_text()
    assert f"deberc-net ladder worker: run {first} was cancelled by 'ladder cancel'" in log, log
    assert "Traceback" not in log, log
    # nothing stored for the run, nothing counted; its board let go, its seatings released
    assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(0,)]
    assert query(postgres_url, "SELECT count(*) FROM ladder_ratings") == [(0,)]
    assert query(postgres_url, "SELECT claimed_by, done FROM ladder_boards") == [(None, False)]
    withheld = "SELECT count(*) FROM running WHERE board IS NOT NULL"
    assert query(postgres_url, withheld) == [(0,)]


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (
            "no-such-program-xyz",
            "no program 'no-such-program-xyz' on this machine (not on PATH, or not an "
            "executable file)",
        ),
        (f"{PY} -m 'unclosed", "its command cannot be read: No closing quotation"),
    ],
)
def test_a_bot_command_that_cannot_start_here_is_refused_before_queuing(
    postgres_url: str, command: str, said: str
) -> None:
    refused = run_cli(
        ["ladder", "run", "--db", postgres_url, "--bot", HEUR, "--bot", f"x={command}", *FAST]
    )
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.strip() == (
        f"deberc-net ladder: cannot start bot 'x': {said}; a distributed run's bot commands "
        "must run on every worker: nothing is queued"
    )
    assert query(postgres_url, "SELECT count(*) FROM ladder_runs") == [(0,)]
    assert query(postgres_url, "SELECT count(*) FROM ladder_boards") == [(0,)]


def test_sys_executable_is_a_program_the_check_finds() -> None:
    """(The reference bots' commands start with it: the check must not refuse them.)"""
    from deberc_net.ladder.supervisor import BotSpec, missing_program

    assert missing_program(BotSpec("p", f"{PY} -m clients.random_bot")) is None
    assert missing_program(BotSpec("p", "py:clients.random_bot")) is None
