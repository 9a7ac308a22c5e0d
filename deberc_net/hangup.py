"""SIGHUP, a terminal's hangup, taken as a stop (as SIGTERM) unless it is ignored.

Its default ends a process outright: a server left its players told nothing and its
queued writes unwritten, a ladder its run without a summary. Where it is ignored
(``nohup``, inherited across exec) it stays ignored: the process was asked to outlive
its terminal."""

from __future__ import annotations

import os
import signal
import stat

import attrs


def hangup() -> tuple[signal.Signals, ...]:
    """SIGHUP, to be taken as a stop; none where it is ignored (``nohup``) or unknown
    (Windows). A handler of the process's own (a worker's, until its server takes the
    signal) is no reason to leave it."""
    hup = getattr(signal, "SIGHUP", None)
    return () if hup is None or signal.getsignal(hup) is signal.SIG_IGN else (hup,)


def leave_the_terminal_on_hangup(signum: int) -> None:
    """After SIGHUP (a closed terminal's), standard output and error that are a
    terminal point at /dev/null: the stop's own log lines (and the last words after it)
    would raise EIO there and cut the stop short, nobody told. Any other signal: none."""
    if signum != getattr(signal, "SIGHUP", None):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            try:
                # (a character device, not isatty(): a hung-up terminal answers no
                # terminal query, and /dev/null itself is harmlessly replaced)
                if stat.S_ISCHR(os.fstat(fd).st_mode):
                    os.dup2(devnull, fd)
            except OSError:  # closed already: nothing to write to
                pass
    finally:
        os.close(devnull)


def drain() -> tuple[signal.Signals, ...]:
    """SIGUSR1, a server's drain (docs/protocol.md §11.4a); none where there is none
    (Windows)."""
    usr1 = getattr(signal, "SIGUSR1", None)
    return () if usr1 is None else (usr1,)


@attrs.define
class StopSignals:
    """SIGTERM and SIGHUP (unless ignored) for a process whose server takes them while
    it serves (server/running.py): before it serves, each ends the process as its
    default would; once it has, one come during the stop, which trio hands back as the
    server's receiver closes, is ignored (a server stops once, docs/protocol.md §11.4:
    a second SIGHUP, as a shell sends its jobs beside the kernel's, killed it before
    its last writes). SIGUSR1 (a drain, §11.4a) before it serves is held for it, and
    ignored during the stop."""

    serving: bool = False
    drain_held: bool = False  # SIGUSR1 came before the server served

    def install(self) -> None:
        for signum in (signal.SIGTERM, *hangup(), *drain()):
            signal.signal(signum, self._arrived)

    def served(self, _port: int) -> None:
        """``serve``'s ``ready``: the server takes the signals from here (a SIGUSR1
        held till now is sent again, for it)."""
        self.serving = True
        if self.drain_held:
            self.drain_held = False
            os.kill(os.getpid(), drain()[0])

    def _arrived(self, signum: int, _frame: object) -> None:
        if signum in drain():
            # a drain asked for as the server starts is its to begin once it serves (its
            # default would end the process); during the stop there is nothing to drain
            self.drain_held = not self.serving
            return
        if not self.serving:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
