"""``serve --workers``' workers are forked from a parent that imported the server once
(deberc_net/server/cluster/forked.py), and each is what a fresh interpreter was: only
its own pipes on fd 0 and 1 (no other worker's, nor the parent's bound socket: a worker
holding another's stdin open would hide the parent's death from it), no signal left
blocked, its parent's atexit functions not run; the parent refuses to fork with threads
running; its handle on a worker (``Child``) says a signal's end as Popen does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import trio

from deberc_net.server.cluster.forked import Child, ForkRefused, TimeoutExpired, fork_worker

from .workers import SETTINGS, served_workers, settings_file

GONE_WITHIN_S = 20  # a worker's grace and its store's close, on a busy 2-core machine


def _links(pid: int) -> dict[int, str]:
    """``pid``'s open descriptors: what each is (``pipe:[N]``, ``socket:[N]``, a path)."""
    found = {}
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            found[int(name)] = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:  # closed meanwhile
            continue
    return found


def _status(pid: int, field: str) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _check_its_own_only(parent: int, pid: int) -> None:
    """Of what the parent holds (its ends of every worker's pipes, its bound socket),
    worker ``pid`` holds only its own two pipes, on fd 0 and 1; no signal is blocked."""
    parents = {link for fd, link in _links(parent).items() if fd > 2}
    own = _links(pid)
    assert own[0].startswith("pipe:") and own[1].startswith("pipe:"), own
    shared = {link for fd, link in own.items() if fd != 2 and link in parents}
    assert shared == {own[0], own[1]}, (shared, own)
    assert int(_status(pid, "SigBlk"), 16) == 0


@pytest.mark.timeout(130)
async def test_each_worker_holds_its_own_pipes_only_and_stops_with_a_killed_parent(
    postgres_url: str, tmp_path: Path
) -> None:
    """A restarted worker too, forked beside a running one: a parent killed by kill -9
    then leaves no worker waiting for an end of its stdin that another holds open."""
    settings = settings_file(tmp_path, SETTINGS.replace("house_bots = true", "house_bots = false"))
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings) as workers:
            parent = workers.process.pid
            for pid in workers.pids.values():
                _check_its_own_only(parent, pid)
            first = workers.pids[0]
            os.kill(first, signal.SIGKILL)
            with trio.fail_after(40):
                while workers.pids[0] == first:
                    await trio.sleep(0.05)
            for pid in workers.pids.values():
                _check_its_own_only(parent, pid)
            pids = dict(workers.pids)
            workers.process.kill()  # kill -9 of the parent alone
            with trio.fail_after(GONE_WITHIN_S):
                while any(_alive(pid) for pid in pids.values()):
                    await trio.sleep(0.1)
    died = [e for e in workers.events if e.get("event") == "worker_died"]
    assert [(e["worker"], e["status"]) for e in died] == [(0, -signal.SIGKILL)]
    forked = [e for e in workers.events if e.get("event") == "worker_listening"]
    assert sorted(e["worker"] for e in forked) == [0, 0, 1]  # (its lines say which)


@pytest.mark.timeout(30)
def test_a_childs_end_by_a_signal_is_its_negative_and_a_wait_can_time_out() -> None:
    pid = os.fork()
    if pid == 0:  # (a bare child: it runs nothing of the test's)
        time.sleep(30)
        os._exit(0)
    child = Child(pid, None, None)
    try:
        assert child.poll() is None
        with pytest.raises(TimeoutExpired):
            child.wait(0.05)
        child.send_signal(signal.SIGTERM)
        assert child.wait(10) == -signal.SIGTERM == child.returncode
        child.send_signal(signal.SIGKILL)  # reaped: its pid is nobody's to signal
        assert child.poll() == -signal.SIGTERM
    finally:
        if child.returncode is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


@pytest.mark.timeout(30)
def test_the_parent_refuses_to_fork_with_a_thread_running() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        with pytest.raises(ForkRefused, match=r"runs \d+ thread\(s\) besides its own"):
            fork_worker({}, None, ())
    finally:
        stop.set()
        thread.join()


# a parent that forks a worker with no settings: its worker_main fails at once
BROKEN = (
    "import atexit, sys\n"
    "from deberc_net.server.cluster.forked import fork_worker\n"
    "atexit.register(lambda: print('the parent exits', flush=True))\n"
    "child = fork_worker({}, None, ())\n"
    "print(child.wait(20), child.stdout.read(), flush=True)\n"
)


@pytest.mark.timeout(60)
def test_a_worker_that_raises_prints_it_and_ends_with_1_not_as_its_parent() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BROKEN], capture_output=True, timeout=40, check=False
    )
    assert done.returncode == 0, done.stderr
    # its stdout (a pipe to the parent) said nothing; the parent's atexit ran once, its own
    assert done.stdout == b"1 b''\nthe parent exits\n"
    assert b"Traceback" in done.stderr and b"KeyError: 'config'" in done.stderr
