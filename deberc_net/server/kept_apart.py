"""Who left whose match: matchmaking keeps a seeker apart from them for a while.

A griefer seeks, is matched, and leaves the match at once, under a fresh guest name
each time and from several addresses (a hostile tryout, s30: three addresses aborted 49
of one player's matches in 10 s; the seat allowance, allowance.py, counts names and
addresses, and a fresh name has its own). So each player keeps the last few who left a
running match of his (their name key and address, ``Left``; a seat whose connection
dropped and was not taken again before the away limit is left too: Table._abandoned)
for ``seek_apart_ms``, and
matchmaking never pairs him with one of those names, nor with an address two of them
came from (a shared address is not blamed for one leaver, nor is his own address, his
neighbours' behind one NAT: docs/protocol.md §5.5).

The memory is the victim's, never the leaver's: on his session, gone with it, so no
map grows with the names or addresses an attacker chooses. It is bounded by
addresses, not by entries: at most ``KEPT_ADDRESSES`` addresses, each with its last
``ADDRESS_NAMES`` names (that is what keeps an address apart: a third name from it
refreshes the address rather than adding to it), and ``KEPT_UNKNOWN`` names whose
address is not known; one name from one address again is that entry refreshed. A
fresh name is free and an address is not, so what is forgotten first is what the
griefer can least use: what is over, then an address one name came from, then one
kept apart, the longest ago first. A griefer with a few addresses and names without
end once pushed his own oldest entries out of a plain list of the last 8 and met the
player again (five addresses were enough); now he needs more addresses than are kept.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

from .accounts import name_key

if TYPE_CHECKING:
    from .session import Session

KEPT_ADDRESSES = 16  # the addresses of leavers a player keeps
ADDRESS_NAMES = 2  # names that left him from one address: the address is kept apart too
KEPT_UNKNOWN = 8  # names whose address is not known (an older worker's stand-in's)


@attrs.frozen
class Left:
    """One who left a player's running match: kept apart from him until ``until``."""

    name: str  # his name key
    address: str | None  # None: not known (a stand-in of an older worker's player)
    until: float  # on trio's clock


def noted(kept: tuple[Left, ...], left: Left, now: float) -> tuple[Left, ...]:
    """``kept`` with ``left`` added (the same name from the same address: refreshed,
    not twice), those over by ``now`` dropped, oldest first: at most ``ADDRESS_NAMES``
    names an address, ``KEPT_ADDRESSES`` addresses and ``KEPT_UNKNOWN`` names of no
    known address. Past that an address one name came from is forgotten before one
    kept apart (two names), the longest ago first; never for the number of entries
    alone (a griefer's fresh names are free: they must not push out his addresses)."""
    live = [k for k in kept if k.until > now and (k.name, k.address) != (left.name, left.address)]
    live.append(left)
    by_address: dict[str | None, list[Left]] = {}
    for k in live:
        by_address.setdefault(k.address, []).append(k)
    for address, names in by_address.items():  # (each oldest first)
        del names[: -(KEPT_UNKNOWN if address is None else ADDRESS_NAMES)]
    known = [a for a in by_address if a is not None]
    if len(known) > KEPT_ADDRESSES:
        # the weakest first: one name (not kept apart), then the longest ago
        known.sort(key=lambda a: (len(by_address[a]), max(k.until for k in by_address[a])))
        for address in known[: len(known) - KEPT_ADDRESSES]:
            del by_address[address]
    still = {id(k) for names in by_address.values() for k in names}
    return tuple(k for k in live if id(k) in still)


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
    # (most players: nobody left them, and nothing is worked out)
    return bool(kept) and kept_until(kept, name, address, now, own) > now


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


class Why(enum.Enum):
    """What keeps two players apart, as a seeker passed over is told it (his own part in
    it, never a name: docs/protocol.md §5.5)."""

    NAME = "name"  # one of them left the other's match
    THEIR_ADDRESS = "their-address"  # two who left his matches came from the other's address
    OWN_ADDRESS = "own-address"  # two from his own address left the other's matches


def apart_until(a: Session, b: Session | None, name: str | None, now: float) -> tuple[float, Why]:
    """Until when matchmaking keeps ``a`` apart from ``b`` (either way), or from a player
    of name key ``name`` whose session is not at hand (``b`` None: one seated and away,
    by the name alone), and by what, the last to end (``now`` or before: not apart).
    What a seeker passed over is told ("… for N min more": docs/protocol.md §5.5)."""
    ends = [(kept_until(a.left_by, name if b is None else _key(b), None, now, None), Why.NAME)]
    if b is not None:
        at_a, at_b = address_of(a), address_of(b)
        ends.append((kept_until(b.left_by, _key(a), None, now, None), Why.NAME))
        ends.append((kept_until(a.left_by, None, at_b, now, at_a), Why.THEIR_ADDRESS))
        ends.append((kept_until(b.left_by, None, at_a, now, at_b), Why.OWN_ADDRESS))
    return max(ends, key=lambda end: end[0])  # (a tie: the first, the name)


def kept_until(
    kept: tuple[Left, ...], name: str | None, address: str | None, now: float, own: str | None
) -> float:
    """``keeps_apart``'s answer as a time: until when it holds (``now``: it does not
    now).
    By the name, till its last entry ends; by an address, while two of its entries
    live: till the second latest ends."""
    live = [k for k in kept if k.until > now]
    ends = [k.until for k in live if name is not None and k.name == name]
    if address is not None and address != own:
        at = sorted(k.until for k in live if k.address == address)
        if len(at) >= ADDRESS_NAMES:
            ends.append(at[-ADDRESS_NAMES])  # (while ADDRESS_NAMES of them live)
    return max([now, *ends])


def earliest_end(sessions: Iterable[Session], now: float) -> float | None:
    """When the first of what keeps these players apart from anyone ends, if anything
    does: a seeker kept apart may be matched from then on."""
    ends = [k.until for s in sessions for k in s.left_by if k.until > now]
    return min(ends, default=None)


def _key(session: Session) -> str | None:
    return None if session.name is None else name_key(session.name)
