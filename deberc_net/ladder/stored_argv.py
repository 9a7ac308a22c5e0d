"""A ladder run's command line as its run row keeps it (``ladder_runs.settings``):
without the admin's password, which the row would hand to every copy of the database
(docs/bots.md). A migration hides it in rows stored before (store/migrations.py 10).
Nor the password of a PostgreSQL address (``--db postgresql://USER:PASSWORD@HOST/DB``,
or its ``?password=``): the row kept it whole, and ``ladder table --json --runs``
printed it; a row stored before is told without it (``told_settings``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deberc_net.server.store import HIDDEN, without_password

SECRET_FLAG = "--admin-password"
# argparse takes any unambiguous start of a flag for it ('--admin-pass P', '--ad=P'):
# '--ad' is the shortest ('--a' is '--away-ms' too, which argparse refuses)
SHORTEST = "--ad"


def without_secrets(argv: Sequence[str]) -> list[str]:
    """``argv`` with the value of every ``--admin-password`` (``… P`` or ``…=P``, the flag
    spelled out or abbreviated as argparse takes it) hidden, and the password of every
    PostgreSQL address in it (``--db``'s, or one in a bot's command), or of an address
    of any other scheme (``postgresql+psycopg://``, SQLAlchemy's)."""
    kept: list[str] = []
    for i, arg in enumerate(argv):
        flag, equals, _ = arg.partition("=")
        if i > 0 and _is_secret_flag(argv[i - 1]):
            kept.append(HIDDEN)
        elif equals and _is_secret_flag(flag):
            kept.append(f"{flag}={HIDDEN}")
        else:
            kept.append(without_password(arg))  # (``--db=…``, a bot's command too)
    return kept


def told_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A run row's settings as they are told (``ladder table --json --runs``): its
    ``argv`` without secrets, as rows are stored now (one stored before kept a
    PostgreSQL address's password), and a distributed run's bots' commands without an
    address's password: the row keeps them whole, its workers run them."""
    told = dict(settings)
    argv = settings.get("argv")
    if isinstance(argv, list) and all(isinstance(arg, str) for arg in argv):
        told["argv"] = without_secrets(argv)
    spec = settings.get("distributed")
    bots = spec.get("bots") if isinstance(spec, dict) else None
    if isinstance(spec, dict) and isinstance(bots, list):
        told["distributed"] = {**spec, "bots": [_bot_told(bot) for bot in bots]}
    return told


def _bot_told(bot: Any) -> Any:
    """A distributed run's ``[name, command]``, its command without a password."""
    if isinstance(bot, list) and len(bot) == 2 and isinstance(bot[1], str):
        return [bot[0], without_password(bot[1])]
    return bot


def _is_secret_flag(arg: str) -> bool:
    return len(arg) >= len(SHORTEST) and SECRET_FLAG.startswith(arg)
