"""A table's seats in the ops log (docs/settings.md, "Logs"): who took a seat, who left
it and why, who went away from it and came back. ``match_start`` names the players of a
match only; a table that closed before its match began could not say who sat there.

A line a seat event (a sit, a leave, a drop), never one a call: a player's own lines
carry his connection's ``conn``, ``peer`` and ``name`` (``Session.log``), as ``said``'s
do; one whose connection is gone (away, away too long) is named by the table."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

import structlog

if TYPE_CHECKING:
    from .session import Session

log = structlog.get_logger("deberc.table")


class SeatLeft(enum.StrEnum):
    """Why a seat was given up (the ``reason`` of a ``seat_left`` line)."""

    LEFT = "left"  # its player's 'leave' (in a running match: its forfeit follows)
    AWAY_TOO_LONG = "away-too-long"  # away from a waiting table past the away limit
    AWAY_FORFEIT = "away-forfeit"  # away from its match past the away limit: it forfeits
    GAVE_UP = "gave-up"  # a house bot that never came, or kept failing


def seat_taken(session: Session, table: int, seat: int) -> None:
    session.log.info("seat_taken", table=table, seat=seat, guest=session.guest)


def seat_left(session: Session | None, table: int, seat: int, name: str, why: SeatLeft) -> None:
    """``session``: the leaver's connection, if he has one here."""
    leaver_log = session.log if session is not None else log
    leaver_log.info("seat_left", table=table, seat=seat, name=name, reason=str(why))


def went_away(table: int, seat: int, name: str) -> None:
    """Its player's connection is gone (dropped, or logged in nowhere): the seat is held."""
    log.info("away", table=table, seat=seat, name=name)


def came_back(session: Session, table: int, seat: int, was_away: bool) -> None:
    """``was_away``: False for a login that took the seat over from its own connection,
    still open (no ``away`` came before it)."""
    session.log.info("back", table=table, seat=seat, was_away=was_away)
