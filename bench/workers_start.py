"""The CPU a ``serve --workers 2`` takes to start (to its ``listening`` line) and to
restart a killed worker (to that worker's ``worker_listening``), on a throw-away
PostgreSQL server (tests/store/postgres_server.py) (docs/performance.md, "Workers
forked from a preloaded parent").

    .venv/bin/python bench/workers_start.py [--repeat 5] [--root DIR ...]

Each ``--root`` is a checkout whose code is started (PYTHONPATH), in turn each repeat,
so a slow spell on the machine hits each; the default is this one. The CPU is every
process of the server's, read from /proc as it stands at the line: the parent and its
workers for the start; the new worker and the parent's share since the kill for the
restart. And each worker's memory at ``listening`` (/proc/PID/smaps_rollup: its
resident set, its proportional share, its private pages), and the parent's share, in
MiB. Prints one line a
root with min and median, then ONE JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from server import cpu_seconds  # bench/server.py

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.store.postgres_server import PostgresServer  # noqa: E402

SETTINGS = "[server]\nlog_level = 'warning'\nworker_restart_ms = 100\n"
LIMIT_S = 60


def _lines(proc: subprocess.Popen[str], until: str, worker: int | None = None) -> dict[str, object]:
    """The log lines up to the first ``until`` event (of ``worker``, if given)."""
    assert proc.stderr is not None
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("event") == until and (worker is None or entry.get("worker") == worker):
            return dict(entry)
    proc.kill()
    raise RuntimeError(f"no {until} line")


def memory(pid: int) -> dict[str, float]:
    """``pid``'s Rss, Pss and private pages (clean and dirty), in MiB."""
    kib: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        kib[name] = int(value.split()[0])
    private = kib["Private_Clean"] + kib["Private_Dirty"]
    return {"rss": kib["Rss"] / 1024, "pss": kib["Pss"] / 1024, "private": private / 1024}


def one(url: str, root: Path, settings: Path) -> tuple[float, float, list[dict[str, float]], float]:
    """The start's CPU and one restart's, in seconds, the workers' memory and the
    parent's Pss (MiB)."""
    command = [sys.executable, "-m", "deberc_net", "serve", "--workers", "2", "--db", url]
    command += ["--port", "0", "--http-port", "off", "--config", str(settings)]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    try:
        pids: dict[int, int] = {}
        assert proc.stderr is not None
        deadline = time.monotonic() + LIMIT_S
        while time.monotonic() < deadline:
            entry = json.loads(proc.stderr.readline())
            if entry.get("event") == "worker_started":
                pids[int(entry["worker"])] = int(entry["pid"])
            if entry.get("event") == "listening":
                break
        start = cpu_seconds(proc.pid) + sum(cpu_seconds(p) for p in pids.values())
        memories = [memory(p) for p in pids.values()]
        parents_pss = memory(proc.pid)["pss"]
        parent_before = cpu_seconds(proc.pid)
        os.kill(pids[0], signal.SIGKILL)
        new = int(_lines(proc, "worker_started", 0)["pid"])
        _lines(proc, "worker_listening", 0)
        restart = cpu_seconds(new) + cpu_seconds(proc.pid) - parent_before
        proc.send_signal(signal.SIGTERM)
        proc.stderr.read()
        proc.wait(LIMIT_S)
        return start, restart, memories, parents_pss
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--root", action="append", type=Path)
    args = parser.parse_args()
    roots: list[Path] = args.root or [ROOT]
    names = ("start", "restart", "rss", "pss", "private", "parent_pss")
    figures: dict[str, dict[str, list[float]]] = {str(r): {n: [] for n in names} for r in roots}
    with tempfile.TemporaryDirectory() as tmp:
        settings = Path(tmp) / "settings.toml"
        settings.write_text(SETTINGS)
        server = PostgresServer.start(Path(tmp))
        try:
            for _ in range(args.repeat):
                for root in roots:
                    url = server.new_database(migrated=True)
                    start, restart, memories, parents_pss = one(url, root, settings)
                    figures[str(root)]["parent_pss"].append(parents_pss)
                    figures[str(root)]["start"].append(start)
                    figures[str(root)]["restart"].append(restart)
                    for worker in memories:
                        for name, mib in worker.items():
                            figures[str(root)][name].append(mib)
                    server.drop_database(url)
        finally:
            server.stop()
    for root, got in figures.items():
        print(
            f"{root}: start {min(got['start']):.2f} / {statistics.median(got['start']):.2f} s,"
            f" restart {min(got['restart']):.2f} / {statistics.median(got['restart']):.2f} s"
            " (min / median); a worker's memory (median): rss"
            f" {statistics.median(got['rss']):.1f}, pss {statistics.median(got['pss']):.1f},"
            f" private {statistics.median(got['private']):.1f} MiB; the parent's pss"
            f" {statistics.median(got['parent_pss']):.1f} MiB"
        )
    print(json.dumps({"figures": figures, "load": os.getloadavg()}))


if __name__ == "__main__":
    main()
