"""Runs in the distributed ladder's queue on a real PostgreSQL, for the tests of what
the queue does (tests/ladder/test_queue_retries.py, test_queue_stops.py) and of its
workers: a query, a new run of some boards, a run of a spec queued whole, a board's
results, and a run whose one board a worker played."""

from __future__ import annotations

import json
from typing import Any

import psycopg

from deberc_net.ladder.distributed import games_of, options_from, spec_of
from deberc_net.ladder.queue import BoardQueue
from deberc_net.ladder.results import GameResult
from deberc_net.ladder.runner import LadderOptions
from deberc_net.ladder.schedule import Game, schedule
from deberc_net.ladder.store import open_ladder_store
from deberc_net.ladder.supervisor import BotSpec
from tests.store.distributed import query as query  # the queue tests' one import


def new_run(url: str, boards: int) -> tuple[BoardQueue, int]:
    queue = BoardQueue(url, "ladder worker", limit_s=30.0)
    ((run,),) = query(url, "INSERT INTO ladder_runs (settings) VALUES ('{}') RETURNING id")
    queue.enqueue(run, [(b, {"seed": f"s/{b}", "seatings": []}) for b in range(1, boards + 1)])
    return queue, run


def queued_run(url: str, spec: dict[str, Any]) -> tuple[BoardQueue, int]:
    """A distributed run of ``spec`` (distributed.py ``spec_of``), every board queued."""
    boards = {g.board: {"seed": g.seed} for g in games_of(spec)}
    store = open_ladder_store(url)
    try:
        run = store.start_run({"distributed": spec})
    finally:
        store.close()
    queue = BoardQueue(url)
    queue.enqueue(run, sorted(boards.items()))
    return queue, run


def results(board: int) -> list[GameResult]:
    games = [g for g in schedule(["a", "b"], 4, 2, "lost") if g.board == board]
    return [GameResult(g, [100, 62], "deals", f"m{board}{i}", None) for i, g in enumerate(games)]


def played_run(url: str, seed: str) -> tuple[BoardQueue, int, Any, list[Game]]:
    """A distributed run of bots a and b, one board, played and stored by a worker."""
    spec = spec_of(LadderOptions(bots=[BotSpec("a", "x"), BotSpec("b", "y")], deals=1), seed)
    queue, run = new_run(url, 1)
    with psycopg.connect(url) as conn:
        conn.execute(b"UPDATE ladder_runs SET settings = %s WHERE id = %s",
                     (json.dumps({"distributed": spec}), run))  # fmt: skip
    games = games_of(spec)
    assert queue.claim("w1", 60.0) is not None
    played = [GameResult(g, [100, 62 + i], "deals", None, None) for i, g in enumerate(games)]
    assert queue.complete("w1", run, 1, played)
    return queue, run, options_from(spec, url, None), games
