"""Store write rates: deal records stored per second, SQLite file against PostgreSQL.

    .venv/bin/python bench/store_writes.py [--seconds 3] [--threads 4]

Stores real deal records (``selfplay``'s, about 2.2 KB each) with ``add_deal`` — one
transaction each, as a server does at every deal's end — for ``--seconds`` from one
thread, then from ``--threads`` threads at once (a server's worker threads), on a fresh
SQLite file and on a throw-away PostgreSQL server (tests/store/postgres_server.py:
**fsync off**, so the PostgreSQL figure is an upper bound for a server whose disk
commits each transaction). Also prints ``new_match_number`` calls per second.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deberc_net.plugins import RuleBook  # noqa: E402
from deberc_net.selfplay import run as selfplay  # noqa: E402
from deberc_net.server.store import Store, open_store  # noqa: E402
from tests.store.postgres_server import PostgresServer  # noqa: E402


def sample_records() -> list[dict[str, Any]]:
    out = io.StringIO()
    selfplay(RuleBook.load().ruleset(2, "moscow", []), 5, "bench", out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def rate(threads: int, seconds: float, call: Callable[[int, int], None]) -> float:
    """Calls per second of ``call(thread, n)`` from ``threads`` threads for ``seconds``."""
    counts = [0] * threads
    deadline = time.perf_counter() + seconds

    def loop(i: int) -> None:
        while time.perf_counter() < deadline:
            call(i, counts[i])
            counts[i] += 1

    started = time.perf_counter()
    workers = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - started)


def measure(name: str, store: Store, records: list[dict[str, Any]], args: Any) -> None:
    def add(thread: int, n: int) -> None:
        record = records[n % len(records)]
        store.add_deal({**record, "match": f"b{name}-{thread}-{n}", "deal_no": 1})

    one = rate(1, args.seconds, add)
    many = rate(args.threads, args.seconds, add)
    numbers = rate(1, args.seconds / 2, lambda _t, _n: store.new_match_number() and None)
    print(f"{name:10} add_deal: {one:7.0f}/s (1 thread) {many:7.0f}/s ({args.threads} threads);"
          f" new_match_number: {numbers:7.0f}/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    records = sample_records()
    size = sum(len(json.dumps(r, separators=(",", ":"))) for r in records) / len(records)
    print(f"{len(records)} sample records, {size:.0f} bytes each on average")
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bench.sqlite3", serving=True)
        try:
            measure("sqlite", store, records, args)
        finally:
            store.close()
    server = PostgresServer.start()
    try:
        store = open_store(server.new_database(), serving=True)
        try:
            measure("postgres", store, records, args)
        finally:
            store.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
