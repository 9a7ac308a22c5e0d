"""Running ladders from the tests: the reference bots' commands, the CLI (in the tests'
own process, or as a process where that is what a test is about), and what it stored;
bots the tests write as scripts, a one-board ladder on a given server, and the
processes a ladder's session leaves."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import trio

from deberc_net import cli
from deberc_net.server.store import open_store
from tests.stall_meter import stall_meter

PY = shlex.quote(sys.executable)
# The reference bots in the ladder's own process (docs/bots.md "In-process bots"): the
# same protocol bytes through the same server code, without starting a Python per bot.
# tests/ladder/test_in_process.py shows they play exactly as their processes do, and
# the tests on supervising bots (crash, hang, cannot start) run processes.
HEUR = "heur=py:clients.heuristic_bot"
RAND = "rand=py:clients.random_bot --seed 1"
RAND2 = "rand2=py:clients.random_bot --seed 2"
# A ladder's --deals for one a test stops: minutes of play, far past any test's time
# limit (20000, as before, dealt each ladder a schedule ten times as long at its start)
LONG = "2000"


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body, encoding="utf-8")
    return f"{name}={PY} {shlex.quote(str(path))}"


def ladder_argv(db: Path | str, *args: str) -> list[str]:
    return [sys.executable, "-m", "deberc_net", "ladder", "run", "--db", str(db), *args]


def ladder(
    tmp_path: Path,
    *args: str,
    db: Path | str | None = None,
    timeout: float = 50,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``deberc-net ladder run`` with ``args``: by default the CLI's own ``main`` in this
    process (the same server, bots and store over real loopback sockets, without a Python
    start-up of about a second); ``process=True`` runs the command itself, for the tests
    about its process (exit status, standard error). ``timeout`` bounds a process; the
    suite's own per-test limit bounds the rest."""
    argv = ladder_argv(db or tmp_path / "ladder.sqlite3", *args)
    if process:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=tmp_path)
    return run_cli(argv[3:], cwd=tmp_path)


def run_cli(argv: Sequence[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``deberc-net ARGV`` in this process (from ``cwd`` if given): its exit status and
    what it wrote to standard output and error, as a process's would be. A trio test
    calls it in a thread (``trio.to_thread.run_sync``): the command runs its own loop.
    Its logging set-up lasts the test only (tests/conftest.py, ``logging_per_test``)."""
    out, err = io.StringIO(), io.StringIO()
    with (
        _cwd(cwd),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = cli.main(list(argv))
        except SystemExit as exit_:  # argparse's usage errors (and --help, --version)
            code = _exit_status(exit_.code)
            if isinstance(exit_.code, str):
                print(exit_.code, file=sys.stderr)  # as the interpreter writes it
    return subprocess.CompletedProcess(list(argv), code, out.getvalue(), err.getvalue())


def _exit_status(code: object) -> int:
    """The exit status a process gets for ``SystemExit(code)``."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


@contextlib.contextmanager
def _cwd(path: Path | None) -> Iterator[None]:
    if path is None:
        yield
        return
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def summary(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("\n") == 1  # --json: the summary as one object on one line
    data = json.loads(done.stdout)
    assert isinstance(data, dict)
    return data


def games_in(db: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT board, seating, match_id, written, reason, forfeit FROM ladder_games ORDER BY rowid"
    ).fetchall()
    con.close()
    keys = ("board", "seating", "match_id", "written", "reason", "forfeit")
    out = [dict(zip(keys, r, strict=True)) for r in rows]
    for row in out:
        row["seating"], row["written"] = json.loads(row["seating"]), json.loads(row["written"])
    return out


def records_in(db: Path) -> list[dict[str, Any]]:
    store = open_store(db)  # the ladder's server stores its deal records in the same file
    try:
        return [json.loads(body) for body in store.records()]
    finally:
        store.close()


def deals_in(db: Path) -> list[str]:
    """Every released deal, call by call, sorted, but for what two runs of one seeded
    ladder may differ in: the time taken, the table and match ids and which copy of a
    bot sat where (the order copies come free in)."""
    deals = []
    for record in records_in(db):
        assert record["seed"] and record["deck"]  # released: the whole deal
        for call in record["calls"]:
            call.pop("ms")
        record["players"] = [name.rsplit("-", 1)[0] for name in record["players"]]
        del record["table"], record["match"]
        deals.append(json.dumps(record, sort_keys=True))
    return sorted(deals)


def pair_of(data: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    found: dict[str, Any]
    (found,) = [p for p in data["pairs"] if (p["a"], p["b"]) == (a, b)]
    return found


def kept_seatings(db: Path) -> int:
    """How many board seatings are over, their results kept for their board's release."""
    try:
        with sqlite3.connect(db) as con:
            (kept,) = con.execute(
                "SELECT count(*) FROM running WHERE board IS NOT NULL AND result IS NOT NULL"
            ).fetchone()
    except sqlite3.OperationalError:  # the ladder's server has not made its tables yet
        return 0
    assert isinstance(kept, int)
    return kept


def wait_for_kept_seatings(db: Path, count: int, within_s: float = 30) -> None:
    """Wait until ``count`` board seatings are over, their results kept for a release."""
    deadline = time.monotonic() + within_s
    while kept_seatings(db) < count:
        assert time.monotonic() < deadline, f"no {count} board seatings over in {within_s} s"
        time.sleep(0.05)


def withheld(db: Path) -> list[str]:
    """The matches kept withheld for a board's release (their decks still secret)."""
    with sqlite3.connect(db) as con:
        return [m for (m,) in con.execute("SELECT match_id FROM running WHERE board IS NOT NULL")]


def played_matches(db: Path) -> list[str]:
    """The matches that stored a deal."""
    with sqlite3.connect(db) as con:
        return [m for (m,) in con.execute("SELECT DISTINCT match_id FROM deals")]


def unlisted(db: Path) -> list[str]:
    """The matches that stored a deal and are not listed (no 'games' row, no replay)."""
    played = played_matches(db)
    store = open_store(db)
    try:
        assert played, "the ladder played nothing"
        return [m for m in played if store.finished_match(m) is None]
    finally:
        store.close()


# A ladder the SPRT settles early (heur is far stronger than rand), and what says it did
SPRT_LADDER = (
    *("--bot", HEUR, "--bot", RAND, "--deals", "100", "--seed", "s1"),
    *("--concurrency", "1", "--sprt", "0,100,0.05,0.05", "--json"),
)


def assert_stopped_early_for_the_stronger(data: dict[str, Any]) -> None:
    sprt = data["sprt"]
    assert sprt["verdict"] == "H1" and sprt["llr"] >= sprt["bounds"][1]
    assert data["games"] < 200 and 2 * sprt["pairs"] <= data["games"]


# bots as scripts (``script``): one that orders every game, and the head of one that
# talks the protocol itself over a raw socket
EAGER = """\
from clients.client import bot_arguments, run_bot
run_bot(lambda view: view.legal[-1], bot_arguments("orders every game").parse_args())
"""
RAW_HEAD = """\
import argparse, socket
p = argparse.ArgumentParser()
for flag in ("--host", "--port", "--name", "--seek"):
    p.add_argument(flag)
a = p.parse_args()
sock = socket.create_connection((a.host, int(a.port)))
sock.sendall(f"style machine\\nlogin {a.name}\\nseek reserved\\n".encode())
"""
# a bot that plays the first seating of a board, then at the second one (its key seen
# again) exits for good: its command gone, it cannot be started again
GONE = """\
import os, random, sys
from clients.client import Bot, bot_arguments, run_to_end
args = bot_arguments("gone mid-board").parse_args()
rng = random.Random(1)
seen = []
def on_board(key):
    if key in seen:  # the board's first seating is played: kept withheld
        os.remove(sys.argv[0])
        os._exit(3)
    seen.append(key)
bot = Bot(lambda view: rng.choice(view.legal), args.name, args.host, args.port, seek=args.seek)
bot.on_board = on_board
run_to_end(bot)
"""


async def one_board_on(
    port: int,
    tmp_path: Path,
    *more: str,
    task_status: trio.TaskStatus[trio.Process] = trio.TASK_STATUS_IGNORED,
    wrapper: Sequence[str] = (),
    password_from_env: bool = False,
) -> subprocess.CompletedProcess[bytes]:
    """A one-board ladder of HEUR and RAND run by the command on the server at ``port``,
    as its admin ``ladder-admin`` (password pw-1, given with --admin-password or in
    DEBERC_ADMIN_PASSWORD); ``more`` arguments after those (a later ``--deals`` wins);
    ``wrapper``: a command line it is run through. Started with ``nursery.start``: the
    process, as it runs."""
    password = [] if password_from_env else ["--admin-password", "pw-1"]
    env = {**os.environ, "DEBERC_ADMIN_PASSWORD": "pw-1"} if password_from_env else None
    argv = [
        *wrapper,
        *ladder_argv(
            tmp_path / "results.sqlite3",
            "--server",
            f"127.0.0.1:{port}",
            *password,
            "--bot",
            HEUR,
            "--bot",
            RAND,
            "--deals",
            "1",
            "--json",
            *more,
        ),
    ]
    with trio.fail_after(40):
        return await trio.run_process(
            argv,
            capture_stdout=True,
            capture_stderr=True,
            check=False,
            task_status=task_status,
            env=env,
        )


async def clean_server_run_after_a_late_one(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
    other: str,
    clock_ms: str,
    *more: str,
) -> None:
    """A ladder on its own server (``--db`` results.sqlite3) where a bot late once
    (late_bot.ONCE_LATE) against ``other`` has one clock's call, then ``one_board_on``
    a fresh server with that ``--db``, two clean bots: no clock's call is its. ``more``:
    arguments both runs get (``--seed``)."""
    from .late_bot import ONCE_LATE  # (late_bot imports this module)

    late = script(tmp_path, "late", ONCE_LATE)
    earlier = await trio.to_thread.run_sync(
        functools.partial(
            ladder,
            tmp_path,
            *("--bot", other, "--bot", late, "--deals", "1", "--clock-ms", clock_ms),
            *("--concurrency", "1", "--json", *more),
            db=tmp_path / "results.sqlite3",  # one_board_on's --db
        )
    )
    assert summary(earlier)["clock_calls"] == {"late": 1}
    port = await start_server(admins=["ladder-admin"])
    await register("ladder-admin", "pw-1")
    done = await one_board_on(port, tmp_path, *more)  # matches m1, m2 there, clean
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["clock_calls"] == {}


def session(sid: int) -> list[int]:
    """The processes still running in session ``sid`` (not a zombie: it ended and no
    one waited for it), the bots' included (each in a process group of its own, in the
    ladder's session); each then killed."""
    found = _running_in(sid)
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return found


def wait_for_session_to_end(sid: int, within_s: float) -> None:
    """Wait until no process of session ``sid`` runs, or this process has run for
    ``within_s`` (then ``session`` finds what is left): a stall of the machine's
    meanwhile is not the processes' time to end (tests/stall_meter.py)."""
    with stall_meter() as meter:
        start = time.monotonic()
        while _running_in(sid) and meter.ran_s(start, time.monotonic()) < within_s:
            time.sleep(0.02)


def _running_in(sid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(ProcessLookupError, FileNotFoundError):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if os.getsid(int(entry.name)) == sid and state != "Z":
                    found.append(int(entry.name))
    return found
