"""A ladder run's command line as its run row keeps it (``ladder_runs.settings``):
without the admin's password, which the row would hand to every copy of the database
(docs/bots.md). A migration hides it in rows stored before (store/migrations.py 10)."""

from __future__ import annotations

from collections.abc import Sequence

SECRET_FLAG = "--admin-password"
HIDDEN = "***"


def without_secrets(argv: Sequence[str]) -> list[str]:
    """``argv`` with the value of every ``--admin-password`` (``… P`` or ``…=P``) hidden."""
    kept: list[str] = []
    for i, arg in enumerate(argv):
        if i > 0 and argv[i - 1] == SECRET_FLAG:
            kept.append(HIDDEN)
        elif arg.startswith(SECRET_FLAG + "="):
            kept.append(f"{SECRET_FLAG}={HIDDEN}")
        else:
            kept.append(arg)
    return kept
