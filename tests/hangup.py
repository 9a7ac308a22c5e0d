"""A process started as from a terminal: SIGHUP at its default (the end), even where
this suite runs under ``nohup``, whose ignored SIGHUP stays ignored across exec."""

from __future__ import annotations

import sys

_SIGHUP_DEFAULT_THEN_EXEC = (
    "import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def as_from_a_terminal(argv: list[str]) -> list[str]:
    """``argv`` run with SIGHUP at its default, whatever this process was given."""
    return [sys.executable, "-c", _SIGHUP_DEFAULT_THEN_EXEC, *argv]
