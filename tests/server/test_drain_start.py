"""A drain asked for while the server starts (docs/protocol.md §11.4a: "A SIGUSR1 that
arrives while the server starts is kept and begins the drain once it listens";
docs/scaling.md: to the parent of ``serve --workers``, "one still starting gets it once
it is up"). No PostgreSQL here: the workers are stand-ins that say ``ready`` when told
and end on SIGUSR1 as a worker with no match to wait for does."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

# a stand-in worker: 'ready' after DELAY seconds and, if AFTER is a pid, once that
# process has ended and been reaped (by the parent: it logs the end as it reaps it, so
# before it hears this one's 'ready'); SIGUSR1 (its drain, nothing to play)
# ends it at once with status 0, as it ends a worker with no match running. It reads
# its standard input, which ends with its parent (a parent killed, the test's time out,
# leaves none running), a read at a time as a worker does: the parent writes its drain
# word there just before the signal, and one buffered read of it all would take the
# word and read on in C, the signal's handler never run. And never a read that blocks:
# a signal landing between the read of the word and the next read (Python runs its
# handler between bytecodes) left that read waiting for ever, the handler not run (the
# test hung under load); a select with a timeout lets the handler run within 0.1 s
_WORKER = """
import os, select, signal, sys, time
signal.signal(signal.SIGUSR1, lambda *_: sys.exit(0))
time.sleep({delay})
while {after} and os.path.exists("/proc/{after}"):  # (that worker ended and reaped)
    time.sleep(0.01)
print("ready", flush=True)
while not select.select([0], [], [], 0.1)[0] or os.read(0, 4096):
    pass
"""

# the parent of serve --workers, its workers the stand-ins above (readied after DELAYS,
# and worker I once worker AFTER[I] has ended);
# SIGNAL_AT: how it gets its SIGUSR1 ('ready:N' as it hears worker N is ready, 'check':
# as it checks its settings, before its own signal handlers are set)
_PARENT = """
import os, signal, subprocess, sys
from deberc_net import cli
from deberc_net.server.cluster import launch

WORKER = {worker!r}
DELAYS = {delays!r}
AFTER = {after!r}
SIGNAL_AT = {signal_at!r}
PIDS = {{}}

def start(settings, index, count, parent="", rules=None, parents_own=(), spawned=None):
    after = PIDS[AFTER[index]] if index in AFTER else 0
    code = WORKER.format(delay=DELAYS[index], after=after)
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stdin=subprocess.PIPE
    )
    PIDS[index] = process.pid
    return launch.Worker(index, process)

def check(config, count, **given):
    if SIGNAL_AT == "check":
        os.kill(os.getpid(), signal.SIGUSR1)

heard = launch.heard_from

def heard_then_drain(worker, line):
    heard(worker, line)
    if SIGNAL_AT == f"ready:{{worker.index}}" and worker.ready:
        os.kill(os.getpid(), signal.SIGUSR1)

launch.start_worker = start
launch.preload = lambda: None  # (the stand-ins run no server: nothing to import for them)
launch.check_workers = check
launch.heard_from = heard_then_drain
sys.exit(cli.main(["serve", "--workers", str(len(DELAYS)), "--port", "0", "--http-port", "off",
                   "--db", "postgresql://nobody@127.0.0.1:1/none"]))
"""


def _parent(
    delays: list[float], signal_at: str, after: dict[int, int] | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """Run the stand-in parent to its end: its exit status and its log's lines."""
    code = textwrap.dedent(_PARENT).format(
        worker=_WORKER, delays=delays, after=after or {}, signal_at=signal_at
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=Path(__file__).parents[2],
    )
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    assert all(line.startswith("{") for line in done.stderr.splitlines()), done.stderr
    return done.returncode, lines


def test_a_worker_drained_while_another_still_starts_did_not_fail_to_start() -> None:
    # worker 0 serves at once and gets the drain; with nothing to play it stops at once,
    # while worker 1 still starts (ready once worker 0 has ended: not after a fixed 2 s,
    # a wait that was most of the test): that stop is its drain's end, not a failed start
    status, lines = _parent([0, 0], "ready:0", after={1: 0})
    events = [line["event"] for line in lines]
    assert "worker_failed_to_start" not in events, lines
    assert status == 0
    drained = [line for line in lines if line["event"] == "worker_drained"]
    assert sorted(line["worker"] for line in drained) == [0, 1]
    assert [line["status"] for line in drained] == [0, 0]
    assert events.index("drain") < events.index("drained") < events.index("stopped")
    assert "shutdown" not in events and events[-1] == "stopped"


def test_a_sigusr1_to_the_parent_as_it_starts_is_kept_for_its_workers() -> None:
    # it comes before the parent has set its own handlers (as it checks its settings):
    # kept, passed on to each worker once up, and the parent drained, status 0
    status, lines = _parent([0.3, 0.3], "check")
    events = [line["event"] for line in lines]
    assert status == 0, lines
    assert events.count("worker_drained") == 2
    assert events.index("drain") < events.index("drained") < events.index("stopped")


# serve itself, a SIGUSR1 sent to it as it loads its rules (before its own handlers)
_SERVE = """
import os, signal, sys
from deberc_net import cli
from deberc_net.plugins import RuleBook

loaded = RuleBook.load

def load(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGUSR1)
    return loaded(*args, **kwargs)

RuleBook.load = load
sys.exit(cli.main(["serve", "--port", "0", "--http-port", "off", "--db", sys.argv[1]]))
"""


def test_a_sigusr1_as_serve_starts_is_kept_and_drains_once_it_listens(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SERVE, str(tmp_path / "s.sqlite3")],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr  # not ended by the signal (-10)
    events = [json.loads(line)["event"] for line in done.stderr.splitlines()]
    assert events == ["listening", "drain", "drained", "shutdown", "stopped"]
