"""The chat allowance: 'say' and 'invite' put lines on others' screens, so they share
one rate limit per sender, and one per address that all its connections share
(``limits.SharedBucket``: docs/security.md §3). Spent only once a line is sure to
go out: a refused one costs nothing. Under --workers the allowance is the player's
connection's, on his own worker: an 'invite' at another worker's table spends it there,
before it goes (a refusal of that table's then costs one too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from deberc_net.protocol import events as ev

if TYPE_CHECKING:
    from .session import Session


def may_talk(session: Session) -> bool:
    """Spend one of ``session``'s lines to others; if none is left, say so and refuse."""
    if session.says.take(trio.current_time()):
        return True
    session.send(ev.Error("slow-down", "too many 'say' and 'invite' at once: wait a little"))
    return False
