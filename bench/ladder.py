"""Ladder speed: deals per second between the two random bots, in-process and as processes.

    .venv/bin/python bench/ladder.py [--deals 100] [--repeat 3] [--concurrency 4] [--kinds K,…]

Runs ``deberc-net ladder run`` (a subprocess, its own server, a fresh SQLite file) with
two seeded random bots, ``--deals`` boards (each played in both seatings, one deal a
game), ``--repeat`` times each way, alternating:

- ``in_process``: both bots as ``py:clients.random_bot`` (inside the ladder's process,
  over memory streams);
- ``processes``: both bots as ``python -m clients.random_bot`` (a process each copy,
  over TCP);
- ``in_process_tell_all``: as ``in_process``, with ``--tell-all``: the bots told every
  line, not only their asks and each match's end (docs/bots.md), to show what that
  costs. ``--kinds in_process,processes`` leaves it out (for a tree without it);
- ``in_process_2``: as ``in_process``, with ``--processes 2``: the boards played by two
  forked copies of the ladder, each its own server and bots (two cores). Its CPU is the
  ladder's and its copies' together.

Reports the ladder's own ``deals_per_second`` (games ÷ the run's wall time, start-up of
the bots included) and the ladder process's CPU ms per deal (its rusage; the bot
processes' CPU is not in it, so that figure is for in-process runs only), min and
median, and the ratio in-process ÷ processes of the medians. Each round also runs a
one-board in-process ladder (two deals), so the in-process figures split the CPU into
``cpu_ms_per_deal_marginal`` (what one more deal costs: the difference of the two runs
per deal more) and ``startup_cpu_ms`` (the one-board run less its two deals: imports,
the server's and the bots' start). Prints a text summary, then ONE JSON line.

Every run, the bots' processes too, reads the project's modules from a bytecode cache
of its own (``PYTHONPYCACHEPREFIX``, a temporary folder, filled by an unmeasured
one-board run first), even where the environment says ``PYTHONDONTWRITEBYTECODE`` (as
the development machines do): an installed ladder does not compile its sources at
every start (here about 0.4 s of CPU a run).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from typing import Any

from lines import machine  # bench/lines.py
from server import summary  # bench/server.py: min and median, rounded alike

PY = sys.executable
IN_PROCESS = ("r1=py:clients.random_bot --seed 1", "r2=py:clients.random_bot --seed 2")
# each kind: its two bots, and the ladder's other arguments
KINDS: dict[str, tuple[tuple[str, str], tuple[str, ...]]] = {
    "in_process": (IN_PROCESS, ()),
    "processes": (
        (f"r1={PY} -m clients.random_bot --seed 1", f"r2={PY} -m clients.random_bot --seed 2"),
        (),
    ),
    # the same in-process bots told every line, not only their asks (docs/bots.md)
    "in_process_tell_all": (IN_PROCESS, ("--tell-all",)),
    # the same in-process bots, the boards played by two forked copies of the ladder
    # (two cores: docs/bots.md, --processes)
    "in_process_2": (IN_PROCESS, ("--processes", "2")),
}


def one_run(
    kind: tuple[tuple[str, str], tuple[str, ...]], deals: int, concurrency: int, env: dict[str, str]
) -> dict[str, float]:
    bots, extra = kind
    with tempfile.TemporaryDirectory() as tmp:
        argv = [PY, "-m", "deberc_net", "ladder", "run", "--db", os.path.join(tmp, "l.sqlite3")]
        for bot in bots:
            argv += ["--bot", bot]
        argv += ["--deals", str(deals), "--seed", "bench", "--concurrency", str(concurrency)]
        argv += extra
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [*argv, "--json"], capture_output=True, text=True, timeout=600, cwd=tmp, env=env
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"the ladder failed: {done.stderr[-2000:]}")
    summary = json.loads(done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "deals_per_s": summary["deals_per_second"],
        "cpu_ms_per_deal": 1000 * cpu / summary["games"],
    }


def measure(args: argparse.Namespace, env: dict[str, str]) -> dict[str, list[dict[str, float]]]:
    kinds = args.kinds.split(",")
    runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
    for _ in range(args.repeat):
        for kind in kinds:  # alternate, so a slow spell hits both
            runs[kind].append(one_run(KINDS[kind], args.deals, args.concurrency, env))
        if args.deals > 1:  # start-up and the cost of a deal, apart
            short = one_run(KINDS["in_process"], 1, args.concurrency, env)
            long = runs["in_process"][-1]
            total = long["cpu_ms_per_deal"] * 2 * args.deals
            short_total = short["cpu_ms_per_deal"] * 2
            marginal = (total - short_total) / (2 * args.deals - 2)
            long["cpu_ms_per_deal_marginal"] = marginal
            long["startup_cpu_ms"] = short_total - 2 * marginal
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="boards (two games each)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=4, help="copies of each bot")
    parser.add_argument(
        "--kinds",
        default=",".join(KINDS),
        help="which runs, in_process first (a tree without --tell-all or --processes: "
        "in_process,processes)",
    )
    args = parser.parse_args()
    if args.deals < 1 or args.repeat < 1 or args.concurrency < 1:
        parser.error("--deals, --repeat and --concurrency need at least 1")
    if args.kinds.split(",")[0] != "in_process" or not set(args.kinds.split(",")) <= set(KINDS):
        parser.error(f"--kinds: in_process first, then any of {', '.join(KINDS)}")
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        one_run(KINDS["in_process"], 1, args.concurrency, env)  # fills the cache
        runs = measure(args, env)
    result: dict[str, Any] = {
        "bench": "ladder",
        "deals": 2 * args.deals,
        "concurrency": args.concurrency,
        "repeat": args.repeat,
        "machine": machine(),
    }
    for kind, measured in runs.items():
        result[kind] = {key: summary([m[key] for m in measured]) for key in measured[0]}
    if "processes" in result:
        result["deals_ratio_median"] = round(
            result["in_process"]["deals_per_s"]["median"]
            / result["processes"]["deals_per_s"]["median"],
            2,
        )
        # the bots' own processes are not in the ladder's CPU: that figure is in-process only
        del result["processes"]["cpu_ms_per_deal"]
    for kind in runs:  # a text summary (medians), then the JSON line with everything
        line = f"{kind:19s} {result[kind]['deals_per_s']['median']:7.1f} deals/s"
        if "cpu_ms_per_deal" in result[kind]:
            line += f", {result[kind]['cpu_ms_per_deal']['median']:.1f} CPU ms a deal"
        print(line)
    cpu = result["in_process"]
    if "startup_cpu_ms" in cpu:
        print(
            f"in-process CPU: {cpu['cpu_ms_per_deal']['median']:.1f} ms a deal, "
            f"{cpu['cpu_ms_per_deal_marginal']['median']:.1f} without the start-up "
            f"({cpu['startup_cpu_ms']['median']:.0f} ms)"
        )
    if "deals_ratio_median" in result:
        print(f"in-process / processes: {result['deals_ratio_median']}")
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
