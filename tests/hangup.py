"""A process started as from a terminal: SIGHUP at its default (the end), even where
this suite runs under ``nohup``, whose ignored SIGHUP stays ignored across exec; or as
under ``nohup``, SIGHUP ignored."""

from __future__ import annotations

import sys

_SIGHUP_THEN_EXEC = (
    "import os, signal, sys; signal.signal(signal.SIGHUP, getattr(signal, sys.argv[1])); "
    "os.execv(sys.argv[2], sys.argv[2:])"
)


def as_from_a_terminal(argv: list[str]) -> list[str]:
    """``argv`` run with SIGHUP at its default, whatever this process was given."""
    return [sys.executable, "-c", _SIGHUP_THEN_EXEC, "SIG_DFL", *argv]


def as_under_nohup(argv: list[str]) -> list[str]:
    """``argv`` run with SIGHUP ignored, as ``nohup`` starts it."""
    return [sys.executable, "-c", _SIGHUP_THEN_EXEC, "SIG_IGN", *argv]
