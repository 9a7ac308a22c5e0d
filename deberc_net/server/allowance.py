"""The chat allowance: 'say' and 'invite' put lines on others' screens, so they share
one rate limit per sender, and one per address that all its connections share
(``limits.SharedBucket``: docs/security.md §3). Spent only once a line is sure to
go out: a refused one costs nothing. Under --workers the allowance is the player's
connection's, on his own worker: an 'invite' at another worker's table spends it there,
before it goes (a refusal of that table's then costs one too).

The seat allowance: 'sit' and 'leave' at a table that waits for players put a
'seated' and a 'left' line on its players' screens, so taking a seat ('sit', 'seek',
'new') is refused once a connection, or its address, has given up too many seats at
waiting tables lately (docs/security.md §6).

The lists allowance: a long text for a short line ('who', 'help', 'rules',
'history', …) spends one of the connection's lists (docs/security.md §2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, phrase

if TYPE_CHECKING:
    from .session import Session


def may_sit(session: Session) -> bool:
    """Whether ``session`` may take a seat ('sit', 'seek', 'new'); if not, say so. Only
    checked here: a seat is paid for when it is given up at a waiting table
    (``seat_given_up``), so a bot that seeks after every match never pays at all."""
    if session.seat_churn.ready(trio.current_time()):
        return True
    session.send(ev.error("slow-down", phrase(Msg.SLOW_SEATS)))
    return False


def seat_given_up(session: Session) -> None:
    """``session`` leaves a seat at a table that waits for players: its 'seated' and
    its 'left' went to the others there, so it spends one of its seats."""
    session.seat_churn.take(trio.current_time())


def may_talk(session: Session) -> bool:
    """Spend one of ``session``'s lines to others; if none is left, say so and refuse."""
    if session.says.take(trio.current_time()):
        return True
    session.send(ev.error("slow-down", phrase(Msg.SLOW_TALK)))
    return False


def may_list(session: Session, command: str, admin: bool) -> bool:
    """Spend one of ``session``'s lists for ``command`` (a long text for a short line);
    if none is left, say so and refuse. Admins are not counted."""
    if admin or session.lists.take(trio.current_time()):
        return True
    session.send(ev.error("slow-down", phrase(Msg.SLOW_LISTS, command=command)))
    return False
