"""Engine speed: self-play against a bare random trick loop, measured in the same run.

    .venv/bin/python bench/engine.py [--seconds 1] [--repeat 5] [--players 2,3,4]
                                     [--ladder BOARDS]

For each player count, ``--repeat`` rounds, each timing in turn, for ``--seconds``:

1. Baseline: a bare loop that deals the seats their cards and plays the tricks of random
   legal cards (follow suit, trump, overtrump), with no bidding, no declarations, no
   scoring, no records.
2. Self-play: random in-process self-play of whole matches with the full rule set
   (bidding, the seven swap, the table talk, claims, scoring, the plugins' hooks),
   through ``Match``, as ``deberc-net selfplay`` plays them. The ratio is this one's.
3. The same, reading every deal's record as well (the server stores each one,
   ``selfplay --records`` writes them): what the records cost, when they are asked for.

Both count deals per CPU second (``time.process_time``) and per wall second; the text
gives min and median over the rounds, the ratio is engine ÷ baseline of the median CPU
rates. The last line is one JSON object with every figure, to compare runs over time.

``--fixed MATCHES`` times nothing: it plays exactly MATCHES self-play matches (with
``--bare``: MATCHES deals of the bare loop) per player count and prints the deals, for
counting instructions, which the load of a shared machine does not move::

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        .venv/bin/python bench/engine.py --players 2 --fixed 40

(less the same run with ``--fixed 0``: the start-up), divided by the deals.

``--ladder BOARDS`` adds a ladder of the random bot against itself over TCP
(``deberc-net ladder run``: its own server, one process per bot), once, wall time only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deberc_net.game.cards import PLAIN_STRENGTH, TRUMP_STRENGTH
from deberc_net.plugins import RuleBook
from deberc_net.selfplay import selfplay

ROOT = Path(__file__).resolve().parent.parent
KINDS = {
    "baseline": "bare trick loop",
    "engine": "self-play",
    "engine_records": "self-play with records",
}


def baseline_deal(rng: random.Random, players: int) -> None:
    """One deal of the bare loop: hands of 9 cards (8 with four players), tricks only."""
    deck = list(range(32))
    rng.shuffle(deck)
    size = 8 if players == 4 else 9
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    trump = rng.randrange(4)
    leader = 0
    for _ in range(size):
        trick: list[int] = []
        for i in range(players):
            hand = hands[(leader + i) % players]
            options = hand
            if trick:
                led = trick[0] >> 3
                follow = [c for c in hand if c >> 3 == led]
                trumps = follow if led == trump else [c for c in hand if c >> 3 == trump]
                if follow and led != trump:
                    options = follow
                elif trumps:
                    top = max((TRUMP_STRENGTH[c & 7] for c in trick if c >> 3 == trump), default=-1)
                    options = [c for c in trumps if TRUMP_STRENGTH[c & 7] > top] or trumps
            card = rng.choice(options)
            hand.remove(card)
            trick.append(card)
        led = trick[0] >> 3
        best, best_key = 0, -1
        for i, card in enumerate(trick):
            suit = card >> 3
            if suit == trump:
                key = 100 + TRUMP_STRENGTH[card & 7]
            elif suit == led:
                key = PLAIN_STRENGTH[card & 7]
            else:
                continue
            if key > best_key:
                best, best_key = i, key
        leader = (leader + best) % players


def baseline_batch(players: int) -> Callable[[], int]:
    rng = random.Random(players)

    def batch() -> int:
        for _ in range(100):
            baseline_deal(rng, players)
        return 100

    return batch


def engine_batch(book: RuleBook, players: int, records: bool) -> Callable[[], int]:
    """Self-play one match; ``records``: read every deal's record too (as the server,
    which stores them, and ``selfplay --records`` do)."""
    rules = book.ruleset(players)  # plugins load once, at start-up, as in the server
    games = iter(range(1, 1 << 62))

    def batch() -> int:
        match = next(selfplay(rules, 1, f"bench/{players}/{next(games)}"))
        if records:
            for record in match.records:
                assert record["format"]
        return len(match.records)

    return batch


def timed(batch: Callable[[], int], seconds: float) -> dict[str, float]:
    """Run ``batch`` for about ``seconds`` of CPU time: deals per CPU and wall second."""
    deals = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        deals += batch()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"deals": deals, "cpu_per_s": deals / cpu, "wall_per_s": deals / wall}


def summary(runs: list[dict[str, float]], key: str) -> dict[str, float]:
    rates = [r[key] for r in runs]
    return {
        "min": round(min(rates), 1),
        "median": round(statistics.median(rates), 1),
        "max": round(max(rates), 1),
    }


def rate_ladder(boards: int) -> dict[str, Any]:
    bot = f"{sys.executable} -m clients.random_bot"
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "deberc_net",
                "ladder",
                "run",
                "--bot",
                f"r1={bot} --seed 1",
                "--bot",
                f"r2={bot} --seed 2",
                "--deals",
                str(boards),
                "--seed",
                "bench",
                "--concurrency",
                "4",
                "--db",
                os.path.join(tmp, "bench.sqlite3"),
                "--json",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
    summary = json.loads(done.stdout)
    return {"deals": summary["deals"], "wall_per_s": summary["deals_per_second"]}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def fixed(book: RuleBook, counts: list[int], matches: int, bare: bool) -> None:
    """Play a fixed amount, untimed, and print the deals (for an instruction count)."""
    for n in counts:
        if bare:
            rng = random.Random(n)
            for _ in range(matches):
                baseline_deal(rng, n)
            deals = matches
        else:
            rules = book.ruleset(n)
            deals = sum(len(m.records) for m in selfplay(rules, matches, f"fixed/{n}"))
        print(f"{n} players: {deals} deals")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds a round")
    parser.add_argument("--repeat", type=int, default=5, help="rounds (at least 5)")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--ladder", type=int, default=0, metavar="BOARDS")
    parser.add_argument("--fixed", type=int, metavar="MATCHES", help="untimed: see above")
    parser.add_argument("--bare", action="store_true", help="--fixed: the bare loop's deals")
    args = parser.parse_args()
    if args.fixed is not None:
        fixed(RuleBook.load(), [int(p) for p in args.players.split(",")], args.fixed, args.bare)
        return
    if args.repeat < 5:
        parser.error("--repeat must be at least 5: a min and a median of fewer say little")
    counts = [int(p) for p in args.players.split(",")]
    book = RuleBook.load()
    batches = {
        n: {
            "baseline": baseline_batch(n),
            "engine": engine_batch(book, n, records=False),
            "engine_records": engine_batch(book, n, records=True),
        }
        for n in counts
    }
    runs: dict[int, dict[str, list[dict[str, float]]]] = {
        n: {kind: [] for kind in KINDS} for n in counts
    }
    for _ in range(args.repeat):  # interleaved: a slow moment of the machine hits all
        for n in counts:
            for kind in KINDS:
                runs[n][kind].append(timed(batches[n][kind], args.seconds))
    figures: dict[str, Any] = {
        "bench": "engine",
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "seconds": args.seconds,
        "repeat": args.repeat,
        "players": {},
    }
    print(f"deals per CPU second (per wall second), {args.repeat} rounds: min / median")
    for n in counts:
        out: dict[str, Any] = {}
        for kind in KINDS:
            out[kind] = {
                "cpu_per_s": summary(runs[n][kind], "cpu_per_s"),
                "wall_per_s": summary(runs[n][kind], "wall_per_s"),
            }
        base, engine = out["baseline"]["cpu_per_s"], out["engine"]["cpu_per_s"]
        out["engine_us_per_deal"] = round(1e6 / engine["median"], 1)
        out["records_us_per_deal"] = round(1e6 / out["engine_records"]["cpu_per_s"]["median"], 1)
        out["ratio"] = round(engine["median"] / base["median"], 4)
        figures["players"][str(n)] = out
        for kind, label in KINDS.items():
            cpu, wall = out[kind]["cpu_per_s"], out[kind]["wall_per_s"]
            print(
                f"{n} players, {label:22}  {cpu['min']:8.0f} / {cpu['median']:8.0f}"
                f"   ({wall['min']:8.0f} / {wall['median']:8.0f})"
            )
        print(
            f"{n} players: self-play {out['engine_us_per_deal']:.0f} µs CPU a deal, "
            f"ratio to the bare loop {out['ratio']:.3f}"
        )
    if args.ladder:
        figures["ladder"] = rate_ladder(args.ladder)
        print(f"ladder over TCP: {figures['ladder']['wall_per_s']:.1f} deals per wall second")
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
