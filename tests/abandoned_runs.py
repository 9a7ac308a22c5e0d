"""A trio run that a test's time limit abandoned, finished before the next test starts.

pytest-timeout (``timeout`` in pyproject.toml) ends a test that overran with SIGALRM,
whose handler raises in whatever the main thread is doing: in a trio test, usually
trio.run waiting for I/O, outside trio's run-loop generator. That generator then never
finishes, and its ``finally`` is what clears trio's note that this thread is in a run:
it stayed set, held by the failure's traceback, and every later trio test in the
process failed with 'Attempted to call run() from inside a run()' (tonight's two web
tests, after some other test in their worker overran at load 8-12).

Closing the generator alone cleared that note but left the run's tasks suspended: the
<init> task's Runner.init coroutine (its nurseries still counting their children) and
the main task's coroutine. The garbage collector finalized them later, in whichever
test ran then, outside any run: each unwound through trio's cancel scopes and nurseries
with no run and a closed epoll, and pytest charged the four errors to that test as
PytestUnraisableExceptionWarnings (the suite's '3 warnings'). So the run is finished
the way trio.run finishes one: everything in it cancelled, its tasks unwound, its loop
run to the end."""

from __future__ import annotations

import time
import types
import warnings

import sniffio
import trio

# How long the cancelled run may take to unwind before its loop is closed unfinished
# (a task shielded from cancellation that never returns): the thread is freed anyway.
UNWIND_LIMIT = 10.0


def close_abandoned_run(error: BaseException) -> bool:
    """Finish the trio run ``error`` left open in this thread, if it did (its run-loop
    generator found in the traceback's frames): True if one was closed."""
    if not trio.lowlevel.in_trio_run():
        return False
    for run_loop in _run_loops(error.__traceback__):
        if run_loop.gi_frame is None:  # it had finished
            continue
        if not _finish(run_loop):
            with warnings.catch_warnings():  # (trio's warning that it was abandoned: it was)
                warnings.simplefilter("ignore", RuntimeWarning)
                run_loop.close()  # its finally: the runner closed, the thread out of the run
    return not trio.lowlevel.in_trio_run()


def _finish(run_loop: types.GeneratorType[float, object, None]) -> bool:
    """Cancel everything in the run and drive its loop as trio.run does until it ends:
    True if it did within UNWIND_LIMIT. The main task's outcome (Cancelled, or whatever
    its unwinding raised) is dropped: the test has already failed by its time limit."""
    runner = run_loop.gi_frame.f_locals["runner"] if run_loop.gi_frame else None
    if runner is None:
        return False
    give_up = time.monotonic() + UNWIND_LIMIT
    previous, sniffio.thread_local.name = sniffio.thread_local.name, "trio"
    try:
        timeout = 0.0  # the I/O wait the signal interrupted: its events are looked at again
        while (left := give_up - time.monotonic()) > 0:
            if runner.system_nursery is not None:  # (None before <init> first ran)
                runner.system_nursery.cancel_scope.cancel("the test overran its time limit")
            try:
                timeout = run_loop.send(runner.io_manager.get_events(min(timeout, left)))
            except StopIteration:
                return True
        return False
    finally:
        sniffio.thread_local.name = previous


def _run_loops(tb: types.TracebackType | None) -> list[types.GeneratorType[float, object, None]]:
    """The trio run-loop generators (trio.run's ``gen``) in ``tb``'s frames."""
    found = []
    while tb is not None:
        gen = tb.tb_frame.f_locals.get("gen")
        if isinstance(gen, types.GeneratorType) and gen.gi_code.co_name == "unrolled_run":
            found.append(gen)
        tb = tb.tb_next
    return found
