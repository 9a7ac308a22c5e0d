"""``ladder run --distributed``: the boards go into the store's queue (queue.py) for
``ladder worker`` processes on any machines to play; this process waits for them and
reports as a single-machine run would.

What a worker must know to play a run's boards is the run's spec, kept in its
``ladder_runs.settings`` (``"distributed"``): the bots and their commands, the seed
(drawn here when none is given, so every worker deals the same boards), the schedule,
variant, options and clocks. Results are counted from the stored games in schedule
order, so they equal those of a single-machine ladder with the same seed.

A run that stops before its count (a worker could not run one of its bots, or
``ladder cancel``: run_stop.py) is never counted: its waiter, and ``ladder finish``,
end with its one line (status 2) as soon as they see the stop.
"""

from __future__ import annotations

import functools
import json
import secrets
import sys
import time
from typing import TYPE_CHECKING, Any

from deberc_net.plugins import RuleBook
from deberc_net.server.store import StoreError
from deberc_net.server.store.base import MATCHES_RECORDS, by_match

from .clock_calls import clock_calls, not_counted
from .patience import WAIT_LIMIT_S
from .progress import LadderProgress
from .queue import BoardQueue
from .ratings import Ratings
from .results import GameResult, Results, Summary
from .run_stop import RunStop, RunStopped
from .runner import LadderOptions, board_key
from .schedule import Game, ScheduleError, schedule
from .store import LadderStore, finish_run_postgres, games_postgres, lock_ratings
from .supervisor import BotSpec, missing_program

if TYPE_CHECKING:
    import psycopg

POLL_S = 0.5  # how often the waiting run looks at the queue
DISTRIBUTED_INTERRUPTED = (
    "interrupted: the workers play the run's boards on and store their games; the run "
    "gets no summary"
)
NOT_COUNTED = "; the ratings do not take it in"  # (the end of a stopped run's line)
# the end of a distributed run's line on a bot command it cannot start here
EVERY_WORKER = "; a distributed run's bot commands must run on every worker: nothing is queued"


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
    argv: list[str],
    db_wait_s: float = WAIT_LIMIT_S,
) -> tuple[int, Summary]:
    """Queue the boards of a new run, wait until workers have played them all, count
    them and finish the run (its summary and the ratings, counted from the ratings as
    they stand then and written in one transaction through the queue's patient
    connection, which waits ``db_wait_s`` for a database away): (the run's id, its
    summary)."""
    if options.sprt is not None:
        raise ScheduleError("--sprt needs a single-machine ladder (not --distributed)")
    if options.server is not None:
        raise ScheduleError("--distributed plays on the workers' own servers, not --server")
    for bot in options.bots:  # a worker could not start it either (docs/bots.md)
        if (missing := missing_program(bot)) is not None:
            raise ScheduleError(missing + EVERY_WORKER)
    seed = options.seed if options.seed is not None else secrets.token_hex(8)
    spec = spec_of(options, seed)
    games = games_of(spec)
    boards: dict[int, dict[str, Any]] = {}  # what each row shows of its board's games
    for game in games:
        board = boards.setdefault(game.board, {"seed": game.seed, "seatings": []})
        board["seatings"].append(list(game.seating))
    queue = BoardQueue(url, "ladder", db_wait_s)
    try:
        run_id = store.start_run({"argv": argv, "distributed": spec})
        try:  # Ctrl-C (SIGTERM, SIGHUP) once the run is stored: its one line
            queue.enqueue(run_id, sorted(boards.items()))
            if options.progress:  # (not with --json: its standard error is its stops' one line)
                print(queued_line(run_id, len(boards)), file=sys.stderr, flush=True)
        except KeyboardInterrupt:  # (before its wait: a stop as its boards became public)
            raise _interrupted(run_id) from None
        return run_id, _wait_and_finish(queue, run_id, options, seed, games)
    finally:
        queue.close()


def queued_line(run_id: int, boards: int) -> str:
    """The waiter's first line: the run's number, which 'ladder cancel' and 'ladder
    finish' take (docs/bots.md), said before its progress."""
    return (
        f"ladder: run {run_id} (distributed): {boards} boards queued for the workers "
        f"('deberc-net ladder cancel {run_id}' drops it)"
    )


def finish_distributed(
    url: str,
    run_id: int,
    rules: RuleBook | None,
    progress: bool,
    db_wait_s: float = WAIT_LIMIT_S,
) -> Summary:
    """``ladder finish RUN``: wait, as its ``ladder run --distributed`` would have, until
    every board of a distributed run is played, count them and finish the run: the way
    to finish a run whose waiting process is gone (docs/bots.md). ``db_wait_s``: as
    ``run_distributed``'s."""

    queue = BoardQueue(url, "ladder finish", db_wait_s)
    try:
        row = queue.run_row(run_id)
        if row is None:
            raise ScheduleError(f"there is no run {run_id}")
        settings, finished, stop = row
        if finished:
            raise ScheduleError(f"run {run_id} is finished already")
        if stop is not None:
            raise RunStopped(run_id, stop, NOT_COUNTED)
        spec = settings.get("distributed")
        if spec is None:
            raise ScheduleError(
                f"run {run_id} was not distributed: a single-machine run that stopped "
                "stored no games, and cannot be finished"
            )
        options = options_from(spec, url, rules)
        options.progress = progress
        if queue.progress(run_id)[1] == 0:  # its 'ladder run' stopped before queuing them
            raise ScheduleError(f"run {run_id} has no boards queued: there is nothing to finish")
        # its time from its queuing, as its waiter's: from the count's start, a run
        # played while nobody waited read '40 games in 0.0 s: 1238.5 deals/s' (a tryout)
        queued = time.perf_counter() - queue.run_age_s(run_id)
        games = games_of(spec)
        return _wait_and_finish(queue, run_id, options, spec["seed"], games, queued)
    finally:
        queue.close()


def _wait_and_finish(
    queue: BoardQueue,
    run_id: int,
    options: LadderOptions,
    seed: str,
    games: list[Game],
    started: float | None = None,
) -> Summary:
    """Wait until every board of the run is played; count its games in schedule order
    and write its summary and the ratings. A database outage is waited out (up to the
    queue's limit, ``--db-wait``); past it, or on Ctrl-C, ScheduleError (the run can be finished
    later). The run stopped (failed, cancelled): RunStopped, nothing counted. Its time
    from ``started`` (``time.perf_counter``'s), or from now."""
    if started is None:
        started = time.perf_counter()
    try:
        _wait(queue, run_id, len(games), options.progress)
        _release_withheld(queue, seed, {game.board for game in games})
        tried: list[tuple[str, Summary]] = []  # (a try run again: patience.py)
        summary = queue.db.run(lambda db: count_and_finish(db, run_id, options, seed, games,
                                                           started, tried))  # fmt: skip
        if summary is None:
            raise ScheduleError(f"run {run_id} was finished meanwhile (by another process)")
    except KeyboardInterrupt:  # Ctrl-C: the one line, as a single-machine run's
        raise _interrupted(run_id) from None
    except StoreError as exc:  # the database gone for longer than the ladder waits
        raise ScheduleError(f"{exc}; the workers play on: {_finish_later(run_id)}") from None
    return summary


def _finish_later(run_id: int) -> str:
    return f"`deberc-net ladder finish {run_id}` counts the run once its boards are played"


def _interrupted(run_id: int) -> ScheduleError:
    """A stored run's waiter stopped by Ctrl-C (SIGTERM, SIGHUP): its one line."""
    return ScheduleError(f"{DISTRIBUTED_INTERRUPTED}; {_finish_later(run_id)}")


def count_and_finish(
    db: psycopg.Connection[Any],
    run_id: int,
    options: LadderOptions,
    seed: str,
    games: list[Game],
    started: float,
    tried: list[tuple[str, Summary]],
) -> Summary | None:
    """One transaction: the run's games counted from the bots' ratings as they are now
    (read under the ratings' lock, so a run finished meanwhile is built on, not
    overwritten), its summary and the new ratings written; None if the run has its
    summary from another process; RunStopped if it stopped (nothing written). ``tried``:
    this finish's earlier try, whose commit may have landed with its answer lost: its
    summary stored means the run is ours."""
    row = db.execute(
        "SELECT summary, stopped, stop_reason FROM ladder_runs WHERE id = %s FOR UPDATE",
        (run_id,),
    ).fetchone()
    if row is not None and row[0] is not None:
        return next((summary for text, summary in tried if text == row[0]), None)
    if row is not None and (stop := RunStop.from_row(row[1], row[2])) is not None:
        raise RunStopped(run_id, stop, NOT_COUNTED)  # (cancelled as its last board was stored)
    bots = [b.name for b in options.bots]
    stored = lock_ratings(db, bots, options.variant, options.players)
    ratings = Ratings.carried_on(bots, stored)
    summary = Summary(options, seed, ratings=ratings)
    results = Results(options, summary)
    played = {(g["board"], tuple(g["seating"])): g for g in games_postgres(db, run_id)}
    for index, game in enumerate(games):
        row = played[(game.board, game.seating)]
        results.add_result(
            index,
            GameResult(game, row["written"], row["reason"], row["match_id"], row["forfeit"]),
        )
    # counted here, so that the summary stored has them (counted after it, by the
    # command, the stored one had none) and so that 'ladder finish' says them too
    _count_clock_calls(db, run_id, summary)
    summary.seconds = time.perf_counter() - started
    data = summary.as_dict()
    tried.append((json.dumps(data), summary))
    if not finish_run_postgres(db, run_id, data, data["ratings"], dict(summary.games_by_bot)):
        return None
    return summary


def _count_clock_calls(db: psycopg.Connection[Any], run_id: int, summary: Summary) -> None:
    """The clock's calls for each bot into ``summary``, best-effort as a single-machine
    run's (cli.py): a count that fails (its query refused, a deal it cannot read) leaves
    ``clock_calls_missing`` and the run is stored without them. Its query runs in a
    savepoint: a failed one aborted the count's whole transaction, and the run played was
    never stored. A connection lost is the transaction's to wait out (patience.py)."""
    try:
        with db.transaction():  # (a savepoint: its failure undone alone)
            records = _run_records(db, run_id)
        found = clock_calls(summary.results, records)
    except Exception as exc:
        if db.broken:  # (not the count's failure: the database's, which the run waits out)
            raise
        summary.clock_calls_missing = not_counted(exc)
        return
    summary.clock_calls, summary.first_clock_calls = found.counts, found.first


# the run's finished matches' deals (as the store's matches_records gives them), read in
# one query: the count's transaction holds the bots' ratings' lock meanwhile, which a
# query a match (40,000 on a long run) would have held for many seconds
# (every deal: the workers' servers number the matches in this same database, so no
# match of another run shares a number with one of the run's)
RUN_RECORDS = MATCHES_RECORDS.format(
    ids="SELECT match_id FROM ladder_games WHERE run_id = %s", after="0"
)


def _run_records(db: psycopg.Connection[Any], run_id: int) -> dict[str, list[str]]:
    """Run ``run_id``'s matches' deals by match, each in deal order."""
    return by_match(db.execute(RUN_RECORDS, (run_id,)).fetchall())


def _release_withheld(queue: BoardQueue, seed: str, boards: set[int]) -> None:
    """Every board of the run is played: any whose records are still withheld (its
    worker died, or lost its server, between storing the board and its release; or
    results a worker that lost its lease kept after the board's release) is released
    now, as its worker's release would have. Each release is one transaction on the
    queue's connection, so an outage is waited out as the rest of the run's (up to
    ``--db-wait``); a release whose commit landed with its answer lost finds nothing
    the second time (release_board_in)."""
    from deberc_net.server.store.postgres import release_board_in

    for key in queue.withheld([board_key(seed, board) for board in sorted(boards)]):
        queue.db.run(functools.partial(release_board_in, board=key))


def _wait(queue: BoardQueue, run_id: int, games: int, progress: bool) -> None:
    """Until every board of the run is played (with the progress bar, if asked);
    RunStopped if the run stops first."""
    bar = LadderProgress(games) if progress else None
    try:
        while True:
            status = queue.status(run_id)
            if status.stop is not None:
                raise RunStopped(run_id, status.stop, NOT_COUNTED)
            if bar is not None:
                bar.update(status.done * (games // status.total))
            if status.done == status.total:
                return
            time.sleep(POLL_S)
    finally:
        if bar is not None:
            bar.close()
