"""The search bot against another bot in a duplicate ladder: Elo ± 95% margin and points
per deal, through the real server (``deberc-net ladder run``).

    .venv/bin/python bench/search_ladder.py [--boards 100] [--players 2] [--level 3]
        [--ms MS] [--against heuristic|random|search-L] [--variant moscow]
        [--option NAME ...] [--seed s1] [--concurrency 1] [--in-process]

The issue's target (#12): 1,000 boards, 2 players, the default level beating the
heuristic bot by at least 100 Elo with the lower end of the 95% interval above 0, at no
more than 200 ms per decision (level 3's own time). Each board is played in every
seating, so the luck of the cards cancels out within a duplicate set. ``--in-process``
plays both bots inside the ladder's process (``py:MODULE``, docs/bots.md): no process
per copy, one core in all. Without ``--ms`` each search bot thinks for its level's own
time (docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from clients.search.policy import LEVELS

ROOT = Path(__file__).resolve().parent.parent


def bot_command(spec: str, ms: int | None, seed: str) -> str:
    py = shlex.quote(sys.executable)
    if spec == "heuristic":
        return f"{py} -m clients.heuristic_bot"
    if spec == "random":
        return f"{py} -m clients.random_bot --seed {shlex.quote(seed)}"
    if spec.startswith("search-"):
        level = int(spec.split("-", 1)[1])
        time = "" if ms is None else f" --ms {ms}"  # else the level's own
        return f"{py} -m clients.search_bot --level {level}{time} --seed {shlex.quote(seed)}"
    raise SystemExit(f"unknown bot {spec!r}: heuristic, random or search-LEVEL")


def in_process_spec(spec: str, seed: str) -> str:
    if spec == "heuristic":
        return "py:clients.heuristic_bot"
    if spec == "random":
        return f"py:clients.random_bot --seed {shlex.quote(seed)}"
    if spec.startswith("search-"):
        return f"py:clients.search_bot --seed {shlex.quote(seed)}"
    raise SystemExit(f"unknown bot {spec!r}: heuristic, random or search-LEVEL")


def run_ladder(args: argparse.Namespace) -> dict[str, Any]:
    first = f"search-{args.level}"
    spec = bot_command
    env = dict(os.environ)
    if args.in_process:
        if args.against.startswith("search-"):
            raise SystemExit("--in-process takes one search bot: its level is the process's")
        spec = lambda name, ms, seed: in_process_spec(name, seed)  # noqa: E731
        env["DEBERC_SEARCH_LEVEL"] = str(args.level)
        if args.ms is None:  # the level's own time
            env.pop("DEBERC_SEARCH_MS", None)
        else:
            env["DEBERC_SEARCH_MS"] = str(args.ms)
    with tempfile.TemporaryDirectory() as tmp:
        argv = [
            sys.executable,
            "-m",
            "deberc_net",
            "ladder",
            "run",
            "--bot",
            f"{first.replace('-', '')}={spec(first, args.ms, args.seed)}",
            "--bot",
            f"{args.against.replace('-', '')}={spec(args.against, args.ms, args.seed)}",
            "--players",
            str(args.players),
            "--deals",
            str(args.boards),
            "--seed",
            args.seed,
            "--variant",
            args.variant,
            "--concurrency",
            str(args.concurrency),
            "--clock-ms",
            str(args.clock_ms),
            "--db",
            str(Path(tmp) / "ladder.sqlite3"),
            "--json",
        ]
        for option in args.option:
            argv += ["--option", option]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"the ladder failed:\n{done.stderr[-3000:]}")
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--level", type=int, default=3, choices=range(1, 6))
    parser.add_argument(
        "--ms", type=int, help="search time per decision (default: each level's own)"
    )
    parser.add_argument(
        "--against",
        default="heuristic",
        help="heuristic, random or search-LEVEL (default heuristic)",
    )
    parser.add_argument("--variant", default="moscow")
    parser.add_argument("--option", action="append", default=[], metavar="NAME")
    parser.add_argument("--seed", default="s1")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--clock-ms", type=int, default=3000)
    parser.add_argument(
        "--in-process", action="store_true", help="both bots in the ladder's process"
    )
    parser.add_argument("--json", action="store_true", help="print the ladder's summary")
    args = parser.parse_args()
    data = run_ladder(args)
    if args.json:
        print(json.dumps(data))
        return
    pair = dict(data["pairs"][0])
    if not pair["a"].startswith("search"):  # the ladder lists a pair by name: face it
        pair["a"], pair["b"] = pair["b"], pair["a"]
        pair["elo"], pair["points_per_deal"] = -pair["elo"], -pair["points_per_deal"]
        pair["score"], pair["los"] = 1 - pair["score"], 1 - pair["los"]
    ms = LEVELS[args.level].ms if args.ms is None else args.ms
    print(
        f"{pair['a']} vs {pair['b']}: {args.boards} boards, {pair['deals']} deals, "
        f"{args.players} players, level {args.level}, {ms} ms"
    )
    print(
        f"  Elo {pair['elo']:+.0f} ± {pair['elo_margin']:.0f}  "
        f"(score {pair['score']:.3f}, LOS {pair['los']:.3f})"
    )
    print(
        f"  points per deal {pair['points_per_deal']:+.1f} ± {pair['points_per_deal_margin']:.1f}"
    )
    print(f"  {data['seconds']:.0f} s, forfeits {data['forfeits']}, crashes {data['crashes']}")


if __name__ == "__main__":
    main()
