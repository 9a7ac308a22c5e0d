"""What the bus carries between workers, and how it is read back (cluster/node.py sends
and hears it): a table as the others list it, a session as its table's owner speaks to
it, a game sought, a table message forwarded to its owner, an invitation, a phrase.
Plain JSON values, each written as the bus encodes it (bus.py).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.messages import Msg, Phrase, Value

from ..house import HouseBotKind
from ..ignoring import digests
from ..matchmaking import GameSettings
from ..table_messages import (
    Away,
    Back,
    Invite,
    Leave,
    Message,
    Observe,
    Say,
    ShowHistory,
    ShowLast,
    ShowSheet,
    ShowState,
    Sit,
    SummonBot,
    TableCall,
    Unobserve,
)
from .bus import MAX_PAYLOAD
from .remote import talon_left

if TYPE_CHECKING:
    from ..session import Session
    from ..table import Table


TABLES_A_MESSAGE = 20  # at most, in one 'tables' message (fewer if they do not fit)
ENVELOPE = 64  # bytes the bus adds to a message (its serial and sender), at most


def table_described(table: Table) -> dict[str, Any]:
    """What the others are told of ``table`` (compared with what was told last, to
    tell only what changed; ``described_for_bus`` makes it ready to send)."""
    info = table.info()
    hidden = table.private or table.board is not None  # from the web face (app.py)
    return {
        "id": info.id,
        "players": info.players,
        "variant": info.variant,
        "options": list(info.options),
        "seats": list(info.seats),
        "state": str(info.state.value),
        "observers": info.observers,
        "private": table.private,
        # a private table is listed to those invited to it on any worker (lobby.py)
        "invited": sorted(table.invited) if table.private else [],
        "reserved": None if table.reserved is None else list(table.reserved),
        "board": table.board,  # a ladder's board: listed and shown nowhere, here or there
        # for the web face (docs/web.md): changes at most once a trick, not once a call;
        # not for a table it never shows (a board's, at bot speed, changes every snapshot)
        "match": None if hidden else _match_told(table),
        # the match being played, of any table (a private one's, a board's): the words
        # of a stop's close said to its players and watchers elsewhere (node.py)
        "playing": _match_playing(table),
        # described_for_bus tells; a private table's too: 'tables' names its players away to its
        # own people on every worker (docs/protocol.md §5.2)
        "away": [] if table.board is not None else sorted(table.clocks.away_since.items()),
    }


def tables_messages(
    told: list[dict[str, Any]],
    gone: list[int],
    sender: str = "",
    draining: bool = False,
    pid: int | None = None,
) -> list[dict[str, Any]]:
    """The 'tables' messages that tell ``told`` (tables as ``table_for_bus`` gives them) and
    ``gone`` (in the last): as many tables to one as fit in a notification
    (bus.MAX_PAYLOAD, counted as the bus encodes), at most TABLES_A_MESSAGE. Twenty
    four-seat tables of long Cyrillic names, told at once, were too long for one, and
    the bus dropped it whole, ``gone`` with it: the others kept those tables. Each
    names its ``sender`` (``as``: which worker of which parent, Node.identity) and
    says whether it drains (``drain``), and its process id (``pid``: Node.pids)."""
    named: dict[str, Any] = {"as": sender} if sender else {}
    if pid is not None:
        named["pid"] = pid
    if draining:  # (worker 0's web face waits for the workers that drain: running.py)
        named["drain"] = True
    head = {"k": "tables", "open": [], "gone": gone, **named}
    room = MAX_PAYLOAD - ENVELOPE - _encoded_size(head)
    messages: list[dict[str, Any]] = []
    batch: list[dict[str, Any]] = []
    used = 0
    for table in (part for whole in told for part in _in_parts(whole, room)):
        size = _encoded_size(table) + 1  # and its comma
        if batch and (used + size > room or len(batch) == TABLES_A_MESSAGE):
            messages.append({"k": "tables", "open": batch, "gone": [], **named})
            batch, used = [], 0
        batch.append(table)
        used += size
    messages.append({"k": "tables", "open": batch, "gone": gone, **named})
    return messages


def seeks_messages(seeks: list[list[Any]]) -> list[dict[str, Any]]:
    """The 'seeks' messages that tell a worker's games waited for (``seeks``: each a game
    as ``settings_for_bus`` tells it, and whether a table of it waits), in order, as many
    to one as fit in a notification: the first (``part`` 0) replaces what the others
    hold of the worker's, each later one adds to it. Told whole in every 'tables'
    message, some 30 seeks of different options (a tryout's, from one address) were
    past the bus's limit: every 'tables' message was dropped, the heartbeat with them,
    and the others took the worker for dead and closed its tables."""
    room = MAX_PAYLOAD - ENVELOPE - _encoded_size({"k": "seeks", "part": 10**6, "seeks": []})
    parts: list[list[list[Any]]] = [[]]
    used = 0
    for game in seeks:
        size = _encoded_size(game) + 1  # and its comma
        if parts[-1] and used + size > room:
            parts.append([])
            used = 0
        parts[-1].append(game)
        used += size
    return [{"k": "seeks", "part": n, "seeks": part} for n, part in enumerate(parts)]


def _in_parts(table: dict[str, Any], room: int) -> list[dict[str, Any]]:
    """A table's description as copies that each fit in ``room``: a private table's
    invitations, too many for one notification (each 'invite' adds one, for as long
    as the table lasts), spread over them, the later ones adding to the list
    (``more``). Told whole, it was dropped by the bus, and the others never listed the
    table to those invited."""
    if _encoded_size(table) + 1 <= room:
        return [table]
    bare = table | {"invited": [], "more": True}
    free = room - _encoded_size(bare) - 1
    lists: list[list[str]] = [[]]
    used = 0
    for name in table["invited"]:
        size = _encoded_size(name) + 1  # and its comma
        if lists[-1] and used + size > free:
            lists.append([])
            used = 0
        lists[-1].append(name)
        used += size
    first = table | {"invited": lists[0]}
    return [first, *(bare | {"invited": names} for names in lists[1:])]


def _encoded_size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def _match_playing(table: Table) -> str | None:
    """The id of ``table``'s match while it is being played (not over); else None."""
    match = table.match
    return None if match is None or match.over else match.match_id


def _match_told(table: Table) -> list[Any] | None:
    """The match's id, totals, deal number, and the hand sizes at the start of the trick
    being laid (the cards laid to it counted back: the sizes change once a trick); then
    its hanging points and the later sums, then a talon game's talon (None: none; each
    appended: an older worker reads the first four, the first six)."""
    match = table.match
    if match is None:
        return None
    deal = match.deal
    sizes = [len(hand) for hand in deal.hands]
    if deal.trick.winner is None:
        for seat, _ in deal.trick.cards:
            sizes[seat] += 1
    return [
        match.match_id,
        list(match.totals),
        deal.deal_no,
        sizes,
        match.hanging,
        list(match.hanging_pending),
        talon_left(match),
    ]


def table_for_bus(table: Table, held_ms: int) -> dict[str, Any]:
    """``table`` as a worker tells the others of it (``tables_messages``)."""
    return described_for_bus(table_described(table), held_ms)


def described_for_bus(described: dict[str, Any], held_ms: int) -> dict[str, Any]:
    """A table's description as sent: each away seat with the milliseconds it is still
    held (``held_ms``: the away limit). A process's clock means nothing to another, so
    not the time since which it is away."""
    now = trio.current_time()
    away = [[seat, round((since - now) * 1000) + held_ms] for seat, since in described["away"]]
    return described | {"away": away}


def who_for_bus(session: Session) -> list[Any]:
    """What the owner needs to speak to ``session`` as its own worker would."""
    connection = session.connection
    clock = None if connection.clock is None else str(connection.clock)
    return [
        session.name,
        session.guest,
        connection.style,
        str(connection.lang),
        str(connection.hand_order),
        clock,
        str(connection.tell),
    ]


def speaker_for_bus(session: Session) -> dict[str, Any]:
    """What a message for another worker tells of the session it speaks for: its
    settings (``who``), and whom its player ignores (``ign``, as digests: ignoring.py),
    only if anyone (the owner's stand-in filters by it: docs/protocol.md §5.21)."""
    told: dict[str, Any] = {"who": who_for_bus(session)}
    if session.ignored:
        told["ign"] = digests(session)
    return told


def settings_for_bus(settings: GameSettings) -> list[Any]:
    """A game as the bus tells it (``settings_from_bus`` reads it back)."""
    return [settings.players, settings.variant, list(settings.options)]


def settings_from_bus(told: list[Any]) -> GameSettings:
    players, variant, options = told
    return GameSettings(players, variant, tuple(options))


def message_for_bus(message: Message) -> dict[str, Any] | None:
    """A table message as a 'post' to its table's owner tells it (``message_from_bus``
    reads it back; an away, by name and the connection the post names, the owner reads
    itself): its kind (``m``) and its fields, not its session (the post names that).
    None for Stop and Dismiss: the owner's own business."""
    match message:
        case Sit(_, seat, seeking):
            told = None if seeking is None else settings_for_bus(seeking)
            return {"m": "sit", "seat": seat, "seeking": told}
        case Leave(session, confirmed, paid):
            # the leaver's address: those whose match he leaves are kept apart from it
            return {"m": "leave", "confirmed": confirmed, "paid": paid, "address": session.address}
        case TableCall(_, text, seq):
            return {"m": "call", "text": text, "seq": seq}
        case Observe(_, sheet):
            return {"m": "observe", "sheet": sheet}
        case Unobserve():
            return {"m": "unobserve"}
        case Back():
            return {"m": "back"}
        case ShowState():
            return {"m": "state"}
        case ShowLast():
            return {"m": "last"}
        case ShowSheet():
            return {"m": "sheet"}
        case ShowHistory():
            return {"m": "history"}
        case Say(_, text):
            return {"m": "say", "text": text}
        case Invite(_, name):
            return {"m": "invite", "name": name}
        case SummonBot(session, kind, level, rated):
            bot = {"m": "bot", "kind": str(kind), "level": level, "rated": rated}
            return bot | {"address": session.address}  # the house bots' cap per address
        case Away(name):
            return {"m": "away", "name": name}
        case _:
            return None


def message_from_bus(kind: str, proxy: Session, body: dict[str, Any]) -> Message:
    """``message_for_bus``'s message again (its kind, ``kind``), for ``proxy``: the
    stand-in here of the session that posted it (a RemoteSession on the owner: any
    Session will do, only what every one has is read or set)."""
    match kind:
        case "sit":
            told = body["seeking"]
            return Sit(proxy, body["seat"], None if told is None else settings_from_bus(told))
        case "leave":
            told_address(proxy, body)
            return Leave(proxy, body["confirmed"], body.get("paid", False))
        case "call":
            return TableCall(proxy, body["text"], body["seq"])
        case "observe":  # (an older worker's has no "sheet")
            return Observe(proxy, body.get("sheet", False))
        case "unobserve":
            return Unobserve(proxy)
        case "back":
            return Back(proxy)
        case "state":
            return ShowState(proxy)
        case "last":
            return ShowLast(proxy)
        case "sheet":
            return ShowSheet(proxy)
        case "history":
            return ShowHistory(proxy)
        case "say":
            return Say(proxy, body["text"])
        case "invite":
            return Invite(proxy, body["name"])
        case "bot":
            told_address(proxy, body)
            return SummonBot(proxy, HouseBotKind(body["kind"]), body["level"], body["rated"])
    raise ValueError(f"no such table message: {kind}")


def told_address(proxy: Session, body: dict[str, Any]) -> None:
    """The address a message of ``proxy``'s player tells (his own, not his worker's),
    if it tells one (a worker of an older version's 'leave' does not): the house bots'
    cap per address, and whom matchmaking keeps apart (kept_apart.py), count it."""
    address = body.get("address")
    if isinstance(address, str):
        proxy.address, proxy.address_told = address, True


def invited_for_bus(invited: ev.Invited) -> dict[str, Any]:
    """An invitation for a player on another worker (``invited_from_bus`` reads it)."""
    return attrs.asdict(invited, recurse=False) | {"options": list(invited.options)}


def invited_from_bus(told: dict[str, Any]) -> ev.Invited:
    return ev.Invited(
        told["sender"],
        told["table"],
        told["players"],
        told["variant"],
        tuple(told["options"]),
        told["private"],
    )


def phrase_for_bus(said: Phrase) -> dict[str, Any]:
    """A phrase as JSON for the bus: its key and values (a phrase among them nested)."""
    return {"key": str(said.key.value), "values": [[k, _value_for_bus(v)] for k, v in said.values]}


def _value_for_bus(value: Value) -> Any:
    if isinstance(value, Phrase):
        return {"phrase": phrase_for_bus(value)}
    if isinstance(value, tuple):
        return [_value_for_bus(v) for v in value]
    return value


def phrase_from_bus(told: dict[str, Any]) -> Phrase:
    """``phrase_for_bus``'s phrase again."""
    return Phrase(Msg(told["key"]), tuple((k, _value_from_bus(v)) for k, v in told["values"]))


def _value_from_bus(told: Any) -> Any:
    if isinstance(told, dict):
        return phrase_from_bus(told["phrase"])
    if isinstance(told, list):
        return tuple(_value_from_bus(v) for v in told)
    return told
