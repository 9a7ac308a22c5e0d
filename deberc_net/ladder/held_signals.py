"""SIGINT, SIGTERM and SIGHUP (where not ignored: ``nohup``) held while a finished run
is written: a signal once every board is released cuts nothing (docs/bots.md,
"Interrupted"), so the run stands whole."""

from __future__ import annotations

import contextlib
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


@contextlib.contextmanager
def stops_as_ctrl_c() -> Iterator[None]:
    """SIGTERM and SIGHUP (unless ignored) raise KeyboardInterrupt in the block, as
    Ctrl-C does: a distributed run's waiter, which has no trio loop to take them, ended
    by their default with no line and no word of `ladder finish` (status 143). Its
    count is one transaction: cut, it is rolled back, and the run can be finished
    later. Only the main thread has signals: elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        leave_the_terminal_on_hangup(signum)
        raise KeyboardInterrupt

    stops = (signal.SIGTERM, *hangup())
    previous = {signum: signal.signal(signum, interrupt) for signum in stops}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
