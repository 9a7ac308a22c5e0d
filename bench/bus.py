"""PostgreSQL LISTEN/NOTIFY as the bus between server workers: messages per second and
the time from NOTIFY to its arrival (docs/scaling.md, ``serve --workers``).

    .venv/bin/python bench/bus.py [--messages 5000] [--listeners 2] [--size 200]

On a throw-away PostgreSQL server (tests/store/postgres_server.py): ``--listeners``
connections LISTEN on one channel, each in its own thread; one connection sends
``--messages`` notifications of ``--size`` bytes (a lobby event: a table's seats, a
'say' line), each its own transaction (autocommit), as a worker publishing lobby
changes would. Prints the publish rate, the delivery rate every listener saw, and the
median and 99th percentile latency (publish to arrival, one clock: one machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.store.postgres_server import PostgresServer  # noqa: E402

CHANNEL = "lobby"


def listen(url: str, expected: int, ready: threading.Barrier, latencies: list[float]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        ready.wait()
        for note in conn.notifies(timeout=60, stop_after=expected):
            sent = float(note.payload.split(" ", 1)[0])
            latencies.append(time.perf_counter() - sent)
            if len(latencies) >= expected:
                break


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--listeners", type=int, default=2)
    parser.add_argument("--size", type=int, default=200)
    args = parser.parse_args()
    server = PostgresServer.start()
    try:
        url = server.url()
        ready = threading.Barrier(args.listeners + 1)
        latencies: list[list[float]] = [[] for _ in range(args.listeners)]
        threads = [
            threading.Thread(target=listen, args=(url, args.messages, ready, latencies[i]))
            for i in range(args.listeners)
        ]
        for t in threads:
            t.start()
        with psycopg.connect(url, autocommit=True) as conn:
            ready.wait()
            started = time.perf_counter()
            for _ in range(args.messages):
                stamp = f"{time.perf_counter():.6f} "
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, stamp.ljust(args.size, "x")))
            sent_s = time.perf_counter() - started
        for t in threads:
            t.join()
        received_s = time.perf_counter() - started
        every = sorted(x for each in latencies for x in each)
        got = [len(each) for each in latencies]
        print(f"published {args.messages} x {args.size} B: {args.messages / sent_s:.0f}/s")
        print(f"delivered to each of {args.listeners} listeners: {got}, "
              f"{args.messages / received_s:.0f}/s each")  # fmt: skip
        p99 = every[int(len(every) * 0.99) - 1]
        print(f"latency: median {statistics.median(every) * 1000:.2f} ms, "
              f"p99 {p99 * 1000:.2f} ms")  # fmt: skip
    finally:
        server.stop()


if __name__ == "__main__":
    main()
