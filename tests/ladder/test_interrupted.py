"""An interrupted ``ladder run`` (Ctrl-C, SIGTERM) releases the boards it started
before it exits, as an SPRT stop does: their seatings' matches are listed, none kept
withheld for a release that would never come (docs/bots.md "Interrupted")."""

from __future__ import annotations

import contextlib
import functools
import json
import platform
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio

from deberc_net.hangup import hangup
from deberc_net.ladder.runner import INTERRUPTED
from tests.hangup import as_from_a_terminal
from tests.server.conftest import Connector

from .helpers import (
    GONE,
    HEUR,
    LONG,
    PY,
    RAND,
    kept_seatings,
    ladder,
    ladder_argv,
    one_board_on,
    played_matches,
    script,
    session,
    unlisted,
    wait_for_kept_seatings,
    withheld,
)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_ladder_releases_the_boards_it_started(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """Stopped mid-run (far from its end), the ladder releases every board it started:
    every match it played is listed afterwards, its finished seatings with their results.
    Failed before: the boards' finished seatings stayed withheld for good (SIGTERM left
    the running ones too), and the process said it lost its server (SIGINT) or died."""
    db = tmp_path / "ladder.sqlite3"
    argv = ladder_argv(db, "--bot", HEUR, "--bot", RAND, "--deals", LONG, "--json")
    with subprocess.Popen(
        argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as done:
        try:
            wait_for_kept_seatings(db, 3)
            done.send_signal(signum)
            out, err = done.communicate(timeout=30)
        finally:
            if done.poll() is None:
                done.kill()
    assert done.returncode == 2, err
    assert err.strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert out == ""
    assert unlisted(db) == []


async def test_a_ladder_interrupted_on_a_given_server_releases_its_boards_there(
    tmp_path: Path,
    db_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    """``--server``: the ladder, stopped by Ctrl-C, releases its started boards on that
    server (which plays on): nothing of them is kept withheld there. Its seatings still
    running, their bots gone, are plain matches from then on (they end as any does)."""
    port = await start_server(admins=["ladder-admin"])
    await register("ladder-admin", "pw-1")
    ended: list[subprocess.CompletedProcess[bytes]] = []

    async def ladder(task_status: trio.TaskStatus[trio.Process]) -> None:
        ended.append(await one_board_on(port, tmp_path, "--deals", LONG, task_status=task_status))

    async with trio.open_nursery() as nursery:
        process = await nursery.start(ladder)
        with trio.fail_after(30):
            while kept_seatings(db_path) < 3:
                await trio.sleep(0.05)
        process.send_signal(signal.SIGINT)
    (done,) = ended
    assert done.returncode == 2, done.stderr.decode()
    assert done.stderr.decode().strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert withheld(db_path) == []
    assert len(unlisted(db_path)) < len(played_matches(db_path))  # its seatings over: listed


async def test_the_boards_of_a_ladder_killed_outright_are_released_by_an_admin(
    tmp_path: Path,
    db_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
    connect: Connector,
) -> None:
    """``kill -9``: nothing releases the ladder's boards, they stay withheld; the way
    docs/bots.md gives an operator lists them all: each key read from the store,
    ``release KEY`` sent by an admin on a server over that database."""
    argv = ladder_argv(db_path, "--bot", HEUR, "--bot", RAND, "--deals", LONG, "--json")
    async with trio.open_nursery() as nursery:
        process = await nursery.start(
            functools.partial(trio.run_process, argv, cwd=tmp_path, check=False)
        )
        with trio.fail_after(30):
            while kept_seatings(db_path) < 3:
                await trio.sleep(0.05)
        process.kill()
    assert withheld(db_path)
    # the killed ladder's server is found dead at once (silent past server_dead_ms)
    port = await start_server(admins=["ladder-admin"], heartbeat_ms=100, server_dead_ms=200)
    await register("ladder-admin", "pw-1")
    admin = await connect.machine(port, "ladder-admin", "pw-1")
    with sqlite3.connect(db_path) as con:
        keys = [
            k for (k,) in con.execute("SELECT DISTINCT board FROM running WHERE board IS NOT NULL")
        ]
    for key in keys:
        await admin.send(f"release {key}")
        await admin.expect("ok", cmd="release", board=key)
    assert withheld(db_path) == []
    with trio.fail_after(30):  # a seating cut off: listed as its dead server's (server-lost)
        while unlisted(db_path):
            await trio.sleep(0.05)


# a bot process that ignores SIGTERM: the ladder stopping it waits 2 s, then kills it
STUBBORN = """\
import runpy, signal, sys
signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.argv[0] = "stubborn"
runpy.run_module("clients.random_bot", run_name="__main__")
"""


def test_a_signal_once_every_game_is_played_leaves_the_run_whole(tmp_path: Path) -> None:
    """Ctrl-C after the last board is released, while the ladder stops its bots (one
    that ignores SIGTERM holds it there 2 s): nothing is left to release, the run is
    whole and stands: its summary, status 0, stored. Failed before: the finished run
    was thrown away, status 2 'interrupted'."""
    db = tmp_path / "ladder.sqlite3"
    stubborn = script(tmp_path, "stubborn", STUBBORN)
    argv = ladder_argv(db, "--bot", HEUR, "--bot", stubborn, "--deals", "1", "--json")
    # both seatings of its one board over: released
    status, out, err = _ctrl_c_once(argv, tmp_path, lambda: len(listed(db)) == 2)
    assert status == 0, err
    assert json.loads(out)["games"] == 2


def listed(db: Path) -> list[str]:
    """The matches listed (their 'games' rows), none yet if the server has no tables."""
    try:
        with sqlite3.connect(db) as con:
            return [m for (m,) in con.execute("SELECT id FROM matches")]
    except sqlite3.OperationalError:
        return []


def test_a_second_ctrl_c_ends_the_ladder_at_once_with_the_same_line(tmp_path: Path) -> None:
    """The second Ctrl-C lands while the ladder stops its bots (one that ignores SIGTERM
    holds it there 2 s): it ends with the same one line, status 2, and leaves no bot
    running. Failed before: trio grouped the KeyboardInterrupt with its tasks' ends,
    the ladder printed that traceback and exited with status 1."""
    db = tmp_path / "ladder.sqlite3"
    stubborn = script(tmp_path, "stubborn", STUBBORN)
    argv = ladder_argv(db, "--bot", HEUR, "--bot", stubborn, "--deals", LONG, "--json")
    status, out, err = _ctrl_c_once(
        argv, tmp_path, lambda: kept_seatings(db) >= 3, again_after_s=0.5, group=True
    )
    assert status == 2, err
    assert err.strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert out == ""


def test_a_ladder_whose_terminal_hangs_up_stops_its_bot_processes(tmp_path: Path) -> None:
    """SIGHUP (its terminal gone) stops the ladder as SIGTERM does: its bot processes
    stopped, its boards released, status 2. Failed before: the ladder died of it, and
    its bot processes, in groups of their own (a terminal's hangup reaches its
    foreground group, the ladder's), were left running."""
    db = tmp_path / "ladder.sqlite3"
    rand = f"rand={PY} -m clients.random_bot --seed 1"
    argv = ladder_argv(db, "--bot", HEUR, "--bot", rand, "--deals", LONG, "--json")
    # a ladder started from a terminal: SIGHUP as the system leaves it, even where this
    # suite runs under ``nohup`` (an ignored signal stays ignored across exec)
    argv = as_from_a_terminal(argv)
    status, out, err = _ctrl_c_once(
        argv, tmp_path, lambda: kept_seatings(db) >= 3, group=True, signum=signal.SIGHUP
    )
    assert status == 2, err
    assert err.strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert out == ""
    assert unlisted(db) == []


def test_under_nohup_a_ladder_leaves_sighup_ignored() -> None:
    """A ladder started with SIGHUP ignored (``nohup``) does not take it as a stop."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        assert hangup() == ()
        signal.signal(signal.SIGHUP, signal.SIG_DFL)  # (not as this suite found it: nohup)
        assert hangup() == (signal.SIGHUP,)
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_ctrl_c_while_the_ladder_deals_its_schedule_is_the_same_one_line(
    tmp_path: Path,
) -> None:
    """Ctrl-C before anything has started (a long schedule being dealt, the run already
    in the store): status 2 and the one line, nothing withheld. Failed before: a
    KeyboardInterrupt traceback."""
    db = tmp_path / "ladder.sqlite3"
    argv = ladder_argv(db, "--bot", HEUR, "--bot", RAND, "--deals", "200000", "--json")
    status, out, err = _ctrl_c_once(argv, tmp_path, lambda: _runs_started(db) > 0)
    assert status == 2, err
    assert err.strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert out == ""


# the ladder's CLI, as ``python -m deberc_net``, Ctrl-C'd the moment its run is stored
# (before the run's own handlers are set): the window a test's Ctrl-C fell into under
# load, when it signalled once the run was stored
_CTRL_C_ONCE_STORED = """\
import os, runpy, signal, sys
from deberc_net.ladder.store import SQLiteLadderStore
start_run = SQLiteLadderStore.start_run
def stored_then_ctrl_c(self, settings):
    run = start_run(self, settings)
    os.kill(os.getpid(), signal.SIGINT)
    return run
SQLiteLadderStore.start_run = stored_then_ctrl_c
sys.argv = ["deberc-net", *sys.argv[1:]]
runpy.run_module("deberc_net", run_name="__main__")
"""


def test_ctrl_c_the_moment_the_run_is_stored_is_the_same_one_line(tmp_path: Path) -> None:
    """Ctrl-C just after the run is stored, before the run has set its handlers: status
    2 and the one line. Failed before: it died of SIGINT (status -2) without a word, the
    KeyboardInterrupt past the ladder's own handling (seen under load)."""
    db = tmp_path / "ladder.sqlite3"
    argv = ladder_argv(db, "--bot", HEUR, "--bot", RAND, "--deals", "20", "--json")
    argv = [sys.executable, "-c", _CTRL_C_ONCE_STORED, *argv[3:]]  # (its "-m deberc_net")
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert done.stdout == ""
    assert _runs_started(db) == 1


def _runs_started(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            (count,) = con.execute("SELECT count(*) FROM ladder_runs").fetchone()
    except sqlite3.OperationalError:  # no tables yet
        return 0
    assert isinstance(count, int)
    return count


def _ctrl_c_once(
    argv: list[str],
    cwd: Path,
    ready: Callable[[], bool],
    again_after_s: float | None = None,
    group: bool = False,
    signum: signal.Signals = signal.SIGINT,
) -> tuple[int, str, str]:
    """The ladder of ``argv`` run until ``ready()``, then given Ctrl-C (or ``signum``;
    again after ``again_after_s``): its exit status, output and standard error.
    ``group``: it runs in a session of its own, none of which (its bots included) may
    be left running."""
    with subprocess.Popen(
        argv,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=group,
    ) as done:
        try:
            deadline = time.monotonic() + 30
            while not ready():
                assert time.monotonic() < deadline, "the ladder never got there"
                time.sleep(0.02)
            done.send_signal(signum)
            if again_after_s is not None:
                time.sleep(again_after_s)
                done.send_signal(signum)
            out, err = done.communicate(timeout=30)
        finally:
            if done.poll() is None:
                done.kill()
    if group:
        assert session(done.pid) == []
    return done.returncode, out, err


def test_a_bot_that_cannot_start_again_mid_run_stops_the_ladder_its_boards_released(
    tmp_path: Path,
) -> None:
    """A bot that ran, then cannot be started again, stops the ladder with its error, as
    ever; but first the ladder releases the boards it started, as an interrupt does.
    Failed before: its error went straight through, the board it was playing withheld
    for good (on --server, its held records too)."""
    db = tmp_path / "ladder.sqlite3"
    path = tmp_path / "gone"
    path.write_text(f"#!{sys.executable}\n{GONE}", encoding="utf-8")
    path.chmod(0o755)
    done = ladder(
        tmp_path, "--bot", HEUR, "--bot", f"gone={path}", "--concurrency", "1", "--json", db=db
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("deberc-net ladder: cannot start bot 'gone'"), done.stderr
    assert withheld(db) == [] and unlisted(db) == []


# the sleeps' syscall numbers, nanosleep and clock_nanosleep, as /proc/PID/syscall
# gives them: x86-64's (asm/unistd_64.h), aarch64's (asm-generic/unistd.h)
SLEEP_SYSCALLS = {"x86_64": ("35", "230"), "aarch64": ("101", "115")}


@pytest.mark.skipif(
    platform.machine() not in SLEEP_SYSCALLS, reason="reads x86-64 or aarch64 syscall numbers"
)
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP], ids=["ctrl-c", "sighup"])
async def test_ctrl_c_while_the_finished_run_is_written_leaves_the_run_whole(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
    signum: signal.Signals,
) -> None:
    """Ctrl-C while the finished run is written (held there: the test holds its file's
    write lock until the ladder waits for it) cuts nothing, as a signal after the last
    release: the run stands, its summary printed and stored. Failed before: a
    KeyboardInterrupt traceback, the run left without its summary. So does a hangup
    (SIGHUP at its default, as a terminal leaves it): it died of it there (status -1),
    the run left without its summary (rv51)."""
    port = await start_server(admins=["ladder-admin"])  # --server: its own file
    await register("ladder-admin", "pw-1")
    results = tmp_path / "results.sqlite3"  # the ladder's (one_board_on's --db)
    ended: list[subprocess.CompletedProcess[bytes]] = []
    # SIGHUP at its default even where this suite runs under ``nohup``
    wrapper = as_from_a_terminal([])

    async def ladder(task_status: trio.TaskStatus[trio.Process]) -> None:
        ended.append(await one_board_on(port, tmp_path, task_status=task_status, wrapper=wrapper))

    async with trio.open_nursery() as nursery:
        process = await nursery.start(ladder)
        with trio.fail_after(30):
            while _runs_started(results) == 0:  # its one write before its end
                await trio.sleep(0.01)
        lock = sqlite3.connect(results, isolation_level=None)
        try:
            lock.execute("BEGIN IMMEDIATE")
            with trio.fail_after(30):
                while not _sleeps(process.pid):  # its main thread waits for the lock
                    await trio.sleep(0.005)
            process.send_signal(signum)
            await trio.sleep(0.05)
        finally:
            lock.rollback()
            lock.close()
    (done,) = ended
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["games"] == 2
    with sqlite3.connect(results) as con:
        assert con.execute("SELECT count(*) FROM ladder_games").fetchone() == (2,)
        (stored,) = con.execute("SELECT summary FROM ladder_runs").fetchone()
    assert json.loads(stored)["games"] == 2


def _sleeps(pid: int) -> bool:
    """The process's main thread sleeps (SQLite's wait for a lock): in the trio loop it
    waits in epoll_wait instead."""
    sleeps = SLEEP_SYSCALLS[platform.machine()]
    with contextlib.suppress(FileNotFoundError, ProcessLookupError):
        return Path(f"/proc/{pid}/syscall").read_text().split()[0] in sleeps
    return False
