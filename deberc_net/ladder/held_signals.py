"""SIGINT, SIGTERM and SIGHUP (where not ignored: ``nohup``) held while a finished run
is written: a signal once every board is released cuts nothing (docs/bots.md,
"Interrupted"), so the run stands whole."""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from deberc_net.hangup import hangup, leave_the_terminal_on_hangup

HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """The first SIGINT, SIGTERM or SIGHUP (a terminal's hangup: at its default it
    ended the process, the run left without its summary) waits for the block's end and
    is then forgotten; a second one raises KeyboardInterrupt (a database that does not
    answer). Only the main thread has signals: elsewhere (a program's thread) nothing
    is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        if got:
            raise KeyboardInterrupt
        got.append(signum)

    previous = {signum: signal.signal(signum, hold) for signum in (*HELD, *hangup())}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# psycopg's loggers of a rollback that failed ("error ignored in rollback ..."): a
# connection, and a transaction block
ROLLBACK_LOGGERS = ("psycopg", "psycopg.transaction")


class QuietRollbacks(logging.Filter):
    """Once a stop has cut the block, psycopg's warning that the cut transaction's
    rollback failed (its connection lost meanwhile, or cut in the middle of a reply)
    is not printed: the process is ending with its one line, and nothing was written."""

    def __init__(self) -> None:
        super().__init__()
        self.stopped = False

    def filter(self, record: logging.LogRecord) -> bool:
        return not (self.stopped and str(record.msg).startswith("error ignored in rollback"))


@contextlib.contextmanager
def stops_as_ctrl_c() -> Iterator[None]:
    """SIGTERM and SIGHUP (unless ignored) raise KeyboardInterrupt in the block, as
    Ctrl-C does: a distributed run's waiter, which has no trio loop to take them, ended
    by their default with no line and no word of `ladder finish` (status 143). Its
    count is one transaction: cut, it is rolled back, and the run can be finished
    later; the stop says one line, with no word of a rollback that failed on stderr
    before it (``QuietRollbacks``). Only the main thread has signals: elsewhere
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    quiet = QuietRollbacks()

    def interrupt(signum: int, frame: FrameType | None) -> None:
        leave_the_terminal_on_hangup(signum)
        quiet.stopped = True
        raise KeyboardInterrupt

    stops = (signal.SIGINT, signal.SIGTERM, *hangup())
    previous = {signum: signal.signal(signum, interrupt) for signum in stops}
    loggers = [logging.getLogger(name) for name in ROLLBACK_LOGGERS]
    for logger in loggers:
        logger.addFilter(quiet)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for logger in loggers:
            logger.removeFilter(quiet)
