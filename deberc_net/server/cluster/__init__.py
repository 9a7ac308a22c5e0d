"""``serve --workers N``: several server processes behind one port with one lobby
(docs/scaling.md). ``launch`` starts and watches the workers; ``bus`` is PostgreSQL
LISTEN/NOTIFY between them; ``node`` is a worker's share of the one lobby; ``remote``
the stand-ins for a table or a player that another worker holds."""

from __future__ import annotations

import os
import threading

import attrs

from deberc_net.hangup import drain

# what the parent writes on a worker's stdin as it passes a drain of the whole server on
# (launch.py), and as it passes the whole server's stop on (its SIGTERM, SIGINT, SIGHUP),
# the only things ever written there (worker.py reads them)
DRAIN_WORD = b"drain\n"
STOP_WORD = b"stop\n"
STDOUT = 1  # the pipe to the parent (launch.py)
# what a worker writes on its stdout, after 'ready', before it signals the parent for an
# admin's 'drain': 'drain-asked NAME' (a name has no space), so the parent's log says
# who asked, not only the signal (launch.py)
DRAIN_ASKED = b"drain-asked "


@attrs.frozen
class WorkerPlace:
    """Which worker this process is, of how many (``serve --workers``)."""

    index: int  # 0 .. count-1 (worker 0 serves the web face, if any)
    count: int
    parent: str = ""  # the parent's run (launch.py): the same for a worker started again
    # the parent's process id (launch.py); 0: a worker started alone (a test's), which
    # is a whole server of its own
    parent_pid: int = 0
    # set once the parent has said that the whole server drains (its word on this
    # worker's stdin, with the SIGUSR1 it passes on: worker.py): an admin's 'drain' then
    # has nothing to ask of it (a SIGUSR1 to this worker's pid alone is no such word)
    parent_drains: threading.Event = attrs.field(factory=threading.Event, eq=False, repr=False)
    # set once the parent has said that the whole server stops (its word, STOP_WORD,
    # before the SIGTERM it passes on), or it is gone: the other workers stop with this
    # one, their tables close (node.py: tell_seats_kept). A SIGTERM to this worker's pid
    # alone (a rolling restart) comes with no such word
    parent_stops: threading.Event = attrs.field(factory=threading.Event, eq=False, repr=False)

    def drain_the_parent(self, admin: str) -> bool:
        """SIGUSR1 to the ``serve --workers`` parent, which drains every worker (``admin``'s
        ``drain``, docs/protocol.md §11.4a), his name said first on this worker's stdout
        for the parent's log; False, nothing sent, if this process's parent is no longer
        that parent (it is gone: this worker stops)."""
        signals = drain()
        if not self.parent_pid or os.getppid() != self.parent_pid or not signals:
            return False
        try:  # one write, under PIPE_BUF: whole in the pipe before the signal
            os.write(STDOUT, DRAIN_ASKED + admin.encode("utf-8") + b"\n")
        except OSError:  # (the parent's end closed: it is gone, as below)
            return False
        try:
            os.kill(self.parent_pid, signals[0])
        except ProcessLookupError:  # gone since the look: as above
            return False
        return True
