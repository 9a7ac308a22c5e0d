"""A distributed ladder's side on a real PostgreSQL, for the tests of ``ladder run
--distributed`` and ``ladder worker`` processes (tests/store/test_distributed_ladder.py,
test_distributed_stops.py): a worker process, a query, a bounded wait, and how many
boards are queued."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

LEASE_S = "1.5"


def ladder_worker(
    url: str, log: Path, lease_s: str = LEASE_S, *, exit_when_done: bool = True
) -> subprocess.Popen[str]:
    """A ``ladder worker`` process; what it says goes to ``log``. Without
    ``exit_when_done`` it may start before a run queues its boards (it waits for them),
    and runs till stopped."""
    argv = ["ladder", "worker", "--db", url, "--lease-s", lease_s]
    argv += ["--exit-when-done"] if exit_when_done else []
    with log.open("w") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "deberc_net", *argv],
            stdout=subprocess.DEVNULL,
            stderr=out,
            text=True,
        )


def query(url: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(sql.encode(), params).fetchall()]


def wait_for(what: str, check: object, deadline: float, poll_s: float = 0.05) -> None:
    assert callable(check)
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(poll_s)


def queued(url: str) -> int:
    if not query(url, "SELECT to_regclass('ladder_boards')")[0][0]:
        return 0
    return int(query(url, "SELECT count(*) FROM ladder_boards")[0][0])
