"""SIGHUP, a terminal's hangup, taken as a stop (as SIGTERM) unless it is ignored.

Its default ends a process outright: a server left its players told nothing and its
queued writes unwritten, a ladder its run without a summary. Where it is ignored
(``nohup``, inherited across exec) it stays ignored: the process was asked to outlive
its terminal."""

from __future__ import annotations

import signal


def hangup() -> tuple[signal.Signals, ...]:
    """SIGHUP, to be taken as a stop; none where it is ignored (``nohup``) or unknown
    (Windows). A handler of the process's own (a worker's, until its server takes the
    signal) is no reason to leave it."""
    hup = getattr(signal, "SIGHUP", None)
    return () if hup is None or signal.getsignal(hup) is signal.SIG_IGN else (hup,)
