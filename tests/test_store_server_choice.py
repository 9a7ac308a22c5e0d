"""When an xdist run starts its one PostgreSQL server (tests/conftest.py): for a run that
takes in tests/store, however its paths reach the tree, and not for one that only
collects."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN_LOCK = "postgres-run.lock"  # tests/store/postgres_server.py: taken as it starts one
RUN_INFO = "postgres-run.json"  # and where it is (or why there is none)


def _pytest(args: list[str], base: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A run of its own: two workers, no bytecode written (the tree may be seen through a
    link), nothing of this run's xdist worker in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider"]
    command += ["-p", "no:randomly", "--basetemp", str(base), *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_a_collect_only_run_starts_no_postgres(tmp_path: Path) -> None:
    """Failed before: 'pytest -n 2 --co tests/store' started and stopped a server."""
    done = _pytest(["--co", "tests/store"], tmp_path / "base", ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (tmp_path / "base" / RUN_LOCK).exists()


def test_a_tree_reached_through_a_link_gets_the_runs_one_server(tmp_path: Path) -> None:
    """Tests under tests/store named through a symlink to the tree: the controller starts
    the run's server (failed before: the resolved path was not under the unresolved
    tests/store, so none, and each worker would start its own)."""
    link = tmp_path / "tree"
    link.symlink_to(ROOT)
    test = link / "tests" / "store" / "test_sqlite_open_errors.py"  # needs no server
    done = _pytest([str(test)], tmp_path / "base", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "base" / RUN_INFO).exists()
