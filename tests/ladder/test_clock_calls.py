"""A bot that lets its clock run out short of a forfeit is told so in the ladder's
report (docs/bots.md, "A bot's timeouts"): each call the clock made for it, counted
from the stored deals, and where its first was. Before, a refused call or a timeout
left the report as clean as a bot's that never erred (black-box evening s41)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import psycopg
import pytest

from deberc_net.ladder.report import text
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)

from .board_queue import played_run, query
from .helpers import (
    EAGER,
    HEUR,
    RAW_HEAD,
    clean_server_run_after_a_late_one,
    games_in,
    ladder,
    ladder_argv,
    run_cli,
    script,
    summary,
)
from .late_bot import ONCE_LATE


def test_the_clocks_calls_for_a_bot_are_counted_with_its_first(tmp_path: Path) -> None:
    late = script(tmp_path, "late", ONCE_LATE)
    done = ladder(
        tmp_path,
        *("--bot", HEUR, "--bot", late, "--deals", "1", "--clock-ms", "500"),
        *("--concurrency", "1", "--json"),
    )
    data = summary(done)
    assert data["forfeits"] == {} and data["clock_calls"] == {"late": 1}
    first = data["first_clock_calls"]["late"]
    assert first.startswith("match m") and " deal 1: " in first
    report = text(data)
    assert "Clock's calls (an ask not answered in time" in report
    assert f"  late: 1; first: {first}" in report


# plays its first legal call; at each match's end spoils the deals stored so far (a
# record the count cannot read): the count of the clock's calls fails at the run's end
SPOILER = (
    RAW_HEAD
    + """\
import sqlite3, sys
from deberc_net.protocol.wire import fields_of
for line in sock.makefile("r", encoding="utf-8", newline="\\r\\n"):
    tag, kv = fields_of(line)
    if tag == "ask":
        sock.sendall(f"{kv['legal'].split(',')[0]} seq={kv['seq']}\\n".encode())
    elif tag == "event" and kv.get("kind") == "match-end":
        with sqlite3.connect(sys.argv[0].rsplit("/", 1)[0] + "/ladder.sqlite3") as db:
            db.execute("UPDATE deals SET record = json_set(record, '$.calls', 5)")  # (--db)
        sock.sendall(b"seek reserved\\n")
"""
)


def test_a_count_that_fails_leaves_the_run_stored_and_says_so(tmp_path: Path) -> None:
    """The count ran among the finished run's writes: its failure raised out of them,
    and the run played was never stored (its games and ratings lost). It is best-effort
    now: a warning, the run stored, the report saying the count is missing."""
    spoiler = script(tmp_path, "spoiler", SPOILER)
    args = ("--bot", HEUR, "--bot", spoiler, "--deals", "1", "--concurrency", "1")
    done = ladder(tmp_path, *args, "--json")
    data = summary(done)
    assert "warning: the clock's calls were not counted (TypeError: " in done.stderr
    assert "the run is stored without them" in done.stderr
    assert data["clock_calls_missing"].startswith("TypeError: ")
    assert "clock_calls" not in data and "first_clock_calls" not in data  # not 0
    assert f"Clock's calls: not counted ({data['clock_calls_missing']})." in text(data)
    assert len(games_in(tmp_path / "ladder.sqlite3")) == data["games"] == 2  # stored
    with sqlite3.connect(tmp_path / "ladder.sqlite3") as db:
        ((stored,),) = db.execute("SELECT summary FROM ladder_runs").fetchall()
    assert json.loads(stored) == data
    done = ladder(tmp_path, *args)  # the text report
    assert done.returncode == 0 and "Clock's calls: not counted (TypeError: " in done.stdout


BOTS_DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
# dies at its third ask (once), and is slow to come back: the clock plays for it meanwhile
CRASH_AWAY = """\
import os, sys, time
from pathlib import Path
from clients.client import bot_arguments, run_bot
args = bot_arguments("dies once, mid-game, and is slow to come back").parse_args()
marker = Path(sys.argv[0]).with_name("crashed-" + args.name)
if marker.exists() and marker.read_text() == "mid-game":
    marker.write_text("back")
    time.sleep(2.5)  # more than its clock (2 s), less than three of them (a forfeit)
asks = []
def choose(view):
    asks.append(view)
    if len(asks) == 3 and not marker.exists():
        marker.write_text("mid-game")
        os._exit(3)  # no goodbye: the connection just drops
    return view.legal[0]
run_bot(choose, args)
"""


def test_the_clocks_calls_for_a_crashed_bot_are_counted_beside_its_crash(
    tmp_path: Path,
) -> None:
    """A bot away after a crash is played for by the clock as one that does not answer
    (docs/bots.md, "A bot's timeouts"): those calls are among the clock's calls, and
    its crash in the report's `Crashes (restarted)` line beside them."""
    # (eager orders every game: the crash's third ask comes, whatever the deal)
    crash, eager = script(tmp_path, "crash", CRASH_AWAY), script(tmp_path, "eager", EAGER)
    args = ("--bot", eager, "--bot", crash, "--deals", "1", "--concurrency", "1")
    late = ("--clock-ms", "1500", "--away-ms", "60000")  # (a restart's start-up: not a forfeit)
    data = summary(ladder(tmp_path, *args, *late, "--json"))
    assert data["crashes"] == {"crash": 1} and data["forfeits"] == {}, data
    assert data["clock_calls"].get("crash", 0) >= 1 and "eager" not in data["clock_calls"]
    report = text(data)
    assert "Crashes (restarted): crash 1; forfeits: none" in report, report
    assert f"  crash: {data['clock_calls']['crash']}; first: match m" in report
    # as docs/bots.md says it (it did not: a crash's calls read as the bot's thinking)
    said = " ".join(BOTS_DOC.read_text(encoding="utf-8").split())
    assert "A bot away after a crash is played for by the clock" in said
    assert "those calls are counted among its clock's calls too" in said
    assert "`Crashes (restarted): crash 1; forfeits: none`" in said


def test_a_clean_run_says_no_clocks_calls(tmp_path: Path) -> None:
    done = ladder(
        tmp_path, "--bot", HEUR, "--bot", "rand=py:clients.random_bot", "--deals", "1", "--json"
    )
    data = summary(done)
    assert data["clock_calls"] == {} and "Clock's calls" not in text(data)


async def test_a_server_runs_games_are_not_counted_from_another_servers_same_numbers(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    """A `--server` run's matches are numbered by that server (m1, m2, …); the ladder's
    `--db` holds its own server's earlier runs, numbered alike. Their deals were read
    as this run's: a clean run on a club's server reported the clock's calls of a bot
    of an earlier run (`rand: 9; first: match m1 deal 1: pas`, tried from outside). A
    match counts only if its deals are of the game's board (their seed)."""
    await clean_server_run_after_a_late_one(tmp_path, start_server, register, HEUR, "500")


@pytest.mark.timeout(90)
def test_a_distributed_runs_clocks_calls_are_in_its_stored_summary(
    postgres_url: str,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """A distributed run's summary is stored by its count (distributed.count_and_finish),
    before the command's own counting of the clock's calls: the stored summary had none
    (`clock_calls: {}`) where the printed one had them. They are counted with the games
    now, in the count's transaction."""
    late = script(tmp_path, "late", ONCE_LATE)
    bots = ("--bot", HEUR, "--bot", late, "--deals", "1", "--clock-ms", "500")
    argv = ladder_argv(postgres_url, *bots, "--concurrency", "1", "--json", "--distributed")
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not _queued(postgres_url):  # (a worker with nothing queued exits when done)
        assert time.monotonic() < deadline and run.poll() is None, "no board queued"
        time.sleep(0.05)
    try:
        # the worker: the command's main in this process (a Python start-up less), which
        # plays the queued board and ends; the run, a process, waits for its result
        worked = run_cli(["ladder", "worker", "--db", postgres_url, "--exit-when-done"])
        assert worked.returncode == 0, worked.stderr[-3000:]
        out, err = run.communicate(timeout=70)
        assert run.returncode == 0, err[-3000:]
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert json.loads(out)["clock_calls"] == {"late": 1}
    with psycopg.connect(postgres_url) as db:
        ((stored,),) = db.execute("SELECT summary FROM ladder_runs").fetchall()
    assert json.loads(stored)["clock_calls"] == {"late": 1}


def _queued(url: str) -> bool:
    with psycopg.connect(url) as db:
        if db.execute("SELECT to_regclass('ladder_boards') IS NULL").fetchone() == (True,):
            return False
        return db.execute("SELECT count(*) FROM ladder_boards").fetchone() != (0,)


@pytest.mark.timeout(60)
def test_a_distributed_count_that_fails_leaves_the_run_stored_and_says_so(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """A distributed run's clock's calls are counted in the transaction that stores its
    summary and ratings: a count that failed aborted it, and the run played was never
    stored (`ladder finish` said the database refused, and so would every try). It is
    best-effort now, as a single-machine run's: a warning, the run stored, its report
    saying the count is missing."""
    queue, run, _, _ = played_run(postgres_url, "spoilt")
    queue.close()
    with psycopg.connect(postgres_url) as db:  # the count's query refused
        db.execute("ALTER TABLE deals RENAME TO deals_gone")
    done = run_cli(["ladder", "finish", str(run), "--db", postgres_url, "--json"])
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == (
        "deberc-net ladder finish: warning: the clock's calls were not counted"
        ' (UndefinedTable: relation "deals" does not exist); the run is stored without them'
    )  # (one line: PostgreSQL's error quoted the query, over the report's line)
    data = json.loads(done.stdout)
    assert data["clock_calls_missing"] == 'UndefinedTable: relation "deals" does not exist'
    assert "clock_calls" not in data and "first_clock_calls" not in data  # not 0
    ((stored,),) = query(postgres_url, "SELECT summary FROM ladder_runs")
    assert json.loads(stored) == data
    assert query(postgres_url, "SELECT bot, games FROM ladder_ratings ORDER BY bot") == [
        ("a", 2),
        ("b", 2),
    ]
