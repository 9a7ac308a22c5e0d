"""The clock's calls' read at a ladder run's end: a query a match against one for all.

    .venv/bin/python bench/clock_calls_read.py [--matches 4000]

A single-machine ladder run counts the calls the clock made for its bots from its
matches' deals (ladder/clock_calls.py) while Ctrl-C is held (its finished run's
writes). It read them with ``match_records``, a query a match; now with
``matches_records``, one query. Both timed on ``--matches`` finished matches of one
real deal each (a game of a one-deal ladder, ``selfplay``'s records), on an SQLite
file and on a throw-away PostgreSQL server (tests/store/postgres_server.py, on
loopback: a database elsewhere adds its round trip to every query of the first).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.store_writes import sample_records  # noqa: E402
from deberc_net.server.store import Store, open_store  # noqa: E402
from tests.store.postgres_server import PostgresServer  # noqa: E402


def fill(store: Store, records: list[dict[str, Any]], matches: int) -> list[str]:
    ids = [f"m{n + 1}" for n in range(matches)]
    for n, match in enumerate(ids):
        store.add_deal({**records[n % len(records)], "match": match, "deal_no": 1})
        store.finish_match(match, 3, ["a", "b"], "moscow", [], "a", "deals", [162, 0])
    return ids


def measure(name: str, store: Store, ids: list[str]) -> None:
    started = time.perf_counter()
    each = {match: store.match_records(match) for match in ids}
    per_match = time.perf_counter() - started
    started = time.perf_counter()
    together = store.matches_records(ids)
    one = time.perf_counter() - started
    assert together == each
    print(f"{name:9} {len(ids)} matches: a query each {per_match:6.3f} s,"
          f" one query {one:6.3f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=4000)
    args = parser.parse_args()
    records = sample_records()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bench.sqlite3")
        try:
            measure("sqlite", store, fill(store, records, args.matches))
        finally:
            store.close()
    server = PostgresServer.start()
    try:
        store = open_store(server.new_database())
        try:
            measure("postgres", store, fill(store, records, args.matches))
        finally:
            store.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
