"""A test run killed mid-way leaves no PostgreSQL server and no Chromium running
(tests/watchdog.py): a pytest process that has both started is killed with SIGKILL, so
nothing of its own runs at its end, and within a time limit their processes are gone and
their directories removed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the run to be killed: it starts both with the suite's own fixtures, says where they
# are, and waits for its end
HELD = """
import json, os, signal
from pathlib import Path

def test_hold(postgres_server, browser):
    data = postgres_server.directory / "data"
    held = Path(os.environ["DEBERC_HELD"])
    held.with_suffix(".part").write_text(json.dumps({
        "postgres": int((data / "postmaster.pid").read_text().split()[0]),
        "postgres_dir": str(postgres_server.directory),
        "chromedriver": browser.service.process.pid,
        "profile": browser.capabilities["chrome"]["userDataDir"],
    }))
    held.with_suffix(".part").rename(held)  # whole when it appears
    signal.pause()
"""


def _states() -> dict[int, tuple[str, int]]:
    """Each process's state letter and process group, from /proc."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # gone meanwhile
            continue
        state, _parent, group = text[text.rindex(")") + 2 :].split()[:3]
        found[int(stat.parent.name)] = (state, int(group))
    return found


def _alive(pid: int) -> bool:
    """Running, not a zombie (an orphan's zombie lasts until PID 1 reaps it)."""
    state = _states().get(pid)
    return state is not None and state[0] != "Z"


def _group_alive(group: int) -> bool:
    return any(state != "Z" and g == group for state, g in _states().values())


def _skipped(output: str) -> str:
    """The reason the held run's test was skipped, from its summary (``-ra``)."""
    reasons = [line for line in output.splitlines() if line.startswith("SKIPPED")]
    return reasons[0].partition(": ")[2] if reasons else output


def _wait_for(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _held_run_place(factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Where the held run keeps its files, and its name as the run's worker: beside this
    run's xdist workers' directories, so its PostgreSQL is a copy of the run's template
    (tests/store/conftest.py), as each worker's is, not an initdb of its own (about a
    second of CPU and two of wall time)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    shared = factory.getbasetemp().parent if worker else factory.getbasetemp()
    name = f"held-by-{worker or 'main'}"
    return shared / name, name


def test_a_killed_run_leaves_no_postgres_nor_chromium_running(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    (tmp_path / "test_held.py").write_text(HELD)
    base, name = _held_run_place(tmp_path_factory)
    held = tmp_path / "held.json"
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "-p",
        "no:xdist",
        "-p",
        "tests.store.conftest",
        "-p",
        "tests.web.conftest",
        "--rootdir",
        str(ROOT),
        "-c",
        str(ROOT / "pyproject.toml"),
        "--basetemp",
        str(base),
        str(tmp_path / "test_held.py"),
    ]
    run = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, "DEBERC_HELD": str(held), "PYTEST_XDIST_WORKER": name},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        started = _wait_for(lambda: held.exists() or run.poll() is not None, 60)
        if started and not held.exists() and run.wait(timeout=30) == 0:
            # a skip of the suite's own (no PostgreSQL outside CI): this test's too
            pytest.skip(_skipped(run.communicate(timeout=30)[0].decode()))
        assert started and held.exists(), run.communicate(timeout=30)[0].decode()
        where = json.loads(held.read_text())
        assert _alive(where["postgres"]) and _group_alive(where["chromedriver"])
    finally:
        run.send_signal(signal.SIGKILL)
        run.communicate(timeout=30)
    assert _wait_for(lambda: not _alive(where["postgres"]), 30), "postgres left running"
    assert _wait_for(lambda: not _group_alive(where["chromedriver"]), 30), "chromium left"
    assert _wait_for(lambda: not Path(where["postgres_dir"]).exists(), 30)
    assert _wait_for(lambda: not Path(where["profile"]).exists(), 30)
