"""A server's own stall (its process stopped, SIGSTOP or Ctrl-Z, its machine paused or
swapping, its loop held), measured by a look that comes late, counts against none of its
players: what counts time for them moves by it (docs/scaling.md, "A worker's own
stall", which says a lone server's too). A worker of ``serve --workers`` looks as it
watches the living (cluster/node.py), and moves what it holds for the others too; a lone
server looks from a thread of its own every ``LOOK_S`` (``Lobby.stall``, started by
server/running.py) and moves its tables' clocks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs
import structlog
import trio
from trio.testing import MockClock

if TYPE_CHECKING:
    from .lobby import Lobby

log = structlog.get_logger("deberc.server")
LOOK_S = 0.25  # a lone server's look: a stall is missed by this much at most
OWN_STALL_S = 0.25  # a look later than this is a stall, past a loop's usual lateness


@attrs.define
class StallWatch:
    """A look every ``look_s`` (a worker's in its loop, cluster/node.py; a lone server's
    from a thread), and how late it came: ``stalled`` is called with that (seconds, once
    for each stall) as the look wakes, or as a table about to act on its clock asks
    first (``check``), whichever runs first as the server runs again (a table woken
    first forfeited a seat away through the stall before the look came)."""

    look_s: float
    stalled: Callable[[float], None]
    looked: float | None = None  # when the look last began (trio's clock); None: no look
    # a lone server's look is a thread's, which finds a stall as the loop may find it:
    # what it found, not yet told to the loop (seconds), under a lock they share
    _found: float = attrs.field(default=0.0, init=False)
    _lock: threading.Lock = attrs.field(factory=threading.Lock, init=False, repr=False)

    def check(self) -> None:
        """If the server has just stalled (its look is late, or its thread found it so):
        ``stalled``, once."""
        now = trio.current_time()
        with self._lock:
            late, self._found = self._found, 0.0
            if self.looked is not None and now - self.looked - self.look_s > 0:
                late += now - self.looked - self.look_s
                self.looked = now - self.look_s  # (counted once)
        if late > 0:
            self.stalled(late)

    async def look_from_a_thread(self) -> None:
        """A lone server's look, from a thread of its own for as long as the server runs:
        no deadline in its loop (a test's virtual time jumps from one to the next, and a
        look every quarter second made its long waits thrice as slow). It sees the
        process stopped (its ticks late), not the loop alone held (it ticks on). None
        under a test's virtual clock (``MockClock``): its jumps are no stall of the
        process, and the thread could not follow its time."""
        clock = trio.lowlevel.current_clock()
        if isinstance(clock, MockClock):
            return
        token = trio.lowlevel.current_trio_token()
        done = threading.Event()

        def ticks() -> None:
            self.looked = clock.current_time()
            while not done.wait(self.look_s):
                now = clock.current_time()
                with self._lock:
                    assert self.looked is not None
                    late = now - self.looked - self.look_s
                    self.looked = now
                    if late >= OWN_STALL_S:  # (a thread's usual lateness is no stall)
                        self._found += late
                if late >= OWN_STALL_S:
                    try:
                        token.run_sync_soon(self.check)
                    except trio.RunFinishedError:
                        return

        threading.Thread(target=ticks, name="deberc-own-stall", daemon=True).start()
        try:
            await trio.sleep_forever()
        finally:
            done.set()


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
