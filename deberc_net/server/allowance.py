"""The chat allowance: 'say' and 'invite' put lines on others' screens, so they share
one rate limit per sender, and one per address that all its connections share
(``limits.SharedBucket``: docs/security.md §3). Spent only once a line is sure to
go out: a refused one costs nothing. Under --workers the allowance is the player's
connection's, on his own worker: an 'invite' at another worker's table spends it there,
before it goes (a refusal of that table's then costs one too).

The seat allowance: 'sit' and 'leave' at a table that waits for players put a
'seated' and a 'left' line on its players' screens, so taking a seat ('sit', 'seek',
'new') is refused once a connection, its name or its address has given up too many
seats at waiting tables lately (docs/security.md §6). Leaving a running match of one's
own choosing ('leave', 'leave!': a forfeit) costs a seat too: it spoils the others'
match (a tryout's 'seek'/'leave!' loop aborted 50 of one player's matches in 10 s).
The name's part is kept after its connections close, as the address's is, so logging
in again gives none back.

The lists allowance: a long text for a short line ('who', 'help', 'rules',
'history', …), a look in the store ('finger', 'top'), and a change of an ignore list
(a write to the store: ignoring.py) spend one of the connection's lists
(docs/security.md §2).

The chat and lists allowances of a connection are its name's too, once logged in,
kept after it closes as the seats' are: behind one NAT (docs/security.md, "Many people
behind one address") a noisy housemate who logs in again gets none of the shared
address's allowance back to spend. A name's buckets are made when it first spends one
(as its seats' are): an idle player's name holds none (a bucket made at login would
be full until then, as one made later is)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg

from .accounts import name_key
from .limits import AddressBuckets, Bucket

if TYPE_CHECKING:
    from .lobby import Lobby
    from .session import Session


def may_sit(lobby: Lobby, session: Session) -> bool:
    """Whether ``session`` may take a seat ('sit', 'seek', 'new'); if not, say so. Only
    checked here: a seat is paid for when it is given up at a waiting table
    (``seat_given_up``) or a running match is left (``match_left``), so a bot that
    seeks after every match it plays to its end never pays at all."""
    now = trio.current_time()
    name = _name_churn(lobby, session, now)
    churn = session.buckets()[2]
    if churn.ready(now) and (name is None or name.ready(now)):
        return True
    # the refusal's wait: until the connection's, its address's and its name's all
    # have a seat (docs/protocol.md §10)
    wait = churn.wait(now)
    if name is not None:
        wait = max(wait, name.wait(now))
    session.send(ev.slow_down(Msg.SLOW_SEATS, wait))
    return False


def seat_given_up(lobby: Lobby, session: Session) -> None:
    """``session`` leaves a seat at a table that waits for players: its 'seated' and
    its 'left' went to the others there, so it spends one of its seats."""
    now = trio.current_time()
    session.buckets()[2].take(now)
    name = _name_churn(lobby, session, now)
    if name is not None:
        name.take(now)


def match_left(lobby: Lobby, session: Session) -> None:
    """``session`` forfeits a running match by its own 'leave' (or 'leave!'): the
    others' match is over, so it spends a seat as a seat given up at a waiting table
    does. (A forfeit of a seat away too long, or on time, is free: the connection
    whose allowance it would be is gone; matchmaking counts a seat dropped so,
    kept_apart.py.)
    A player of another worker is charged there, where his next seat is asked for."""
    from .cluster.remote import RemoteSession  # (it imports the table, which imports this)

    if isinstance(session, RemoteSession):
        session.node.tell_seat_spent(session)
        return
    seat_given_up(lobby, session)


def _name_churn(lobby: Lobby, session: Session, now: float) -> Bucket | None:
    """The seat allowance of ``session``'s name (None before it has one)."""
    if session.name is None:
        return None
    return lobby.name_churn.of(name_key(session.name), now, lobby.online)


def _name_bucket(
    lobby: Lobby, buckets: AddressBuckets, session: Session, now: float
) -> Bucket | None:
    """``session``'s name's bucket among ``buckets`` (its chat's or lists'), made now if
    it has none yet; None for a connection not logged in here (a player of another
    worker's stand-in spends his on his own worker)."""
    if session.name is None or session.remote:
        return None
    return buckets.of(name_key(session.name), now, lobby.online)


def _spend(own: Bucket, name: Bucket | None, now: float) -> bool:
    """One token of the connection's (and its address's) and of its name's, or none
    of either."""
    if name is not None and not name.ready(now):
        return False
    if not own.take(now):
        return False
    if name is not None:
        name.take(now)
    return True


def _wait(own: Bucket, name: Bucket | None, now: float) -> float:
    """Until both have a token: the longer of their waits."""
    return max(own.wait(now), 0.0 if name is None else name.wait(now))


def may_talk(lobby: Lobby, session: Session) -> bool:
    """Spend one of ``session``'s lines to others; if none is left, say so and refuse."""
    now = trio.current_time()
    name = _name_bucket(lobby, lobby.name_says, session, now)
    says = session.buckets()[0]
    if _spend(says, name, now):
        return True
    session.send(ev.slow_down(Msg.SLOW_TALK, _wait(says, name, now)))
    return False


def may_list(lobby: Lobby, session: Session, command: str, admin: bool) -> bool:
    """Spend one of ``session``'s lists for ``command`` (a long text for a short line);
    if none is left, say so and refuse. Admins are not counted."""
    if admin:
        return True
    now = trio.current_time()
    name = _name_bucket(lobby, lobby.name_lists, session, now)
    lists = session.buckets()[1]
    if _spend(lists, name, now):
        return True
    wait = _wait(lists, name, now)
    session.send(ev.lists_slow_down(command, wait))
    return False
