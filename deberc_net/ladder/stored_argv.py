"""A ladder run's command line as its run row keeps it (``ladder_runs.settings``):
without the admin's password, which the row would hand to every copy of the database
(docs/bots.md). A migration hides it in rows stored before (store/migrations.py 10)."""

from __future__ import annotations

from collections.abc import Sequence

SECRET_FLAG = "--admin-password"
# argparse takes any unambiguous start of a flag for it ('--admin-pass P', '--ad=P'):
# '--ad' is the shortest ('--a' is '--away-ms' too, which argparse refuses)
SHORTEST = "--ad"
HIDDEN = "***"


def without_secrets(argv: Sequence[str]) -> list[str]:
    """``argv`` with the value of every ``--admin-password`` (``… P`` or ``…=P``, the flag
    spelled out or abbreviated as argparse takes it) hidden."""
    kept: list[str] = []
    for i, arg in enumerate(argv):
        flag, equals, _ = arg.partition("=")
        if i > 0 and _is_secret_flag(argv[i - 1]):
            kept.append(HIDDEN)
        elif equals and _is_secret_flag(flag):
            kept.append(f"{flag}={HIDDEN}")
        else:
            kept.append(arg)
    return kept


def _is_secret_flag(arg: str) -> bool:
    return len(arg) >= len(SHORTEST) and SECRET_FLAG.startswith(arg)
