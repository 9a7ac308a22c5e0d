"""Start-up cost of our processes, against ``python -c pass`` measured in the same run.

    .venv/bin/python bench/startup.py [--repeat 7] [--only NAME,NAME]

Every process the suite, a ladder or an operator starts pays its start-up: the imports,
the rule plugins' loading, the logging set-up. After a first round that is not counted
(it writes the bytecode, as pip does on installing), for each case below ``--repeat`` rounds
(interleaved: one run of every case per round, so a burst of load on a shared machine
falls on all of them), each a fresh process; its CPU (user + system, from ``wait4``) and
wall time. The text shows min / median; the ratio is the case's median CPU ÷ the
baseline's. The last line is one JSON object with every figure.

Cases:

- ``python -c pass``: the baseline (the interpreter and site alone);
- ``import clients.random_bot``, ``import clients.heuristic_bot``: what a bot given to
  a ladder as a command (or the server's house bot) imports;
- ``deberc-net --version`` and ``deberc-net --help``;
- ``serve``: ``deberc-net serve`` on port 0 (no web face) until it logs that it
  listens (its CPU then, from ``/proc``, in clock ticks of 10 ms: Linux only);
- ``ladder run``: one deal between two in-process random bots (``py:``), its own server
  and SQLite file, the whole command;
- ``bot_game``: two ``python -m clients.random_bot`` processes play one game (``--games
  1``) at a ``serve`` started for them: the bots' CPU, their exit included.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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
DB = "serve.sqlite3"  # in the scratch directory, made afresh for each run
Run = Callable[[Path], tuple[float, float]]  # a case, run once in a scratch dir: (cpu, wall)


def _wait(proc: subprocess.Popen[bytes], started: float) -> tuple[float, float]:
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    return usage.ru_utime + usage.ru_stime, wall


def command(*argv: str) -> Run:
    def run(scratch: Path) -> tuple[float, float]:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [PY, *argv], cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        cpu_wall = _wait(proc, started)
        if proc.returncode != 0:
            raise SystemExit(f"{argv!r} exited {proc.returncode}")
        return cpu_wall

    return run


def serve(scratch: Path) -> tuple[float, float]:
    """CPU and wall until the server logs that it listens (read from /proc then: its
    shutdown is not start-up), then the process is killed."""
    (scratch / DB).unlink(missing_ok=True)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [PY, "-m", "deberc_net", "serve", "--port", "0", "--http-port", "off", "--db", DB],
        cwd=scratch,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    try:
        for line in proc.stderr:  # JSON lines off a terminal
            if json.loads(line).get("event") == "listening":
                wall = time.perf_counter() - started
                with open(f"/proc/{proc.pid}/stat", encoding="ascii") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                ticks = int(fields[11]) + int(fields[12])  # utime, stime
                return ticks / os.sysconf("SC_CLK_TCK"), wall
        raise SystemExit("serve ended without listening")
    finally:
        proc.kill()
        proc.wait()


def bot_game(scratch: Path) -> tuple[float, float]:
    """Two random-bot processes (``python -m clients.random_bot``) seek and play one
    game at a server started for them (its start-up and its CPU not counted): the two
    bots' CPU, their whole lives, exit included."""
    (scratch / DB).unlink(missing_ok=True)
    (scratch / "seeded.toml").write_text('match_seed = "bench"\n')  # the same game each run
    argv = [PY, "-m", "deberc_net", "serve", "--port", "0", "--http-port", "off", "--db", DB]
    server = subprocess.Popen(
        [*argv, "--config", "seeded.toml"],
        cwd=scratch,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert server.stderr is not None
    try:
        port = next(
            record["port"]
            for record in map(json.loads, server.stderr)
            if record.get("event") == "listening"
        )
        started = time.perf_counter()
        bot = [PY, "-m", "clients.random_bot", "--port", str(port), "--games", "1"]
        bots = [
            subprocess.Popen(
                [*bot, "--name", f"b{i}", "--seed", str(i)],
                cwd=scratch,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for i in (1, 2)
        ]
        cpu = 0.0
        for bot in bots:
            cpu += _wait(bot, started)[0]
            if bot.returncode != 0:
                raise SystemExit(f"a random bot exited {bot.returncode}")
        return cpu, time.perf_counter() - started
    finally:
        server.kill()
        server.wait()


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
    "random_bot": command("-c", "import clients.random_bot"),
    "heur_bot": command("-c", "import clients.heuristic_bot"),
    "version": command("-m", "deberc_net", "--version"),
    "help": command("-m", "deberc_net", "--help"),
    "serve": serve,
    "ladder": ladder,
    "bot_game": bot_game,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", help="comma-separated cases (the baseline always runs)")
    parser.add_argument(
        "--tree",
        action="append",
        metavar="DIR",
        help="a checkout to measure (PYTHONPATH=DIR; repeat to compare trees in one run, "
        "interleaved; default: this one)",
    )
    args = parser.parse_args()
    names = list(CASES)
    if args.only:
        names = ["baseline", *(n for n in args.only.split(",") if n in CASES and n != "baseline")]
    trees = [Path(t).resolve() for t in args.tree or [ROOT]]
    runs = [(tree, name) for tree in trees for name in names]
    cpu: dict[tuple[Path, str], list[float]] = {run: [] for run in runs}
    wall: dict[tuple[Path, str], list[float]] = {run: [] for run in runs}
    outer = os.environ.get("PYTHONPATH")
    # start-up as installed (pip writes bytecode): the trees' own bytecode is written in
    # a first round, not counted, instead of compiling our sources in every run
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for round_ in range(args.repeat + 1):
            for tree, name in runs:
                os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), outer]))
                c, w = CASES[name](scratch)
                if round_:
                    cpu[tree, name].append(c)
                    wall[tree, name].append(w)
    load = os.getloadavg()[0]
    figures: dict[str, Any] = {
        "bench": "startup",
        "python": platform.python_version(),
        "repeat": args.repeat,
        "load": round(load, 2),
    }
    print(f"start-up, {args.repeat} rounds, load {load:.1f} at the end")
    for tree in trees:
        base = statistics.median(cpu[tree, "baseline"])
        print(f"\n{tree}")
        print(
            f"{'case':<11} {'CPU ms min/median':>19} {'wall ms min/median':>20} {'CPU ÷ base':>11}"
        )
        per_tree: dict[str, Any] = {}
        for name in names:
            c, w = cpu[tree, name], wall[tree, name]
            c_min, c_med = min(c) * 1e3, statistics.median(c) * 1e3
            w_min, w_med = min(w) * 1e3, statistics.median(w) * 1e3
            ratio = statistics.median(c) / base
            print(
                f"{name:<11} {c_min:>8.0f} / {c_med:<8.0f} {w_min:>9.0f} / {w_med:<8.0f}"
                f" {ratio:>10.1f}"
            )
            per_tree[name] = {
                "cpu_ms_min": round(c_min, 1),
                "cpu_ms_median": round(c_med, 1),
                "wall_ms_min": round(w_min, 1),
                "wall_ms_median": round(w_med, 1),
                "ratio": round(ratio, 2),
            }
        figures[str(tree)] = per_tree
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
