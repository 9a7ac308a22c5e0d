"""A trio run that a test's time limit abandoned, closed before the next test starts.

pytest-timeout (``timeout`` in pyproject.toml) ends a test that overran with SIGALRM,
whose handler raises in whatever the main thread is doing: in a trio test, usually
trio.run waiting for I/O, outside trio's run-loop generator. That generator then never
finishes, and its ``finally`` is what clears trio's note that this thread is in a run:
it stayed set, held by the failure's traceback, and every later trio test in the
process failed with 'Attempted to call run() from inside a run()' (tonight's two web
tests, after some other test in their worker overran at load 8-12)."""

from __future__ import annotations

import types
import warnings

import trio


def close_abandoned_run(error: BaseException) -> bool:
    """Close the trio run ``error`` left open in this thread, if it did (its run-loop
    generator found in the traceback's frames): True if one was closed."""
    if not trio.lowlevel.in_trio_run():
        return False
    for run_loop in _run_loops(error.__traceback__):
        with warnings.catch_warnings():  # (trio's warning that it was abandoned: it was)
            warnings.simplefilter("ignore", RuntimeWarning)
            run_loop.close()  # its finally: the runner closed, the thread out of the run
    return not trio.lowlevel.in_trio_run()


def _run_loops(tb: types.TracebackType | None) -> list[types.GeneratorType[object, object, object]]:
    """The trio run-loop generators (trio.run's ``gen``) in ``tb``'s frames."""
    found = []
    while tb is not None:
        gen = tb.tb_frame.f_locals.get("gen")
        if isinstance(gen, types.GeneratorType) and gen.gi_code.co_name == "unrolled_run":
            found.append(gen)
        tb = tb.tb_next
    return found
