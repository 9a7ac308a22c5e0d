"""The boards of a distributed ladder, queued in PostgreSQL (table ``ladder_boards``,
migration 5 of deberc_net/server/store).

``ladder run --distributed`` queues one row per board; each ``ladder worker`` claims a
board with ``FOR UPDATE SKIP LOCKED`` (two workers never wait for, nor get, the same
row) under a lease it renews while it plays. A board whose lease ran out (its worker
died, or stalled) is claimed again. A worker writes a board's games and marks it done in
one transaction, and only while it still holds the lease: each board's results are
stored exactly once. Times are the database's (``now()``), so the machines' clocks need
not agree. Every method is a blocking call and one transaction, which waits out a
database outage (patience.py): each is safe to run again after a commit whose answer
was lost.

A run stopped (failed: a worker could not run one of its bots; or cancelled:
run_stop.py) is out of the queue: its boards are neither claimed nor renewed, and a
worker stores no results for it (the check and the stop take the run's row in turn).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from typing import Any

import attrs
import psycopg

from deberc_net.server.store.postgres import migrate, redacted

from .patience import WAIT_LIMIT_S, PatientConnection
from .results import GameResult
from .run_stop import RunStop, StopKind
from .store import games_postgres, insert_games_postgres

# a board of a run not stopped (``{b}``: the board's table, as the statement names it)
_LIVE = "NOT EXISTS (SELECT 1 FROM ladder_runs r WHERE r.id = {b}.run_id AND r.stopped IS NOT NULL)"


@attrs.frozen
class Claim:
    run: int
    board: int
    settings: dict[str, Any]  # the run's: its "distributed" entry is what to play


@attrs.frozen
class RunStatus:
    done: int  # boards played and stored
    total: int  # boards queued
    stop: RunStop | None  # why the run stopped (None: it did not)


class CancelAnswer(enum.Enum):
    CANCELLED = "cancelled"  # now (or by this very call, tried again)
    NO_RUN = "no run"
    FINISHED = "finished"  # it has its summary
    SINGLE_MACHINE = "single machine"  # not distributed: nothing queued to take back
    STOPPED_ALREADY = "stopped already"  # failed, or cancelled before


@attrs.frozen
class Cancelling:
    answer: CancelAnswer
    stop: RunStop | None  # the run's stop as it stands after the call
    status: RunStatus | None  # its boards (None: no such run)


class BoardQueue:
    """One patient connection, used by one thread at a time (the worker's calls come
    from trio worker threads). ``who`` names the process in its lines."""

    def __init__(self, url: str, who: str = "ladder", limit_s: float = WAIT_LIMIT_S) -> None:
        self.db = PatientConnection(url, who, limit_s)
        migrated = self.db.run(migrate)
        if migrated is not None:
            migrated.tell(redacted(url))

    def close(self) -> None:
        self.db.close()

    def enqueue(self, run: int, boards: Sequence[tuple[int, dict[str, Any]]]) -> None:
        """A run's boards: (board number, its games as JSON-able data)."""

        def insert(db: psycopg.Connection[Any]) -> None:
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO ladder_boards (run_id, board, spec) VALUES (%s, %s, %s)"
                    " ON CONFLICT DO NOTHING",  # (inserted by a try whose answer was lost)
                    [(run, board, json.dumps(spec)) for board, spec in boards],
                )

        self.db.run(insert)

    def claim(
        self, worker: str, lease_s: float, run: int | None = None, holding: Sequence[int] = ()
    ) -> Claim | None:
        """The first board not done and not leased (of ``run``, or of any run), now
        leased to ``worker`` for ``lease_s``; None if there is none. A board leased to
        ``worker`` already and not among those it is ``holding`` (of ``run``) comes
        first: its claim's answer was lost (a try run again), and it is taken up, not
        left leased to a worker that does not know it. One it is ``holding`` is never
        returned, its lease run out or not; nor is a board of a stopped run."""
        only_run = "" if run is None else " AND run_id = %(run)s"
        # a board it holds is never handed to it again, even with its lease run out
        # (its renewal late): it would play the board's seatings a second time
        held = " AND NOT (run_id = %(run)s AND board = ANY(%(holding)s))"
        row = self.db.run(
            lambda db: db.execute(
                "UPDATE ladder_boards b SET claimed_by = %(worker)s,"
                " lease_until = now() + make_interval(secs => %(lease)s),"
                " claims = claims + (b.claimed_by IS DISTINCT FROM %(worker)s)::int"
                f" FROM (SELECT run_id, board FROM ladder_boards q WHERE NOT done{held}"
                f" AND {_LIVE.format(b='q')}"
                " AND (lease_until IS NULL OR lease_until < now() OR claimed_by = %(worker)s)"
                f"{only_run} ORDER BY claimed_by = %(worker)s DESC NULLS LAST, run_id, board"
                " LIMIT 1 FOR UPDATE SKIP LOCKED) free"
                " WHERE b.run_id = free.run_id AND b.board = free.board"
                " RETURNING b.run_id, b.board,"
                " (SELECT settings FROM ladder_runs r WHERE r.id = b.run_id)",
                {
                    "worker": worker,
                    "lease": lease_s,
                    "run": run if run is not None else -1,
                    "holding": list(holding),
                },
            ).fetchone()
        )
        if row is None:
            return None
        return Claim(int(row[0]), int(row[1]), json.loads(row[2]) if row[2] else {})

    def renew(self, worker: str, lease_s: float, run: int, boards: Sequence[int]) -> list[int]:
        """Extend ``worker``'s leases on these boards; the boards it no longer holds
        (every one, once the run is stopped: status says why)."""
        if not boards:
            return []
        rows = self.db.run(
            lambda db: db.execute(
                "UPDATE ladder_boards SET lease_until = now() + make_interval(secs => %s)"
                " WHERE run_id = %s AND board = ANY(%s) AND claimed_by = %s AND NOT done"
                f" AND {_LIVE.format(b='ladder_boards')} RETURNING board",
                (lease_s, run, list(boards), worker),
            ).fetchall()
        )
        held = {int(r[0]) for r in rows}
        return [b for b in boards if b not in held]

    def complete(self, worker: str, run: int, board: int, results: Sequence[GameResult]) -> bool:
        """The board's games stored and the board done, if ``worker`` still holds it
        and the run is not stopped; False (nothing stored) if its lease was lost to
        another worker, or the run stopped (status says so). True, storing nothing
        more, if ``worker`` stored it already (a try whose answer was lost)."""

        def store(db: psycopg.Connection[Any]) -> bool:
            # the run's row shared: a stop (which updates it) waits for this store, or
            # this store for the stop, and then stores nothing
            if _stop(db, run, "FOR SHARE") is None:
                done = db.execute(
                    "UPDATE ladder_boards SET done = true, lease_until = NULL"
                    " WHERE run_id = %s AND board = %s AND claimed_by = %s AND NOT done",
                    (run, board, worker),
                )
                if done.rowcount == 1:
                    insert_games_postgres(db, run, [r.stored() for r in results])
                    return True
            return bool(
                db.execute(
                    "SELECT 1 FROM ladder_boards WHERE run_id = %s AND board = %s"
                    " AND claimed_by = %s AND done",
                    (run, board, worker),
                ).fetchone()
            )

        return self.db.run(store)

    def progress(self, run: int) -> tuple[int, int]:
        """(boards done, boards queued) of ``run``."""
        status = self.status(run)
        return status.done, status.total

    def status(self, run: int) -> RunStatus:
        """``run``'s boards done and queued, and its stop if it stopped."""
        return self.db.run(lambda db: _status(db, run))

    def fail(self, worker: str, run: int, error: str) -> RunStop | None:
        """``worker`` could not run one of the run's bots (``error``, its line): the run
        failed, and the boards ``worker`` holds of it unleased, in one transaction. The
        run's stop as it stands after (a stop before this one is kept); None if the
        run is whole and stays so: counted already, or every board of it stored (a
        bot's end does not undo them)."""

        def fail_in(db: psycopg.Connection[Any]) -> RunStop | None:
            row = db.execute(
                "SELECT summary IS NOT NULL, stopped, stop_reason FROM ladder_runs"
                " WHERE id = %s FOR UPDATE",
                (run,),
            ).fetchone()
            if row is None or row[0]:
                return None
            stop = RunStop.from_row(row[1], row[2])
            if stop is None:
                left = db.execute(
                    "SELECT 1 FROM ladder_boards WHERE run_id = %s AND NOT done LIMIT 1", (run,)
                ).fetchone()
                if left is None:
                    return None
                stop = RunStop.failed(worker, error)
                _set_stop(db, run, stop)
            _unlease(db, worker, run)
            return stop

        return self.db.run(fail_in)

    def unlease(self, worker: str, run: int) -> None:
        """The boards ``worker`` holds of ``run`` let go (the run stopped)."""
        self.db.run(lambda db: _unlease(db, worker, run))

    def cancel(self, run: int, by: str) -> Cancelling:
        """``run`` cancelled (``by``: who, the stop's reason) if it is a distributed run
        neither counted nor stopped already; what was found. Tried again after a commit
        whose answer was lost, it finds its own stop: CANCELLED again."""
        tried: list[RunStop] = []  # the stop this call's earlier try wrote

        def cancel_in(db: psycopg.Connection[Any]) -> Cancelling:
            row = db.execute(
                "SELECT settings, summary IS NOT NULL, stopped, stop_reason FROM ladder_runs"
                " WHERE id = %s FOR UPDATE",
                (run,),
            ).fetchone()
            if row is None:
                return Cancelling(CancelAnswer.NO_RUN, None, None)
            settings, summed, kind, reason = row
            stop = RunStop.from_row(kind, reason)
            ours = RunStop(StopKind.CANCELLED, by)
            if summed:
                answer = CancelAnswer.FINISHED
            elif "distributed" not in (json.loads(settings) if settings else {}):
                answer = CancelAnswer.SINGLE_MACHINE
            elif stop is not None:
                answer = CancelAnswer.CANCELLED if stop in tried else CancelAnswer.STOPPED_ALREADY
            else:
                stop, answer = ours, CancelAnswer.CANCELLED
                _set_stop(db, run, ours)
                tried.append(ours)
            return Cancelling(answer, stop, _status(db, run))

        return self.db.run(cancel_in)

    def run_row(self, run: int) -> tuple[dict[str, Any], bool, RunStop | None] | None:
        """A run's settings, whether it has its summary, and its stop (None: no such
        run)."""
        row = self.db.run(
            lambda db: db.execute(
                "SELECT settings, summary IS NOT NULL, stopped, stop_reason FROM ladder_runs"
                " WHERE id = %s",
                (run,),
            ).fetchone()
        )
        if row is None:
            return None
        settings = json.loads(row[0]) if row[0] else {}
        return settings, bool(row[1]), RunStop.from_row(row[2], row[3])

    def run_age_s(self, run: int) -> float:
        """The seconds since the run was queued, by the database's clock (its waiter's
        time is counted from then)."""
        row = self.db.run(
            lambda db: db.execute(
                "SELECT EXTRACT(EPOCH FROM now() - started) FROM ladder_runs WHERE id = %s",
                (run,),
            ).fetchone()
        )
        return 0.0 if row is None else max(0.0, float(row[0]))

    def withheld(self, keys: Sequence[str]) -> list[str]:
        """Those of these board keys whose results are kept for a release."""
        rows = self.db.run(
            lambda db: db.execute(
                "SELECT DISTINCT board FROM running WHERE board = ANY(%s) AND result IS NOT NULL"
                " ORDER BY board",
                (list(keys),),
            ).fetchall()
        )
        return [str(r[0]) for r in rows]

    def games(self, run: int) -> list[dict[str, Any]]:
        """The games the workers stored for ``run`` (LadderStore.games)."""
        return self.db.run(lambda db: games_postgres(db, run))

    def unfinished(self) -> int:
        """Boards of any run not stopped not done yet (leased or not)."""
        row = self.db.run(
            lambda db: db.execute(
                "SELECT count(*) FROM ladder_boards WHERE NOT done"
                f" AND {_LIVE.format(b='ladder_boards')}"
            ).fetchone()
        )
        assert row is not None
        return int(row[0])


def _stop(db: psycopg.Connection[Any], run: int, lock: str = "") -> RunStop | None:
    """``run``'s stop (None: not stopped, or no such run), its row locked as told."""
    row = db.execute(
        f"SELECT stopped, stop_reason FROM ladder_runs WHERE id = %s {lock}".encode(), (run,)
    ).fetchone()
    return None if row is None else RunStop.from_row(row[0], row[1])


def _set_stop(db: psycopg.Connection[Any], run: int, stop: RunStop) -> None:
    db.execute(
        "UPDATE ladder_runs SET stopped = %s, stop_reason = %s WHERE id = %s",
        (stop.kind.value, stop.reason, run),
    )


def _status(db: psycopg.Connection[Any], run: int) -> RunStatus:
    row = db.execute(
        "SELECT count(*) FILTER (WHERE done), count(*) FROM ladder_boards WHERE run_id = %s",
        (run,),
    ).fetchone()
    assert row is not None
    return RunStatus(int(row[0]), int(row[1]), _stop(db, run))


def _unlease(db: psycopg.Connection[Any], worker: str, run: int) -> None:
    db.execute(
        "UPDATE ladder_boards SET claimed_by = NULL, lease_until = NULL"
        " WHERE run_id = %s AND claimed_by = %s AND NOT done",
        (run, worker),
    )
