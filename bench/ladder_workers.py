"""Distributed ladder throughput: deals/s with 2 ladder workers against 1, same boards.

    .venv/bin/python bench/ladder_workers.py [--boards 40] [--concurrency 2]

Starts a throw-away PostgreSQL server (as the tests do: tests/store/postgres_server.py,
Debian's postgresql package), then, on a fresh database each time:

1. ``ladder run --distributed`` with ``--boards`` boards of the heuristic bot against
   the random bot (seeded), played by **one** ``ladder worker --exit-when-done``;
2. the same with **two** workers.

Each worker runs its own server and ``--concurrency`` copies of each bot on this
machine. Reports deals per second (from the first worker's start to the run's report,
start-up included) and the ratio 2 workers ÷ 1; both runs' results must be equal (the
same seed gives the same report whoever played what). Everything is on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.store.postgres_server import PostgresServer  # noqa: E402

PY = shlex.quote(sys.executable)
BOTS = [
    "--bot",
    f"heur={PY} -m clients.heuristic_bot",
    "--bot",
    f"rand={PY} -m clients.random_bot --seed 1",
]


def deberc(*args: str) -> list[str]:
    return [sys.executable, "-m", "deberc_net", *args]


def one_run(url: str, workers: int, boards: int, concurrency: int) -> tuple[float, dict[str, Any]]:
    """(deals/s, the report) of a distributed run played by ``workers`` workers."""
    run = subprocess.Popen(
        deberc(
            "ladder", "run", *BOTS, "--deals", str(boards), "--seed", "bench",
            "--concurrency", str(concurrency), "--db", url, "--distributed", "--json",
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )  # fmt: skip
    time.sleep(1.0)  # the run queues its boards (a worker started earlier just waits)
    started = time.perf_counter()
    started_workers = [
        subprocess.Popen(
            deberc("ladder", "worker", "--db", url, "--exit-when-done"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        for _ in range(workers)
    ]
    out, _ = run.communicate(timeout=600)
    seconds = time.perf_counter() - started
    for worker in started_workers:
        worker.wait(timeout=60)
    if run.returncode != 0:
        raise SystemExit(f"the ladder run failed ({run.returncode})")
    report = json.loads(out)
    return report["deals"] / seconds, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=2, help="copies of each bot per worker")
    args = parser.parse_args()
    server = PostgresServer.start()
    try:
        rates: dict[int, float] = {}
        reports: dict[int, dict[str, Any]] = {}
        for workers in (1, 2):
            rates[workers], reports[workers] = one_run(
                server.new_database(), workers, args.boards, args.concurrency
            )
            print(f"{workers} worker(s): {reports[workers]['deals']} deals, "
                  f"{rates[workers]:.1f} deals/s")  # fmt: skip
        for report in reports.values():
            report.pop("seconds"), report.pop("deals_per_second")
        same = reports[1] == reports[2]
        print(f"ratio 2 workers / 1: {rates[2] / rates[1]:.2f}x on {os.cpu_count()} cores; "
              f"same results: {same}")  # fmt: skip
        if not same:
            raise SystemExit("the two runs' results differ")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
