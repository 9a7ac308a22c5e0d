"""``serve --workers 2`` against ``--workers 1`` on one PostgreSQL database, with the
same client load (docs/scaling.md).

    .venv/bin/python bench/workers.py [--tables 20] [--seconds 3] [--repeat 3]

On a throw-away PostgreSQL server (tests/store/postgres_server.py), for each repeat it
starts ``deberc-net serve --workers 1`` and ``--workers 2`` in turn (a fresh database
each, the order alternating, so a slow spell on the machine hits both) and drives each
with the bots of bench/server.py: ``--tables`` busy two-player tables, 2 × tables
machine-style bots in this process that seek games and answer every ``ask`` at random.
It counts calls (round trips) per second over a window of ``--seconds`` after a
warm-up, the servers' CPU time per call (every process of the server: the parent and
its workers), this client process's CPU share, and the machine's load average, which
says how much the other processes on the machine took.

Prints a short text summary (medians), then ONE JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import lean_bots  # bench/lean_bots.py
import trio
from lines import machine  # bench/lines.py
from server import Load, bots, percentile  # bench/server.py: the same bots
from server import cpu_seconds as process_cpu_seconds

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.store.postgres_server import PostgresServer  # noqa: E402

WARM_UP_S = 1.0
SETTINGS = (
    "[server]\nlog_level = 'warning'\nmax_connections_per_address = 0\n"
    "max_tables_per_address = 0\nlag_ms = 0\n"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(url: str, workers: int, settings: Path) -> tuple[subprocess.Popen[str], int]:
    """``deberc-net serve --workers N`` on a free port, once it listens. The parent of
    several workers logs its port; one worker (the plain server, logging warnings
    only) is given a free port and asked until it answers."""
    port = 0 if workers > 1 else free_port()
    command = [sys.executable, "-m", "deberc_net", "serve", "--workers", str(workers)]
    command += ["--db", url, "--port", str(port), "--http-port", "off", "--config", str(settings)]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    if workers == 1:
        subprocess_drain(proc)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return proc, port
            except OSError:
                time.sleep(0.1)
        proc.kill()
        raise RuntimeError("the server did not listen")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        entry = json.loads(line)
        if entry.get("event") == "listening":
            subprocess_drain(proc)
            return proc, int(entry["port"])
    proc.kill()
    raise RuntimeError("the server did not listen")


def subprocess_drain(proc: subprocess.Popen[str]) -> None:
    """Keep reading the server's log so it never blocks on a full pipe."""
    import threading

    def drain() -> None:
        assert proc.stderr is not None
        for _ in proc.stderr:
            pass

    threading.Thread(target=drain, daemon=True).start()


def family(pid: int) -> list[int]:
    """``pid`` and its children (a parent and its workers)."""
    found = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return found
    for child in children:
        found += family(int(child))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """The processes' CPU time together; one that has exited counts nothing."""
    total = 0.0
    for pid in pids:
        try:
            total += process_cpu_seconds(pid)
        except OSError:
            continue
    return total


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def window(port: int, pids: list[int], tables: int, seconds: float) -> dict[str, float]:
    load = Load()
    deadline = trio.current_time() + WARM_UP_S + seconds
    async with trio.open_nursery() as nursery:
        bots(port, tables, "b", deadline, load, nursery)
        await trio.sleep(WARM_UP_S)
        load.counting = True
        cpu0, mine0, t0 = cpu_seconds(pids), own_cpu(), trio.current_time()
        load_avg0 = os.getloadavg()[0]
        await trio.sleep_until(deadline)
        load.counting = False
        cpu, mine = cpu_seconds(pids) - cpu0, own_cpu() - mine0
        elapsed = trio.current_time() - t0
    return figures(load, elapsed, cpu, mine, max(load_avg0, os.getloadavg()[0]))


def figures(
    load: Load, elapsed: float, cpu: float, mine: float, load_avg: float
) -> dict[str, float]:
    """One window's figures: calls/s, the server's and the client's CPU, latencies."""
    done = load.done
    return {
        "per_s": done / elapsed,
        "server_cpu_us_per": 1e6 * cpu / done if done else float("nan"),
        "server_cores": cpu / elapsed,
        "client_cores": mine / elapsed,
        "p50_ms": 1000 * percentile(load.latencies, 0.5),
        "p99_ms": 1000 * percentile(load.latencies, 0.99),
        "load_avg_1min": load_avg,
    }


def lean_window(port: int, pids: list[int], tables: int, seconds: float) -> dict[str, float]:
    """As ``window``, with the bots of bench/lean_bots.py (one thread, no trio)."""
    load = Load()
    marks: list[tuple[float, float, float, float]] = []

    def mark() -> None:
        marks.append((cpu_seconds(pids), own_cpu(), time.monotonic(), os.getloadavg()[0]))

    lean_bots.run(port, tables, "b", WARM_UP_S, seconds, load, mark)
    (cpu0, mine0, t0, load0), (cpu1, mine1, t1, load1) = marks
    return figures(load, t1 - t0, cpu1 - cpu0, mine1 - mine0, max(load0, load1))


def measure(
    url: str, workers: int, settings: Path, tables: int, seconds: float, client: str
) -> dict[str, float]:
    proc, port = start(url, workers, settings)
    try:
        time.sleep(0.5)  # every worker's share of the lobby is told
        if client == "lean":
            return lean_window(port, family(proc.pid), tables, seconds)
        return trio.run(partial(window, port, family(proc.pid), tables, seconds))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--client",
        choices=("lean", "trio"),
        default="lean",
        help="the load's bots: lean (bench/lean_bots.py, cheapest) or trio (bench/server.py's)",
    )
    args = parser.parse_args()
    server = PostgresServer.start()
    runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Path(tmp) / "server.toml"
            settings.write_text(SETTINGS)
            for r in range(args.repeat):
                for workers in (1, 2) if r % 2 == 0 else (2, 1):
                    url = server.new_database()
                    runs[workers].append(
                        measure(url, workers, settings, args.tables, args.seconds, args.client)
                    )
    finally:
        server.stop()
    result: dict[str, Any] = {"bench": "workers", "machine": machine(), "args": vars(args)}
    for workers, measured in runs.items():
        result[f"workers_{workers}"] = {
            key: {
                "median": statistics.median(m[key] for m in measured),
                "all": [m[key] for m in measured],
            }
            for key in measured[0]
        }
    ratio = result["workers_2"]["per_s"]["median"] / result["workers_1"]["per_s"]["median"]
    result["calls_ratio_median"] = round(ratio, 3)
    for workers in (1, 2):
        f = {k: v["median"] for k, v in result[f"workers_{workers}"].items()}
        print(
            f"--workers {workers}: {f['per_s']:7.0f} calls/s  {f['server_cpu_us_per']:6.1f} µs "
            f"server CPU/call  server {f['server_cores']:.2f} cores, client "
            f"{f['client_cores']:.2f} cores  p50 {f['p50_ms']:5.1f} ms  p99 {f['p99_ms']:6.1f} ms"
            f"  load {f['load_avg_1min']:.1f}"
        )
    print(f"ratio calls/s 2 workers / 1: {result['calls_ratio_median']}")
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
