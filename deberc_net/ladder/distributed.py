"""``ladder run --distributed``: the boards go into the store's queue (queue.py) for
``ladder worker`` processes on any machines to play; this process waits for them and
reports as a single-machine run would.

What a worker must know to play a run's boards is the run's spec, kept in its
``ladder_runs.settings`` (``"distributed"``): the bots and their commands, the seed
(drawn here when none is given, so every worker deals the same boards), the schedule,
variant, options and clocks. Results are counted from the stored games in schedule
order, so they equal those of a single-machine ladder with the same seed.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

from deberc_net.plugins import RuleBook

from .progress import LadderProgress
from .queue import BoardQueue
from .ratings import Ratings
from .results import GameResult, Results, Summary
from .runner import LadderOptions
from .schedule import Game, ScheduleError, schedule
from .store import LadderStore
from .supervisor import BotSpec

POLL_S = 0.5  # how often the waiting run looks at the queue
DISTRIBUTED_INTERRUPTED = (
    "interrupted: the workers play the run's boards on and store their games; the run "
    "gets no summary"
)


def spec_of(options: LadderOptions, seed: str) -> dict[str, Any]:
    """What a worker needs of ``options`` (LadderOptions) to play the run's boards."""
    return {
        "bots": [[b.name, b.command] for b in options.bots],
        "players": options.players,
        "deals": options.deals,
        "seed": seed,
        "variant": options.variant,
        "options": list(options.options),
        "mode": options.mode,
        "concurrency": options.concurrency,
        "clock_ms": options.clock_ms,
        "lag_ms": options.lag_ms,
        "away_limit_ms": options.away_limit_ms,
    }


def options_from(spec: dict[str, Any], db: str, rules: RuleBook | None) -> LadderOptions:
    """The options a worker plays a run's boards with: its own server on ``db``."""
    return LadderOptions(
        bots=[BotSpec(name, command) for name, command in spec["bots"]],
        players=spec["players"],
        deals=spec["deals"],
        seed=spec["seed"],
        variant=spec["variant"],
        options=list(spec["options"]),
        mode=spec["mode"],
        db=db,
        concurrency=spec["concurrency"],
        clock_ms=spec["clock_ms"],
        lag_ms=spec["lag_ms"],
        away_limit_ms=spec["away_limit_ms"],
        progress=False,
        rules=rules,
    )


def games_of(spec: dict[str, Any]) -> list[Game]:
    return list(
        schedule(
            [name for name, _ in spec["bots"]],
            spec["players"],
            spec["deals"],
            spec["seed"],
            spec["mode"],
        )
    )


def run_distributed(
    options: LadderOptions,
    store: LadderStore,
    url: str,
    stored: Sequence[dict[str, Any]],
    argv: list[str],
) -> tuple[int, Summary]:
    """Queue the boards of a new run, wait until workers have played them all, and
    count them: (the run's id, its summary). The caller finishes the run (ratings)."""
    if options.sprt is not None:
        raise ScheduleError("--sprt needs a single-machine ladder (not --distributed)")
    if options.server is not None:
        raise ScheduleError("--distributed plays on the workers' own servers, not --server")
    seed = options.seed if options.seed is not None else secrets.token_hex(8)
    spec = spec_of(options, seed)
    games = games_of(spec)
    boards: dict[int, dict[str, Any]] = {}  # what each row shows of its board's games
    for game in games:
        board = boards.setdefault(game.board, {"seed": game.seed, "seatings": []})
        board["seatings"].append(list(game.seating))
    queue = BoardQueue(url)
    try:
        run_id = store.start_run({"argv": argv, "distributed": spec})
        queue.enqueue(run_id, sorted(boards.items()))
        started = time.perf_counter()
        progress = LadderProgress(len(games)) if options.progress else None
        per_board = len(games) // len(boards)
        try:
            while True:
                done, total = queue.progress(run_id)
                if progress is not None:
                    progress.update(done * per_board)
                if done == total:
                    break
                time.sleep(POLL_S)
        except KeyboardInterrupt:  # Ctrl-C: the one line, as a single-machine run's
            raise ScheduleError(DISTRIBUTED_INTERRUPTED) from None
        finally:
            if progress is not None:
                progress.close()
    finally:
        queue.close()
    ratings = Ratings.carried_on([b.name for b in options.bots], stored)
    summary = Summary(options, seed, ratings=ratings)
    results = Results(options, summary)
    played = {(g["board"], tuple(g["seating"])): g for g in store.games(run_id)}
    for index, game in enumerate(games):
        row = played[(game.board, game.seating)]
        results.add_result(
            index, GameResult(game, row["written"], row["reason"], row["match_id"], row["forfeit"])
        )
    summary.seconds = time.perf_counter() - started
    return run_id, summary
