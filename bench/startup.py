"""Start-up cost of our processes, against ``python -c pass`` measured in the same run.

    .venv/bin/python bench/startup.py [--repeat 7] [--only NAME,NAME]

Every process the suite, a ladder or an operator starts pays its start-up: the imports,
the rule plugins' loading, the logging set-up. For each case below, ``--repeat`` rounds
(interleaved: one run of every case per round, so a burst of load on a shared machine
falls on all of them), each a fresh process; its CPU (user + system, from ``wait4``) and
wall time. The text shows min / median; the ratio is the case's median CPU ÷ the
baseline's. The last line is one JSON object with every figure.

Cases:

- ``python -c pass``: the baseline (the interpreter and site alone);
- ``import clients.random_bot``: what a bot given to a ladder as a command imports;
- ``deberc-net --version`` and ``deberc-net --help``;
- ``serve``: ``deberc-net serve`` on port 0 (no web face) until it logs that it
  listens, then SIGINT and its exit (its shutdown is in the figure; it is small);
- ``ladder run``: one deal between two in-process random bots (``py:``), its own server
  and SQLite file, the whole command.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
Run = Callable[[Path], tuple[float, float]]  # a case, run once in a scratch dir: (cpu, wall)


def _wait(proc: subprocess.Popen[bytes], started: float) -> tuple[float, float]:
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if proc.returncode not in (0, -signal.SIGINT):
        raise SystemExit(f"{proc.args!r} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def command(*argv: str) -> Run:
    def run(scratch: Path) -> tuple[float, float]:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [PY, *argv], cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        return _wait(proc, started)

    return run


def serve(scratch: Path) -> tuple[float, float]:
    started = time.perf_counter()
    proc = subprocess.Popen(
        [PY, "-m", "deberc_net", "serve", "--port", "0", "--http-port", "0"]
        + ["--db", str(scratch / "serve.sqlite3")],
        cwd=scratch,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    for line in proc.stderr:  # JSON lines off a terminal
        if json.loads(line).get("event") == "listening":
            break
        if time.monotonic() > deadline:
            break
    else:
        raise SystemExit("serve ended without listening")
    proc.send_signal(signal.SIGINT)
    proc.stderr.read()
    return _wait(proc, started)


LADDER = [
    "-m",
    "deberc_net",
    "ladder",
    "run",
    "--deals",
    "1",
    "--seed",
    "1",
    "--json",
    "--bot",
    "a=py:clients.random_bot --seed 1",
    "--bot",
    "b=py:clients.random_bot --seed 2",
]


def ladder(scratch: Path) -> tuple[float, float]:
    db = scratch / "ladder.sqlite3"
    db.unlink(missing_ok=True)
    return command(*LADDER, "--db", str(db))(scratch)


CASES: dict[str, Run] = {
    "baseline": command("-c", "pass"),
    "bot_import": command("-c", "import clients.random_bot"),
    "version": command("-m", "deberc_net", "--version"),
    "help": command("-m", "deberc_net", "--help"),
    "serve": serve,
    "ladder": ladder,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", help="comma-separated cases (the baseline always runs)")
    args = parser.parse_args()
    names = list(CASES)
    if args.only:
        names = ["baseline", *(n for n in args.only.split(",") if n in CASES and n != "baseline")]
    env_root = str(ROOT)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [env_root, os.environ.get("PYTHONPATH")])
    )
    cpu: dict[str, list[float]] = {n: [] for n in names}
    wall: dict[str, list[float]] = {n: [] for n in names}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for _ in range(args.repeat):
            for name in names:
                c, w = CASES[name](scratch)
                cpu[name].append(c)
                wall[name].append(w)
    base = statistics.median(cpu["baseline"])
    figures: dict[str, Any] = {
        "bench": "startup",
        "python": platform.python_version(),
        "repeat": args.repeat,
        "load": os.getloadavg()[0],
    }
    print(f"start-up, {args.repeat} rounds, load {os.getloadavg()[0]:.1f}")
    print(
        f"{'case':<11} {'CPU ms min/median':>19} {'wall ms min/median':>20} {'CPU ÷ baseline':>15}"
    )
    for name in names:
        c_min, c_med = min(cpu[name]) * 1e3, statistics.median(cpu[name]) * 1e3
        w_min, w_med = min(wall[name]) * 1e3, statistics.median(wall[name]) * 1e3
        ratio = statistics.median(cpu[name]) / base
        print(
            f"{name:<11} {c_min:>8.0f} / {c_med:<8.0f} {w_min:>9.0f} / {w_med:<8.0f} {ratio:>12.1f}"
        )
        figures[name] = {
            "cpu_ms_min": round(c_min, 1),
            "cpu_ms_median": round(c_med, 1),
            "wall_ms_min": round(w_min, 1),
            "wall_ms_median": round(w_med, 1),
            "ratio": round(ratio, 2),
        }
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
