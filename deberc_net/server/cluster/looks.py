"""An unknown table's number under ``serve --workers``: looked for a moment before it is
refused. Another worker's new table is told here within SNAPSHOT_S (node.py), so a
``sit T`` (or 'observe', 'unobserve', 'rules', the web's /table/T) just after ``new``
on another worker or host found no table T here: 'there is no table T' (a tryout, s44;
docs/scaling.md, "A table just opened elsewhere"). Table numbers are drawn from the
store by every worker alike: a number does not say its worker, so its copy is waited for,
at most LOOK_S, and the command answered then."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, for_log, number_word

if TYPE_CHECKING:
    from ..lobby import Lobby
    from ..session import Session
    from ..table import Table

SNAPSHOT_S = 0.25  # a changed table is told to the others within this
# how long an unknown number is looked for: a snapshot's period and as much again for
# the bus and a busy worker (the table opened before its number was known anywhere)
LOOK_S = 2 * SNAPSHOT_S
LOOKS_MOST = 256  # numbers looked for at once (sessions, one each, and pages): then none
# the commands whose first word names a table, and how many words each takes
NAMING = {"sit": (1, 2), "observe": (1, 1), "unobserve": (1, 1), "rules": (1, 1)}


@attrs.define
class Looks:
    """The numbers looked for now, each with the event its copy's coming sets."""

    waits: dict[int, trio.Event] = attrs.Factory(dict)

    def came(self, table_id: int) -> None:
        """A copy of table ``table_id`` came (node.py ``_table_copy``)."""
        event = self.waits.pop(table_id, None)
        if event is not None:
            event.set()

    async def table_soon(self, lobby: Lobby, table_id: int) -> Table | None:
        """Table ``table_id`` as known here, after looking for it up to LOOK_S if it is
        not (and another worker lives to tell it); None if it has not come."""
        table = lobby.tables.get(table_id)
        node = lobby.node
        if table is not None or node is None or not node.heard:
            return table
        event = self.waits.get(table_id)
        if event is None:
            if len(self.waits) >= LOOKS_MOST:  # bounded: refused at once past that
                return None
            event = self.waits[table_id] = trio.Event()
        with trio.move_on_after(LOOK_S):
            await event.wait()
        if self.waits.get(table_id) is event:  # not come: the next look waits anew
            del self.waits[table_id]
        return lobby.tables.get(table_id)


def unknown_named(lobby: Lobby, session: Session, item: Command) -> int | None:
    """The table number ``item`` names that is no table here but may be another
    worker's on its way (to be looked for before the command is handled); None if the
    command names none, names one known here, or none can come (no other worker)."""
    node = lobby.node
    most = NAMING.get(item.name)
    if node is None or most is None or not node.heard:
        return None
    if not most[0] <= len(item.args) <= most[1]:
        return None  # its usage error at once
    numbers = [number_word(a) for a in item.args]
    if any(n is None for n in numbers):
        return None
    number = numbers[0]
    if number is None or number in lobby.tables:
        return None
    if item.name == "sit" and session.table is not None:  # 'already-seated' at once
        return None
    return number


async def handled_after_look(lobby: Lobby, session: Session, item: Command, number: int) -> None:
    """Handle ``item`` once table ``number`` came, or LOOK_S went by: its answer
    (the table's, or 'there is no table'), then the session's next line, which waited
    for it (``requests_waiting``, as for a table's answer: docs/protocol.md §2.3)."""
    assert lobby.node is not None
    try:
        await lobby.node.looks.table_soon(lobby, number)
        if not session.connection.closed:  # gone meanwhile: nothing to seat or tell
            await lobby.handlers[item.name](session, item)
    except Exception:
        # (as running.py logs a command's failure: a bug costs an error, not the link)
        session.log.exception("command_error", item=for_log(item))
        session.send(ev.Error("internal", "the server could not do that; sorry"))
    finally:
        session.request_handled()


async def table_looked_up(lobby: Lobby, table_id: int) -> Table | None:
    """Table ``table_id`` for the web (/table/T, its live socket): known here, or
    looked for first under serve --workers (``Looks.table_soon``)."""
    if lobby.node is None:
        return lobby.tables.get(table_id)
    return await lobby.node.looks.table_soon(lobby, table_id)
