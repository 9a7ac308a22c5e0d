"""Whether another worker of this ``serve --workers`` (the same host: the same parent)
still runs, by its process id told on the bus: a SIGKILLed worker is known dead at
once, not only when its replacement says hello or after ``server_dead_ms`` of silence
(docs/scaling.md, "A worker's death")."""

from __future__ import annotations

import os

# the states /proc gives a thread that has ended but is not reaped yet (its parent
# polls the process every few hundredths of a second): a zombie, or one dying
ENDED_STATES = (b"Z", b"X")


def process_ended(pid: int) -> bool:
    """Whether process ``pid`` has ended: gone, or every thread of it a zombie its
    parent has not reaped yet (its first thread is one as soon as it is killed, while
    the others still close its files). False when it cannot tell (no /proc, not Linux:
    a living zombie then), and for a process that runs, whoever's (a reused pid: as
    before, the silence decides)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:  # reaped between the two looks
        return True
    except OSError:
        return False
    return all(_thread_ended(pid, thread) for thread in threads)


def _thread_ended(pid: int, thread: str) -> bool:
    try:
        with open(f"/proc/{pid}/task/{thread}/stat", "rb") as fh:
            stat = fh.read()
    except FileNotFoundError:  # gone since it was listed
        return True
    except OSError:
        return False
    # 'tid (name) state …': the name may hold spaces and parentheses, the state follows
    # the last ')'
    fields = stat.rpartition(b")")[2].split()
    return bool(fields) and fields[0] in ENDED_STATES
