"""Engine and ladder speed, as ratios against baselines measured in the same run.

    .venv/bin/python bench/engine.py [--seconds 5] [--boards 100] [--skip-ladder]

1. Baseline: a minimal loop that deals 9 cards to each of two seats and plays nine
   tricks of random legal cards (follow suit, trump, overtrump), with no bidding, no
   declarations, no scoring, no records.
2. Engine: random in-process self-play of whole deals with the full rule set (bidding,
   the seven swap, the table talk, claims, scoring, records), through ``Match``.
3. Ladder: random bot against random bot over TCP (``deberc-net ladder run``, its own
   server, one process per bot), deals per second, against the engine's rate.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deberc_net.game.cards import PLAIN_STRENGTH, TRUMP_STRENGTH
from deberc_net.plugins import RuleBook
from deberc_net.selfplay import selfplay

ROOT = Path(__file__).resolve().parent.parent


def baseline_deal(rng: random.Random) -> None:
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [deck[0:9], deck[9:18]]
    trump = rng.randrange(4)
    leader = 0
    for _ in range(9):
        trick: list[int] = []
        for i in range(2):
            hand = hands[(leader + i) % 2]
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
        first, second = trick
        if (second >> 3 == trump and first >> 3 != trump) or (
            second >> 3 == first >> 3
            and (TRUMP_STRENGTH if first >> 3 == trump else PLAIN_STRENGTH)[second & 7]
            > (TRUMP_STRENGTH if first >> 3 == trump else PLAIN_STRENGTH)[first & 7]
        ):
            leader = (leader + 1) % 2


def rate_baseline(seconds: float) -> float:
    rng = random.Random(1)
    deals = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(100):
            baseline_deal(rng)
        deals += 100
    return deals / (time.perf_counter() - started)


def rate_engine(seconds: float) -> float:
    rules = RuleBook.load().ruleset(2)  # plugins load once, at start-up
    deals = 0
    started = time.perf_counter()
    game = 0
    while time.perf_counter() - started < seconds:
        game += 1
        for match in selfplay(rules, 1, f"bench{game}"):
            deals += len(match.records)
    return deals / (time.perf_counter() - started)


def rate_ladder(boards: int) -> tuple[float, int]:
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
    return summary["deals_per_second"], summary["deals"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--skip-ladder", action="store_true")
    args = parser.parse_args()
    base = rate_baseline(args.seconds)
    engine = rate_engine(args.seconds)
    print(f"baseline trick loop:   {base:10.0f} deals/s")
    print(f"engine, full rules:    {engine:10.0f} deals/s   ratio {engine / base:.3f}")
    if not args.skip_ladder:
        ladder, deals = rate_ladder(args.boards)
        print(
            f"ladder over TCP:       {ladder:10.1f} deals/s   ratio to the engine "
            f"{ladder / engine:.4f} ({deals} deals, 2 bots x 4 copies)"
        )


if __name__ == "__main__":
    main()
