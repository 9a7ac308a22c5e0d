"""A distributed run stopped in the queue (failed by a worker whose bot cannot run, or
cancelled), on a real PostgreSQL: its boards are neither claimed, renewed nor stored,
its count is refused, and each stop run twice in a row (a try whose answer was lost,
patience.py) answers the same (docs/bots.md "Distributed ladders")."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from deberc_net.ladder.distributed import count_and_finish
from deberc_net.ladder.queue import BoardQueue, CancelAnswer, Cancelling
from deberc_net.ladder.run_stop import RunStop, RunStopped, StopKind
from deberc_net.ladder.supervisor import BotCannotRun, start_refused
from tests.ladder.board_queue import new_run, played_run, query, results
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 (fixtures)

T = TypeVar("T")


def _distributed(url: str, run: int) -> None:
    """The run's settings say it is distributed (what ``ladder cancel`` takes)."""
    query(url, "UPDATE ladder_runs SET settings = %s WHERE id = %s RETURNING id",
          json.dumps({"distributed": {}}), run)  # fmt: skip


def _cancel_tried_twice(queue: BoardQueue, run: int) -> Cancelling:
    """``queue.cancel`` whose first try commits and whose answer is lost: the patient
    connection runs the call again, which finds its own stop."""
    run_once = queue.db.run
    answers: list[object] = []

    def twice(work: Callable[[Any], T]) -> T:
        answers.append(run_once(work))  # committed, its answer lost
        return run_once(work)

    queue.db.run = twice  # type: ignore[method-assign]
    try:
        again = queue.cancel(run, "by test")
    finally:
        queue.db.run = run_once  # type: ignore[method-assign]
    assert answers == [again]
    return again


@pytest.mark.timeout(60)
def test_a_cancelled_run_is_out_of_the_queue(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    queue, run = new_run(postgres_url, 3)
    other, later = new_run(postgres_url, 1)
    other.close()
    _distributed(postgres_url, run)
    try:
        held = queue.claim("w1", 60.0)
        assert held is not None and (held.run, held.board) == (run, 1)
        first = _cancel_tried_twice(queue, run)
        assert first.answer is CancelAnswer.CANCELLED
        assert first.stop == RunStop(StopKind.CANCELLED, "by test")
        assert (first.status and (first.status.done, first.status.total)) == (0, 3)
        # another cancel: refused, the stop kept
        assert queue.cancel(run, "by test").answer is CancelAnswer.STOPPED_ALREADY
        other_cancel = queue.cancel(run, "by another")
        assert other_cancel.answer is CancelAnswer.STOPPED_ALREADY
        assert other_cancel.stop == first.stop
        assert queue.status(run).stop == first.stop
        # its boards: not renewed, not stored, not claimed; the next run's are
        assert queue.renew("w1", 60.0, run, [1]) == [1]
        assert queue.complete("w1", run, 1, results(1)) is False
        assert query(postgres_url, "SELECT count(*) FROM ladder_games") == [(0,)]
        nxt = queue.claim("w2", 60.0)
        assert nxt is not None and nxt.run == later
        assert queue.claim("w2", 60.0, run) is None
        assert queue.unfinished() == 1  # (the next run's board)
        queue.unlease("w1", run)
        assert query(postgres_url, "SELECT count(*) FROM ladder_boards WHERE run_id = %s"
                     " AND claimed_by IS NOT NULL", run) == [(0,)]  # fmt: skip
        # a failure after the cancel keeps the cancel
        assert queue.fail("w1", run, "cannot start bot 'x': no") == first.stop
        # what cannot be cancelled
        assert queue.cancel(run + 100, "by test").answer is CancelAnswer.NO_RUN
        assert queue.cancel(later, "by test").answer is CancelAnswer.SINGLE_MACHINE
    finally:
        queue.close()


@pytest.mark.timeout(60)
def test_a_failed_run_unleases_the_boards_of_its_worker_and_is_never_counted(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    queue, run = new_run(postgres_url, 2)
    try:
        assert queue.claim("w1", 60.0) is not None
        assert queue.claim("w2", 60.0) is not None
        failed = queue.fail("w1", run, "cannot start bot 'x': [Errno 2] no")
        assert failed == queue.fail("w1", run, "cannot start bot 'x': [Errno 2] no")  # again
        assert failed == RunStop(StopKind.FAILED, "worker w1: cannot start bot 'x': [Errno 2] no")
        assert failed.line(run) == f"run {run} failed: {failed.reason}"
        leased = query(postgres_url, "SELECT board, claimed_by FROM ladder_boards ORDER BY board")
        assert leased == [(1, None), (2, "w2")]  # w2 lets its own go at its next renewal
        assert queue.renew("w2", 60.0, run, [2]) == [2]
        assert queue.claim("w3", 60.0) is None and queue.unfinished() == 0
    finally:
        queue.close()


@pytest.mark.timeout(60)
def test_a_whole_run_is_not_failed_and_a_stopped_one_is_not_counted(
    postgres_url: str,  # noqa: F811 (the fixture)
) -> None:
    """A bot that cannot run once every board of its run is stored does not undo the
    run; a run cancelled as its last board is stored is not counted."""
    queue, run, options, games = played_run(postgres_url, "whole")
    try:
        assert queue.fail("w1", run, "bot 'a' keeps exiting") is None
        assert queue.status(run).stop is None
        _distributed(postgres_url, run)
        assert queue.cancel(run, "by test").answer is CancelAnswer.CANCELLED
        with pytest.raises(RunStopped) as stopped:
            queue.db.run(lambda db: count_and_finish(db, run, options, "whole", games, 0.0, []))
        assert str(stopped.value).startswith(f"run {run} was cancelled by test")
        assert query(postgres_url, "SELECT summary FROM ladder_runs") == [(None,)]
        assert query(postgres_url, "SELECT count(*) FROM ladder_ratings") == [(0,)]
        assert queue.cancel(run, "by another").answer is CancelAnswer.STOPPED_ALREADY
    finally:
        queue.close()


def test_only_a_commands_own_fault_fails_a_run_a_machines_passing_want_does_not() -> None:
    # a review: ENOMEM, EAGAIN or EMFILE on one worker failed the whole run for good
    for code in (errno.ENOENT, errno.EACCES, errno.ENOEXEC):
        refused = start_refused("x", OSError(code, os.strerror(code)))
        assert isinstance(refused, BotCannotRun) and refused.bot == "x"
    for code in (errno.ENOMEM, errno.EAGAIN, errno.EMFILE):
        refused = start_refused("x", OSError(code, os.strerror(code)))
        assert not isinstance(refused, BotCannotRun)
        assert str(refused) == f"cannot start bot 'x': [Errno {code}] {os.strerror(code)}"
