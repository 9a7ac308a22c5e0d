"""Whether another worker of this ``serve --workers`` (the same host: the same parent)
still runs, by its process id told on the bus: a SIGKILLed worker is known dead at
once, not only when its replacement says hello or after ``server_dead_ms`` of silence
(docs/scaling.md, "A worker's death")."""

from __future__ import annotations

import os

# the states /proc gives a process that has ended but is not reaped yet (its parent
# polls it every few hundredths of a second): a zombie, or one dying
ENDED_STATES = (b"Z", b"X")


def process_ended(pid: int) -> bool:
    """Whether process ``pid`` has ended: gone, or a zombie its parent has not reaped
    yet. False when it cannot tell (no /proc, not Linux: a living zombie then), and for
    a process that runs, whoever's (a reused pid: as before, the silence decides)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except FileNotFoundError:  # reaped between the two looks
        return True
    except OSError:
        return False
    # 'pid (name) state …': the name may hold spaces and parentheses, the state follows
    # the last ')'
    fields = stat.rpartition(b")")[2].split()
    return bool(fields) and fields[0] in ENDED_STATES
