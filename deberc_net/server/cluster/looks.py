"""An unknown table's number under ``serve --workers``: looked for a moment before it is
refused. Another worker's new table is told here within SNAPSHOT_S (node.py), so a
``sit T`` (or 'observe', 'unobserve', 'rules', the web's /table/T) just after ``new``
on another worker or host found no table T here: 'there is no table T' (a tryout, s44;
docs/scaling.md, "A table just opened elsewhere"). Table numbers are drawn from the
store by every worker alike: a number does not say its worker, so its copy is waited for,
at most LOOK_S, and the command answered then. A number above the highest the store has
ever drawn (``Store.highest_table_number``) is no table and none on its way: refused at
once, not after LOOK_S (a client that sent ``observe 999999`` in a loop held a look,
of LOOKS_MOST, half a second a line, s45). A table known here that the asker may not
see (another's private table: docs/protocol.md §5.3) is looked for as a number no table
has, the same read and the same wait, so that the answer's time does not tell it is
there either (it went at once, a number drawn and no table's after LOOK_S: a hostile
pass, s45)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs
import structlog
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.commands import Command, for_log, number_word

if TYPE_CHECKING:
    from ..lobby import Lobby
    from ..session import Session
    from ..table import Table

log = structlog.get_logger("deberc.tables")
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
    # the numbers of tables known here looked for by those who may not see them (how
    # many looks each): waited for as LOOK_S, not for their copies (``table_soon``)
    feigned: Counter[int] = attrs.Factory(Counter)
    # the highest table number known drawn from the store, by any worker (raised by
    # this worker's own draws and by each read of the store's: ``_drawn_since``)
    drawn: int = 0
    # the store's reads started, and the latest started of those that have ended: a
    # read started after a look began answers for it (every number it may name was
    # drawn before it was typed)
    _started: int = 0
    _ended: int = 0
    _reading: trio.Lock = attrs.Factory(trio.Lock)

    def came(self, table_id: int) -> None:
        """A copy of table ``table_id`` came (node.py ``_table_copy``)."""
        event = self.waits.pop(table_id, None)
        if event is not None:
            event.set()

    async def table_soon(
        self, lobby: Lobby, table_id: int, seen: Callable[[Table], bool] = lambda _: True
    ) -> Table | None:
        """Table ``table_id`` as known here, after looking for it up to LOOK_S if it is
        not (and another worker lives to tell it); None if it has not come. One known
        or come that the asker may not see (``seen`` false: another's private table)
        is None after the whole of LOOK_S, as a number no table has: its copies (each
        change told within SNAPSHOT_S) are not waited for, nor end the wait."""
        table = lobby.tables.get(table_id)
        node = lobby.node
        if node is None or not node.heard or (table is not None and seen(table)):
            return table
        if not await self.may_be_drawn(lobby, table_id):
            return None  # never drawn: nothing to wait for
        deadline = trio.current_time() + LOOK_S
        table = lobby.tables.get(table_id)
        if table is not None and seen(table):
            return table  # (its copy came while the store was read)
        looked = table_id in self.waits or table_id in self.feigned  # (shared)
        if not looked and len(self.waits) + len(self.feigned) >= LOOKS_MOST:
            return None  # bounded: refused at once past that
        if table is not None:  # known, not to be seen: waited for as a number unknown
            self.feigned[table_id] += 1
            try:
                await trio.sleep_until(deadline)
            finally:
                self.feigned[table_id] -= 1
                if not self.feigned[table_id]:
                    del self.feigned[table_id]
            return None
        event = self.waits.setdefault(table_id, trio.Event())
        with trio.move_on_at(deadline):
            await event.wait()
        if self.waits.get(table_id) is event:  # not come: the next look waits anew
            del self.waits[table_id]
        table = lobby.tables.get(table_id)
        if table is not None and seen(table):
            return table
        await trio.sleep_until(deadline)  # come, not to be seen: as if it had not
        return None

    async def may_be_drawn(self, lobby: Lobby, table_id: int) -> bool:
        """Whether ``table_id`` may be a table's of some worker: not above the highest
        number drawn from the store (read again for a number above the last known, by
        a read started after this call began); True if the store does not answer."""
        self.drawn = max(self.drawn, lobby.table_numbers.highest)
        if table_id <= self.drawn:
            return True
        try:
            await self._drawn_since(lobby, self._started)
        except Exception:  # (the database away: the worker stops soon) as before, a look
            log.exception("table_numbers_failed", reading=True)
            return True
        return table_id <= self.drawn

    async def _drawn_since(self, lobby: Lobby, started: int) -> None:
        """``drawn`` as read from the store by a read started after ``started`` reads
        had: one such that ended while this waited for its turn is taken as it is, so
        many looks at once (a flood of them) cost the store a read or two, not one each."""
        async with self._reading:
            if self._ended > started:
                return
            self._started += 1
            mine = self._started
            highest = await trio.to_thread.run_sync(lobby.store.highest_table_number)
            self.drawn = max(self.drawn, highest)
            self._ended = mine


def unknown_named(lobby: Lobby, session: Session, item: Command) -> int | None:
    """The table number ``item`` names that is no table here but may be another
    worker's on its way, or one ``session`` may not see (to be looked for before the
    command is handled, the same as the other: ``Looks.table_soon``); None if the
    command names none, names one known here and not hidden from it, or none can come
    (no other worker)."""
    node = lobby.node
    most = NAMING.get(item.name)
    if node is None or most is None or not node.heard:
        return None
    if not most[0] <= len(item.args) <= most[1]:
        return None  # its usage error at once
    number = number_word(item.args[0])
    if number is None or any(number_word(a) is None for a in item.args[1:]):
        return None
    table = lobby.tables.get(number)
    if table is not None and not lobby.hidden_from(table, session):
        return None
    if item.name == "sit" and session.table is not None:  # 'already-seated' at once
        return None
    return number


async def handled_after_look(lobby: Lobby, session: Session, item: Command, number: int) -> None:
    """Handle ``item`` once table ``number`` came, or LOOK_S went by: its answer
    (the table's, or 'there is no table'), then the session's next line, which waited
    for it (``requests_waiting``, as for a table's answer: docs/protocol.md §2.3)."""
    assert lobby.node is not None

    def seen(table: Table) -> bool:
        return not lobby.hidden_from(table, session)

    try:
        await lobby.node.looks.table_soon(lobby, number, seen)
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
    looked for first under serve --workers (``Looks.table_soon``); a private table or a
    ladder's board, not shown there, looked for as a number no table has (None then:
    a board was found at once, and its 404's time told it was there)."""
    if lobby.node is None:
        return lobby.tables.get(table_id)
    return await lobby.node.looks.table_soon(lobby, table_id, _shown_on_the_web)


def _shown_on_the_web(table: Table) -> bool:
    return not table.private and table.board is None
