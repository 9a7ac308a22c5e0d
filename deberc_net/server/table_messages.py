"""The messages a table's inbox takes (server/table.py handles them, one at a time).

What a client asks of a table (a call, 'state', 'say', 'sit', 'leave', 'observe', ...)
and what the server posts to one on its own (a seek's seating, away and back, stop):
each a frozen attrs class, ``Message`` their union.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import attrs

from deberc_net.protocol.messages import Phrase

from .session import Session

if TYPE_CHECKING:
    from .house import HouseBotKind
    from .matchmaking import GameSettings


@attrs.frozen
class Sit:
    session: Session
    seat: int | None
    # matchmaking seats a seeker at a waiting table: refused (the seat went to someone
    # posted just before), the seeker waits again for this game instead of an error
    seeking: GameSettings | None = None
    # posted by matchmaking: the table counts it as a seat taken until it is handled
    # (Table.promised)
    promised: bool = False
    # the game the seeker sought, posted by matchmaking: kept with his seat, his seek is
    # his again if another leaves the match before its first deal ended (kept_apart.py)
    sought: GameSettings | None = None


@attrs.frozen
class Leave:
    session: Session
    confirmed: bool = False  # 'leave!': no question asked
    # a seat of the seat allowance spent for it already: the lobby saw the table waiting
    # (its match may start before the table reads this: not charged twice, a review s29)
    paid: bool = False


@attrs.frozen
class TableCall:
    session: Session
    text: str
    seq: int | None


@attrs.frozen
class Observe:
    session: Session
    # a web page: the score sheet too, after the state in the same step, so that its
    # deals' list is whole with no deal-end between (docs/web.md)
    sheet: bool = False


@attrs.frozen
class Unobserve:
    session: Session


@attrs.frozen
class Away:
    name: str
    # the connection whose loss this tells, when it may have been replaced before the
    # table reads it (a dead worker's stand-in, forgotten after its player logged in
    # again; another worker's connection, its drop told over the bus behind his login
    # here): no away if the name's session then is another, live and back here
    went: Session | None = None
    # when the connection dropped, by this process's clock (trio.current_time): the
    # deal it dropped in is the one running then, not when the table reads this (a
    # deal may end between); None: when the table reads it (another worker's drop,
    # whose clock is not this one's)
    at: float | None = None


@attrs.frozen
class Back:
    session: Session


@attrs.frozen
class ShowState:
    session: Session


@attrs.frozen
class ShowLast:
    session: Session


@attrs.frozen
class ShowSheet:
    session: Session


@attrs.frozen
class ShowHistory:
    session: Session


@attrs.frozen
class Say:
    session: Session
    text: str


@attrs.frozen
class Invite:
    """A seated player lets ``name`` sit at (and watch) the table: a private table's
    only way in."""

    session: Session
    name: str


@attrs.frozen
class SummonBot:
    """'bot KIND [LEVEL]': a seated player asks for a house bot (server/house.py)."""

    session: Session
    kind: HouseBotKind
    level: int | None
    rated: bool = False  # 'bot KIND rated': the match is rated, the bot too


@attrs.frozen
class Dismiss:
    """A house bot that cannot go on gives its seat up (a running match is forfeited)."""

    name: str


class Closure(StrEnum):
    """Why a table closed: the ``reason`` of its ``table_closed`` log line
    (docs/settings.md, "Logs"), so that an operator can tell why from the log alone."""

    MATCH_OVER = "match-over"  # its match ended (its match_end line says how)
    LEFT = "left"  # its last player (house bots aside) left it before a match began
    NOBODY_SAT = "nobody-sat"  # opened, and nobody ever sat at it
    DESERTED = "deserted"  # its players all away from the server past empty_table_ms
    DRAIN = "drain"  # a drain closes the tables waiting for players
    SHUTDOWN = "shutdown"  # the server stops (a match cut: matches_stopped says which)
    FAILED = "failed"  # a bug (table_error before it)
    CANCELLED = "cancelled"  # its task ended before it closed (the server's tasks ended)


@attrs.frozen
class Stop:
    reason: str | Phrase
    # a drain's (server/drain.py): only a table still waiting for players closes; one
    # whose match started meanwhile plays on
    unstarted: bool = False


Message = (
    Sit
    | Leave
    | TableCall
    | Observe
    | Unobserve
    | Away
    | Back
    | ShowState
    | ShowLast
    | ShowSheet
    | ShowHistory
    | Say
    | Invite
    | SummonBot
    | Dismiss
    | Stop
)
# What a client asks for itself (a call, 'state', 'say', 'sit', 'leave', 'observe', ...)
# is a request: each session may have only a few waiting. What the server posts on its
# own (a seek's seating, away and back, stop) is control, and never refused. So the
# inbox holds at most a few messages per connection, and nobody can crowd out another.
Posted = tuple[Message, bool]  # the message, and whether it counts as its session's request


def requester_of(message: Message) -> Session | None:
    """The session ``message`` speaks for, whose request it may be (None: Away, Dismiss
    and Stop carry none, and are never a request)."""
    return None if isinstance(message, Away | Stop | Dismiss) else message.session
