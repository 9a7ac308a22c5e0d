"""A server's own stall (its process stopped, SIGSTOP or Ctrl-Z, its machine paused or
swapping, its loop held), measured by a look that comes late, counts against none of its
players: what counts time for them moves by it (docs/scaling.md, "A worker's own
stall", which says a lone server's too). A lone server looks every ``LOOK_S``
(``Lobby.stall``, started by server/running.py) and moves its tables' clocks; a worker
of ``serve --workers`` looks as it watches the living (cluster/node.py), and moves what
it holds for the others too."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs
import structlog
import trio

if TYPE_CHECKING:
    from .lobby import Lobby

log = structlog.get_logger("deberc.server")
LOOK_S = 0.25  # a lone server's look: a stall is missed by this much at most
OWN_STALL_S = 0.25  # a look later than this is a stall, past a loop's usual lateness


@attrs.define
class StallWatch:
    """A look every ``look_s``, and how late it came: ``stalled`` is called with that
    (seconds, once for each stall) as the look wakes, or as a table about to act on its
    clock asks first (``check``), whichever runs first as the server runs again (a
    table woken first forfeited a seat away through the stall before the look came)."""

    look_s: float
    stalled: Callable[[float], None]
    looked: float | None = None  # when the look last began (trio's clock); None: no look

    def check(self) -> None:
        """If the server has just stalled (its look is late): ``stalled``, once."""
        if self.looked is None:  # (not looking: a lobby a test made)
            return
        now = trio.current_time()
        late = now - self.looked - self.look_s
        if late > 0:
            self.looked = now - self.look_s  # (counted once)
            self.stalled(late)

    async def look(self) -> None:
        """A lone server's look, for as long as it runs."""
        while True:
            self.looked = trio.current_time()
            await trio.sleep(self.look_s)
            self.check()


def lone_server_watch(lobby: Lobby) -> StallWatch:
    """The look of a lone server (no ``--workers``): its tables' clocks move by its own
    stall. Before (s50), only a worker's did: a lone server stopped past the away limit
    forfeited the seats away as it ran again, its player's login with his token, sent
    during the stall, read a moment after."""

    def stalled(seconds: float) -> None:
        if seconds < OWN_STALL_S:
            return
        log.info("server_stalled", seconds=round(seconds, 3))
        tables_stalled(lobby, seconds)

    return StallWatch(LOOK_S, stalled)


def tables_stalled(lobby: Lobby, seconds: float) -> None:
    """Each table's clocks (the away limit of a seat whose player dropped; the time of
    the seat asked, a bot's as a person's; a waiting table's ``empty_table_ms`` once all
    its players are away) move by the server's own stall of ``seconds``."""
    for table in list(lobby.tables.values()):
        table.clocks.stalled(seconds)
