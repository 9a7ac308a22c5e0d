"""Who left whose match: matchmaking keeps a seeker apart from them for a while.

A griefer seeks, is matched, and leaves the match at once, under a fresh guest name
each time and from several addresses (a hostile tryout, s30: three addresses aborted 49
of one player's matches in 10 s; the seat allowance, allowance.py, counts names and
addresses, and a fresh name has its own). So each player keeps the last few who left a
running match of his (their name key and address, ``Left``) for ``seek_apart_ms``, and
matchmaking never pairs him with one of those names, nor with an address two of them
came from (a shared address is not blamed for one leaver, nor is his own address, his
neighbours' behind one NAT: docs/protocol.md §5.5).

The memory is the victim's, never the leaver's: ``KEPT`` entries on his session, gone
with it, so no map grows with the names or addresses an attacker chooses.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

from .accounts import name_key

if TYPE_CHECKING:
    from .session import Session

KEPT = 8  # the leavers a player keeps: the oldest goes when a ninth leaves him
ADDRESS_NAMES = 2  # names that left him from one address: the address is kept apart too


@attrs.frozen
class Left:
    """One who left a player's running match: kept apart from him until ``until``."""

    name: str  # his name key
    address: str | None  # None: not known (a stand-in of an older worker's player)
    until: float  # on trio's clock


def noted(kept: tuple[Left, ...], left: Left, now: float) -> tuple[Left, ...]:
    """``kept`` with ``left`` added, those over by ``now`` dropped, at most ``KEPT``."""
    return (*(k for k in kept if k.until > now), left)[-KEPT:]


def address_of(session: Session) -> str | None:
    """The address a player comes from, if known here: a stand-in for another worker's
    player knows it only once a message of his told it (server/cluster/payloads.py)."""
    return session.address if session.address_told else None


def keeps_apart(
    kept: tuple[Left, ...], name: str | None, address: str | None, now: float, own: str | None
) -> bool:
    """Whether one with ``kept``, from address ``own``, is kept apart from a player of
    name key ``name`` from ``address``: never by his own address (his neighbours behind
    one NAT are not blamed for one of them)."""
    if not kept:  # (most players: nobody left them)
        return False
    live = [k for k in kept if k.until > now]
    if name is not None and any(k.name == name for k in live):
        return True
    if address is None or address == own:
        return False
    return sum(k.address == address for k in live) >= ADDRESS_NAMES


def apart(a: Session, b: Session, now: float) -> bool:
    """Whether matchmaking keeps ``a`` and ``b`` apart (either left the other's match)."""
    if not a.left_by and not b.left_by:
        return False
    at_a, at_b = address_of(a), address_of(b)
    return keeps_apart(a.left_by, _key(b), at_b, now, at_a) or keeps_apart(
        b.left_by, _key(a), at_a, now, at_b
    )


def apart_from_names(a: Session, names: Iterable[str], now: float) -> bool:
    """Whether ``a`` is kept apart from a player of one of the name keys ``names`` whose
    session is not at hand (one seated and away): by the name alone."""
    return any(keeps_apart(a.left_by, name, None, now, None) for name in names)


def earliest_end(sessions: Iterable[Session], now: float) -> float | None:
    """When the first of what keeps these players apart from anyone ends, if anything
    does: a seeker kept apart may be matched from then on."""
    ends = [k.until for s in sessions for k in s.left_by if k.until > now]
    return min(ends, default=None)


def _key(session: Session) -> str | None:
    return None if session.name is None else name_key(session.name)
