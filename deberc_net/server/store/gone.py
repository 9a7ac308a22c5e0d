"""Whether a ``servers`` row of this host names a server that is surely gone: an SQLite
server started after its predecessor's ``kill -9`` takes that one's matches at once,
not after ``server_dead_ms`` of silence (docs/scaling.md, "Restarts on one host")."""

from __future__ import annotations

import os

from ..cluster.liveness import process_ended

# A row's ``started`` is whole seconds (SQLite's datetime('now')), a process's start is
# read as the boot time (whole seconds) plus its clock ticks: a process that started
# more than this after its row's time is not the server that wrote the row
REUSE_SLACK_S = 2.0


def server_gone(pid: int, row_started_s: float) -> bool:
    """Whether the server that wrote a row of this host (``pid``, the row's ``started``
    in seconds since the epoch) is gone: its process has ended (cluster/liveness.py),
    or the process now under its pid started after the row was written (the pid
    reused: a container's restarted server is pid 1 again). A process that started
    before the row may be that server, stalled, and one whose start cannot be read
    (no /proc: not Linux) may be too: either is waited for, ``server_dead_ms``."""
    if pid <= 0:
        return False
    if process_ended(pid):
        return True
    started = process_started(pid)
    return started is not None and started > row_started_s + REUSE_SLACK_S


def process_started(pid: int) -> float | None:
    """When process ``pid`` started, in seconds since the epoch (to a second: the boot
    time's), from /proc; None if it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
        with open("/proc/stat", "rb") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith(b"btime "))
        # 'pid (name) state …': the name may hold spaces and parentheses; the start
        # (field 22, clock ticks after boot) is the 20th after the name
        ticks = int(stat.rpartition(b")")[2].split()[19])
    except (OSError, StopIteration, IndexError, ValueError):
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")
