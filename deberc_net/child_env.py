"""The environment of a program deberc-net starts that is none of its own processes (a
house bot, a ladder's bot): its own, without the secrets it may hold there for itself.

docs/scaling.md advises a PostgreSQL password in ``PGPASSWORD`` (libpq reads it), and
docs/bots.md a ``ladder run --server``'s admin password in ``DEBERC_ADMIN_PASSWORD``:
both kept off a command line that ``ps`` shows. A bot started with the whole
environment had them in its own (``os.environ``, ``/proc/PID/environ``, any crash
report that lists it): a ladder's bot, anyone's program, could log in as the server's
admin. A worker of ``serve --workers`` is the server's own and keeps its environment
(its libpq needs ``PGPASSWORD``)."""

from __future__ import annotations

import os

# (DEBERC_NET_WORKER: an earlier parent's worker settings, the database's address with
# them; a worker drops it at its start, server/cluster/worker.py)
SECRET_VARIABLES = frozenset({"PGPASSWORD", "DEBERC_ADMIN_PASSWORD", "DEBERC_NET_WORKER"})


def child_environment(**extra: str) -> dict[str, str]:
    """This process's environment without ``SECRET_VARIABLES``, ``extra`` set in it."""
    kept = {k: v for k, v in os.environ.items() if k not in SECRET_VARIABLES}
    return kept | extra
