"""``ladder cancel RUN``: a distributed run taken out of the queue (run_stop.py). Its
boards not played are no longer claimed, the workers playing its boards drop them at
their next look at the run (a lease's renewal, a board's store), its waiter ends with
status 2, and it is never counted; the games stored for it so far stay stored,
uncounted (docs/bots.md "Distributed ladders")."""

from __future__ import annotations

import os
import socket

from .patience import WAIT_LIMIT_S
from .queue import BoardQueue, CancelAnswer
from .schedule import ScheduleError


def cancel_distributed(url: str, run: int, db_wait_s: float = WAIT_LIMIT_S) -> str:
    """Cancel ``run``: what to say of it; ScheduleError (its one line) if it is refused:
    no such run, one counted already, a single-machine run, or one stopped already."""
    by = f"by 'ladder cancel' on {socket.gethostname()}, process {os.getpid()}"
    queue = BoardQueue(url, "ladder cancel", db_wait_s)
    try:
        found = queue.cancel(run, by)
    finally:
        queue.close()
    if found.answer is CancelAnswer.NO_RUN:
        raise ScheduleError(f"there is no run {run}")
    if found.answer is CancelAnswer.FINISHED:
        raise ScheduleError(f"run {run} is finished already: its report and ratings stand")
    if found.answer is CancelAnswer.SINGLE_MACHINE:
        raise ScheduleError(
            f"run {run} was not distributed: a single-machine run is stopped where it runs (Ctrl-C)"
        )
    assert found.stop is not None and found.status is not None
    if found.answer is CancelAnswer.STOPPED_ALREADY:
        raise ScheduleError(found.stop.already(run))
    done, total = found.status.done, found.status.total
    return (
        f"run {run} cancelled: {done} of {total} boards were played (their games stay "
        "stored, uncounted); the workers drop the others"
    )
