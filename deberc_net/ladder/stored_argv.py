"""A ladder run's command line as its run row keeps it (``ladder_runs.settings``):
without the admin's password, which the row would hand to every copy of the database
(docs/bots.md). A migration hides it in rows stored before (store/migrations.py 10).
Nor the password of a PostgreSQL address (``--db postgresql://USER:PASSWORD@HOST/DB``,
or its ``?password=``): the row kept it whole, and ``ladder table --json --runs``
printed it; a row stored before is told without it (``told_settings``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

SECRET_FLAG = "--admin-password"
# argparse takes any unambiguous start of a flag for it ('--admin-pass P', '--ad=P'):
# '--ad' is the shortest ('--a' is '--away-ms' too, which argparse refuses)
SHORTEST = "--ad"
HIDDEN = "***"
# a PostgreSQL address's password, anywhere in an argument (``--db=…``, a bot's command
# too): in its user part, as libpq reads one (up to the first '@', none if a '/' comes
# first), and as a ``password=`` parameter of its query
_ADDRESS = re.compile(r"postgres(?:ql)?://\S*")
_USER_PASSWORD = re.compile(r"^([^:/@]*://[^:/@]*:)[^/@]*(?=@)")
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*")


def without_secrets(argv: Sequence[str]) -> list[str]:
    """``argv`` with the value of every ``--admin-password`` (``… P`` or ``…=P``, the flag
    spelled out or abbreviated as argparse takes it) hidden, and the password of every
    PostgreSQL address in it (``--db``'s, or one in a bot's command)."""
    kept: list[str] = []
    for i, arg in enumerate(argv):
        flag, equals, _ = arg.partition("=")
        if i > 0 and _is_secret_flag(argv[i - 1]):
            kept.append(HIDDEN)
        elif equals and _is_secret_flag(flag):
            kept.append(f"{flag}={HIDDEN}")
        else:
            kept.append(_address_hidden(arg))
    return kept


def told_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A run row's settings as they are told (``ladder table --json --runs``): its
    ``argv`` without secrets, as rows are stored now (one stored before kept a
    PostgreSQL address's password)."""
    argv = settings.get("argv")
    if not isinstance(argv, list) or not all(isinstance(arg, str) for arg in argv):
        return settings
    return {**settings, "argv": without_secrets(argv)}


def _address_hidden(arg: str) -> str:
    """``arg`` with the password of every PostgreSQL address in it hidden."""
    if "://" not in arg:  # (most arguments: no address)
        return arg
    return _ADDRESS.sub(_hidden_in, arg)


def _hidden_in(address: re.Match[str]) -> str:
    told = _USER_PASSWORD.sub(rf"\g<1>{HIDDEN}", address.group())
    return _QUERY_PASSWORD.sub(rf"\g<1>{HIDDEN}", told)


def _is_secret_flag(arg: str) -> bool:
    return len(arg) >= len(SHORTEST) and SECRET_FLAG.startswith(arg)
