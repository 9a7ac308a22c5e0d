"""A drain: the server restarts once its running matches are over (docs/protocol.md
§11.4a). SIGUSR1 begins it (server/running.py); from then no new table opens ('new',
'sit', 'seek', 'rematch', 'reserve' are refused with ``shutting-down``), the tables
still waiting for players close (their match never started), everyone logged in is
told once, and the running matches play on. When none is left the server stops as on
SIGTERM."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from deberc_net.protocol import events as ev
from deberc_net.protocol.events import TableState
from deberc_net.protocol.messages import Msg, phrase

from .table_messages import Stop

if TYPE_CHECKING:
    from .lobby import Lobby
    from .session import Session


@attrs.define(eq=False)
class Drain:
    lobby: Lobby
    begun: bool = False

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
            session.send(ev.info(phrase(Msg.DRAINING)))

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
