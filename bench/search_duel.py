"""Two bots on the same duplicate boards, in-process on the engine (no server): points
per deal, Elo, and how often each bot orders the game and makes it. For tuning the
search bot and for docs/bots.md's level-against-level rows (a ladder's in-process bots
share one level); the issue's main figures come from the real ladder
(bench/search_ladder.py).

    .venv/bin/python bench/search_duel.py --a search:level=3,ms=200 --b heuristic \
        [--boards 100] [--players 2] [--seed d1] [--first 1] [--log deals.jsonl]

A bot is ``heuristic``, ``random`` (``random:NAME`` seeds it differently) or
``search:KEY=VALUE,...`` with ``level``, ``ms`` (the time per decision, the level's own
if not given; ``ms=0`` lifts the clock, so the level's worlds alone decide: a result
that does not depend on the machine's load) and any other ``SearchPlayer`` field (a
tuning switch). A board is one deal played in every seating, as the ladder plays it;
``--first`` starts at another board, so runs can be split and joined. ``--log`` writes a
JSON line per deal (the seating as ``a``/``b`` by seat, the bids, who ordered, the
outcome, each seat's points and what it wrote): where a bot gains or loses its points.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs

from clients import heuristic_bot
from clients.search.history import TableRules
from clients.search.local import call_for, history_of, view_of
from clients.search.policy import SearchPlayer
from deberc_net.game import calls as C
from deberc_net.game.cards import SUITS
from deberc_net.game.deal import DONE
from deberc_net.game.match import Match
from deberc_net.ladder import schedule
from deberc_net.ladder.stats import PairStats
from deberc_net.testing import build_ruleset

NO_CLOCK_MS = 10**9
BIDS = (C.IGRAYU, C.PAS)


@attrs.define
class Taking:
    """How often a bot ordered the game and how it came out."""

    deals: int = 0
    ordered: int = 0
    made: int = 0
    points: float = 0.0  # written for the taker's side less the others, when it ordered

    def line(self) -> str:
        rate = self.ordered / self.deals if self.deals else 0.0
        made = self.made / self.ordered if self.ordered else 0.0
        avg = self.points / self.ordered if self.ordered else 0.0
        return f"orders {rate:.1%} of its deals, makes {made:.1%}, {avg:+.1f} a deal it orders"


@attrs.define
class Player:
    name: str
    decide: Callable[[Match, int], str]
    timings: list[float] = attrs.Factory(list)
    taking: Taking = attrs.Factory(Taking)
    fallbacks: Callable[[], int] = lambda: 0  # decisions left to the heuristic bot


def make_player(spec: str, players: int, variant: str) -> Player:
    kind, _, rest = spec.partition(":")
    if kind == "heuristic":
        return Player(spec, lambda match, seat: heuristic_bot.choose(view_of(match, seat)))
    if kind == "random":  # uniform over the legal calls, as clients.random_bot
        rng = random.Random(spec)
        return Player(spec, lambda match, seat: rng.choice(view_of(match, seat).legal))
    if kind != "search":
        raise SystemExit(f"unknown bot {spec!r}: heuristic, random or search:KEY=VALUE,...")
    fields: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        fields[key] = float(value) if "." in value else int(value)
    if fields.get("ms") == 0:
        fields["ms"] = NO_CLOCK_MS
    bot = SearchPlayer(seed=spec, strict=True, **fields)
    bot.tracker.rules = TableRules(players=players, variant=variant, known=True)
    bot.tracker.one_deal = True

    def decide(match: Match, seat: int) -> str:
        view = view_of(match, seat)
        bot.tracker.deals[view.table] = history_of(match)
        return bot.choose(view)

    return Player(spec, decide, fallbacks=lambda: bot.fallbacks)


def seatings(players: int) -> list[tuple[int, ...]]:
    """0 for bot a, 1 for bot b, by seat: every seating of the ladder's groups
    (deberc_net/ladder/schedule.py), in order."""
    met = schedule.groups(("a", "b"), players, "round-robin")
    return sorted(
        {tuple(int(bot == "b") for bot in s) for g in met for s in schedule.seatings(g, players)}
    )


def play_board(
    rules: Any, seed: str, seating: tuple[int, ...], bots: list[Player], log: Any = None
) -> tuple[float, float]:
    """One deal; the mean written per seat of bot a and of bot b. With ``log`` (a file),
    one JSON line per deal: the seating, the bids, who ordered, the outcome, what each
    seat took in cards and wrote (to see where a bot gains or loses its points)."""
    match = Match(rules, seed=seed)
    deal = match.deal
    while deal.phase != DONE:
        seat = deal.to_act
        assert seat is not None
        bot = bots[seating[seat]]
        started = time.perf_counter()
        token = bot.decide(match, seat)
        bot.timings.append(time.perf_counter() - started)
        match.apply(seat, call_for(match, seat, token))
    assert deal.result is not None
    score = deal.result.score
    written = score.written
    side_of = {x: i for i, side in enumerate(score.sides) for x in side}
    per_seat = [written[side_of[x]] / len(score.sides[side_of[x]]) for x in range(len(seating))]
    for who in seating:
        bots[who].taking.deals += 1
    if deal.player is not None:
        taker = bots[seating[deal.player]]
        taker.taking.ordered += 1
        mine = side_of[deal.player]
        others = [w for i, w in enumerate(written) if i != mine]
        diff = written[mine] - sum(others) / len(others)
        taker.taking.points += diff
        taker.taking.made += score.outcome == "made"
    if log is not None:
        points = score.points  # by side: cards, sequences and bella
        entry = {
            "seed": seed,
            "seating": "".join("ab"[who] for who in seating),
            "bids": [e.call.token() for e in deal.log if e.call.name in BIDS],
            "player": deal.player,
            "trump": None if deal.trump is None else SUITS[deal.trump],
            "outcome": score.outcome,
            "points": [points[side_of[x]] for x in range(len(seating))],
            "written": per_seat,
        }
        print(json.dumps(entry), file=log, flush=True)
    a = [per_seat[x] for x, who in enumerate(seating) if who == 0]
    b = [per_seat[x] for x, who in enumerate(seating) if who == 1]
    return sum(a) / len(a), sum(b) / len(b)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--a", default="search:level=3,ms=200")
    parser.add_argument("--b", default="heuristic")
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--variant", default="moscow")
    parser.add_argument("--seed", default="d1")
    parser.add_argument("--json", action="store_true", help="also print per-set differences")
    parser.add_argument("--log", type=argparse.FileType("w"), help="a JSON line per deal")
    args = parser.parse_args()
    rules = build_ruleset(args.players, args.variant, ())
    bots = [make_player(args.a, args.players, args.variant)]
    bots.append(make_player(args.b, args.players, args.variant))
    stats = PairStats("a", "b", len(seatings(args.players)))
    per_board: list[float] = []
    started = time.perf_counter()
    for board in range(args.first, args.first + args.boards):
        seed = f"{args.seed}/board{board}"
        diffs = []
        for seating in seatings(args.players):
            a, b = play_board(rules, seed, seating, bots, args.log)
            stats.add((board, ("a", "b")), a, b)
            diffs.append(a - b)
        per_board.append(sum(diffs) / len(diffs))
        if board % 10 == 0:  # progress, for a long run in the background
            print(f"board {board}: {statistics.fmean(per_board):+.1f} a deal", file=sys.stderr)
    elo, margin = stats.elo()
    ppd, ppd_margin = stats.points_per_deal()
    print(f"a={args.a} b={args.b} seed={args.seed} boards {args.first}..{board}")
    print(f"  Elo {elo:+.0f} ± {margin:.0f}, points per deal {ppd:+.1f} ± {ppd_margin:.1f}")
    print(f"  deals won/drawn/lost {stats.wins}/{stats.draws}/{stats.losses}")
    for bot in bots:
        t = bot.timings
        print(
            f"  {bot.name}: {bot.taking.line()}; decisions {len(t)},"
            f" mean {1000 * statistics.fmean(t):.0f} ms, median {1000 * statistics.median(t):.0f},"
            f" 90th percentile {1000 * statistics.quantiles(t, n=10)[-1]:.0f},"
            f" max {1000 * max(t):.0f}; fallbacks {bot.fallbacks()}"
        )
    print(f"  {time.perf_counter() - started:.0f} s")
    if args.json:
        print(json.dumps({"seed": args.seed, "first": args.first, "per_board": per_board}))


if __name__ == "__main__":
    main()
