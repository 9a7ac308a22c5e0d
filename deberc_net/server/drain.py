"""A drain: the server restarts once its running matches are over (docs/protocol.md
§11.4a). SIGUSR1 begins it (server/running.py), or an admin's 'drain' (``ask``); from
then no new table opens ('new', 'sit', 'seek', 'rematch', 'reserve' are refused with
``shutting-down``), the tables still waiting for players close (their match never
started), everyone logged in is told once, and the running matches play on. When none
is left the server stops as on SIGTERM."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs
import trio

from deberc_net.protocol import events as ev
from deberc_net.protocol.events import TableState
from deberc_net.protocol.messages import Msg, phrase

from .table_messages import Stop

if TYPE_CHECKING:
    from .lobby import Lobby
    from .session import Session
    from .table import Table


# how long an admin's 'drain' at a draining worker waits for the parent's word: written
# before the SIGUSR1 the parent passes on, it is in the pipe already, only its reading
# thread may not have run yet (a loaded host); no word by then: this worker drains alone
PARENT_WORD_S = 0.5


class Asked(enum.Enum):
    """What an admin's 'drain' did."""

    BEGUN = "begun"  # the drain begins (under serve --workers: the parent was asked)
    ALREADY = "already"  # it was on already: nothing changes
    STOPPING = "stopping"  # the server stops already: nothing to drain


@attrs.define(eq=False)
class Drain:
    lobby: Lobby
    begun: bool = False
    # the server's drain as SIGUSR1 begins it, its log line saying which admin asked
    # (server/running.py sets it: the stop once drained); False if the server stops.
    # None (a lobby without its server): this lobby's drain alone
    whole: Callable[[str], bool] | None = None
    # under serve --workers: an admin's 'drain' here has signalled the parent
    asked_parent: bool = False

    async def heard_the_parent(self) -> None:
        """Under serve --workers, with this worker draining (a SIGUSR1 reached it): the
        parent's word that the whole server drains, given its moment to be read (its
        thread may run after the signal's handler). A ``ask`` then reads it settled."""
        node = self.lobby.node
        if node is None or not node.place.parent_pid or not self.begun:
            return
        word = node.place.parent_drains
        if not word.is_set():
            await trio.to_thread.run_sync(word.wait, PARENT_WORD_S)

    def ask(self, admin: str) -> Asked:
        """``admin``'s 'drain': the server's drain begins as SIGUSR1 begins it; under
        serve --workers the parent is signalled, which drains every worker, this one too
        (docs/scaling.md, "Processes"). Nothing changes if it is on already, or the
        server stops."""
        lobby = self.lobby
        if not lobby.accepting:
            return Asked.STOPPING
        node = lobby.node
        if node is None or not node.place.parent_pid:  # a whole server of its own
            if self.begun:
                return Asked.ALREADY
            begun = self.begin() if self.whole is None else self.whole(admin)
            return Asked.BEGUN if begun else Asked.STOPPING
        # a worker of serve --workers: its drain alone (SIGUSR1 to its pid) is no
        # drain of the server, whose every other worker then drains too. The server's
        # drain (SIGUSR1 to the parent, another admin's 'drain') is known by the
        # parent's word, not by the others' 'tables' saying they drain: those come a
        # moment after the signal, and a dead worker's never, so the parent was
        # signalled again and the admin told the drain began (already=0)
        if self.asked_parent or node.place.parent_drains.is_set():
            return Asked.ALREADY
        if not node.place.drain_the_parent(admin):  # gone: this worker stops (worker.py)
            return Asked.STOPPING
        self.asked_parent = True
        return Asked.BEGUN

    def running(self, listed: bool = False) -> int:
        """How many matches of this server are being played: its own, and under serve
        --workers those of its parent's other workers. ``listed``: those at tables
        anyone may see only (``Lobby.listed_to``: no private table, no ladder's board),
        for a count a stranger reads (/api/health), which must not tell a private
        match started or ended."""
        lobby, node = self.lobby, self.lobby.node
        own = sum(
            1
            for t in lobby.tables.values()
            if not t.remote and t.match is not None and t.state is TableState.PLAYING
            if not listed or lobby.listed_to(t, None)
        )
        return own + (node.others_playing(listed) if node is not None else 0)

    def begin(self) -> bool:
        """Begin the drain: False (and nothing done) if it has begun already, or the
        server stops already."""
        lobby = self.lobby
        if self.begun or not lobby.accepting:
            return False
        self.begun = True
        for table in list(lobby.tables.values()):
            # another worker's waiting tables are its own to close (its parent drains it
            # too: docs/scaling.md); a table that starts meanwhile plays on (Stop's unstarted)
            if not table.remote and table.state is TableState.WAITING:
                table.post(Stop(phrase(Msg.DRAIN_TABLE), unstarted=True))
        for session in list(lobby.online.values()):
            self.tell(session)
        matchmaking = lobby.matchmaking
        for seeker in list(matchmaking.seekers):  # no table will come: their wait ends
            matchmaking.forget(seeker)
            self.refused(seeker)
        lobby.rematches.drain()  # nor will a rematch's: those who asked are told
        if lobby.node is not None:  # the others hear it (worker 0's web face waits)
            lobby.node.tell_tables_now()
        return True

    def tell(self, session: Session) -> None:
        """During a drain, tell ``session`` (everyone logged in as it begins, and each
        login after) that the server restarts after the running matches."""
        if self.begun:
            session.send(ev.server_going(ev.ServerGoing.DRAINING, phrase(Msg.DRAINING)))

    def refused(self, session: Session) -> bool:
        """True, and ``session`` told, during a drain: no new table opens."""
        if not self.begun:
            return False
        session.send(ev.error("shutting-down", phrase(Msg.DRAIN_REFUSED)))
        return True

    def over(self) -> bool:
        """Whether nothing is left to play: no table of this server's own open (a
        waiting one closes as the drain begins), nobody here playing at another
        worker's (under serve --workers: his connection is this server's). A seat at
        another worker's table still waiting for players is no match to wait for (that
        worker, not draining, may wait for players for ever): the stop tells him it is
        kept (Msg.SEAT_KEPT_ELSEWHERE)."""
        lobby = self.lobby
        return not any(not t.remote for t in lobby.tables.values()) and not any(
            s.table is not None and s.table.state is not TableState.WAITING
            for s in lobby.online.values()
        )

    def playing(self) -> list[str]:
        """The running matches of this server's own, for the log."""
        return [
            t.match.match_id
            for t in self.lobby.tables.values()
            if not t.remote and t.match is not None and t.state is TableState.PLAYING
        ]

    def elsewhere(self) -> list[str]:
        """Under serve --workers, the matches at other workers' tables that players of
        this one play (what ``over`` waits for besides ``playing``), for the log: each
        match's id as its owner told it, or ``table N at worker W`` before it has (the
        drain line listed only its own matches, though it waited for these too)."""
        waited: dict[Table, None] = {}  # in order, each table once
        for session in self.lobby.online.values():
            table = session.table
            if table is not None and table.remote and table.state is not TableState.WAITING:
                waited[table] = None
        return [_named(table) for table in waited]


def _named(table: Table) -> str:
    """Another worker's table as the drain's log line names its match."""
    from .cluster.remote import RemoteTable  # (it imports the table, which imports this)

    if isinstance(table, RemoteTable):
        if table.now is not None:  # its match as its owner told it
            return table.now.match_id
        return f"table {table.id} at worker {table.owner}"
    return f"table {table.id}"
