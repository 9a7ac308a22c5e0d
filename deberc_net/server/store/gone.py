"""Whether a ``servers`` row of this host names a server that is surely gone: an SQLite
server started after its predecessor's ``kill -9`` takes that one's matches at once,
not after ``server_dead_ms`` of silence (docs/scaling.md, "Restarts on one host")."""

from __future__ import annotations

import os

import attrs
import structlog

from ..cluster.liveness import process_ended

# A row's ``started`` is whole seconds (SQLite's datetime('now')), a process's start is
# read as the boot time (whole seconds) plus its clock ticks: a process that started
# more than this after its row's time is not the server that wrote the row
REUSE_SLACK_S = 2.0

log = structlog.get_logger("deberc.store")


def tell_ended_at_start(ended: int) -> None:
    """The log's line for the running matches of dead servers a server's start ended
    (a ``kill -9``'s, found gone or silent): the same line a heartbeat's finding logs, so
    that a restart after a crash says what it ended. Told once committed."""
    if ended:
        log.warning("dead_servers_matches_ended", matches=ended, at_start=True)


@attrs.frozen
class ProcessStart:
    """A process's start, whatever the clock did since: this host's boot (the kernel's
    boot_id) and the clock ticks after it. A pid and this name one process for good."""

    boot: str
    ticks: int


def server_gone(pid: int, row_started_s: float, row_start: ProcessStart | None) -> bool:
    """Whether the server that wrote a row of this host (``pid``, the row's ``started``
    in seconds since the epoch, ``row_start`` its process's start as it wrote the row)
    is gone: its process has ended (cluster/liveness.py), or the process now under its
    pid is another (the pid reused: a container's restarted server is pid 1 again).
    Another is one whose start in this boot is not the row's; for a row without one
    (older code's) or of another boot, one that started after the row was written by
    the clock: a clock stepped forward since (NTP, a VM restored) makes a live server
    look so, which a row with its start never does. A process that may be that server,
    stalled, or whose start cannot be read (no /proc: not Linux) is waited for,
    ``server_dead_ms``."""
    if pid <= 0:
        return False
    if process_ended(pid):
        return True
    now = process_start(pid)
    if row_start is not None and now is not None and now.boot == row_start.boot:
        return now.ticks != row_start.ticks
    started = process_started(pid)
    return started is not None and started > row_started_s + REUSE_SLACK_S


def process_start(pid: int) -> ProcessStart | None:
    """Process ``pid``'s start (ProcessStart), from /proc; None if it cannot be read."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as fh:
            boot = fh.read().strip()
        ticks = _start_ticks(pid)
    except (OSError, IndexError, ValueError):
        return None
    return ProcessStart(boot, ticks) if boot else None


def process_started(pid: int) -> float | None:
    """When process ``pid`` started, in seconds since the epoch (to a second: the boot
    time's, by the clock as it is now), from /proc; None if it cannot be read."""
    try:
        ticks = _start_ticks(pid)
        with open("/proc/stat", "rb") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith(b"btime "))
    except (OSError, StopIteration, IndexError, ValueError):
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def _start_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as fh:
        stat = fh.read()
    # 'pid (name) state …': the name may hold spaces and parentheses; the start
    # (field 22, clock ticks after boot) is the 20th after the name
    return int(stat.rpartition(b")")[2].split()[19])
