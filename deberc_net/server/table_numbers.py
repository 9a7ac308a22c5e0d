"""Table ids drawn ahead from the store: never the same on one database, so a table's
number (its web page /table/N, `join N`) is not another table's after a restart, and the
workers of `serve --workers` (on any host) never share one (docs/protocol.md §5.2)."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import structlog
import trio

from .spawner import Spawner
from .store import StoreError

log = structlog.get_logger("deberc.tables")
AHEAD = 32  # drawn from the store at a time; more are drawn when half are used
# under serve --workers, a line that may open a table waits (``ready``) while no more
# than these are left, a draw on its way: they are for the tables that open without a
# line of their own (a seek met by another's, a rematch, a seek from another worker)
KEPT = AHEAD // 4


@attrs.define
class TableNumbers:
    draw: Callable[[int], list[int]]  # the store's new_table_numbers
    spawner: Spawner
    # workers share the numbers: one no other worker drew is the only safe one; a lone
    # server may go on from its own highest while its database is away
    shared: bool
    _ahead: list[int] = attrs.Factory(list)
    _highest: int = 0
    _drawing: bool = False
    _landed: trio.Event = attrs.Factory(trio.Event)  # set as the draw on its way ends
    _failed: bool = False  # the last draw in the background failed

    def fill(self) -> None:
        """Draw the first block now (blocking: at start-up, before the server listens;
        never once a worker listens: ``at_hand``)."""
        self._take(self.draw(AHEAD))

    def at_hand(self) -> bool:
        """Whether ``next`` gives a number now, without a call to the store: always on a
        lone server (it numbers on its own while its database is away), on a worker
        while one drawn is left. A table that opens without a line of its own (a seek
        met by another's, one from another worker, a rematch another worker's player
        agreed to) finds none once those ``KEPT`` are used before a draw came back: it
        waits for the draw (``landed``), where it drew in place, in the loop, before."""
        return not self.shared or bool(self._ahead)

    async def landed(self) -> bool:
        """Wait for the draw on its way (one started if none is), the loop running on:
        whether it gave numbers (False: it failed, its database away)."""
        if not self._drawing:
            self._draw_soon()
        await self._landed.wait()  # (the event of this draw: the next has its own)
        return not self._failed

    async def ready(self) -> None:
        """Under serve --workers, before a line that may open a table (``new``, ``seek``,
        ``reserve``, ``rematch``): wait, the loop running on, while no more than
        ``KEPT`` numbers are left, for a draw in a thread. A worker numbers no table on
        its own, and it drew in place, a store call in the server's loop, when a burst
        had used every number (every connection waited for it). Raises ``StoreError``
        if none is left and the draw failed (its database away): the line is refused
        as a failed one, without a wait in the loop."""
        while self.shared and len(self._ahead) <= KEPT:
            if not self._drawing:
                self._draw_soon()
            landed = self._landed
            await landed.wait()
            if self._failed:
                if not self._ahead:
                    raise StoreError("no table number could be drawn: the database is away")
                return  # (one of those kept: the next line draws again)

    @property
    def highest(self) -> int:
        """The highest number this server has drawn (0 before its first draw)."""
        return self._highest

    @property
    def drawing(self) -> bool:
        """Whether a draw is on its way in the background."""
        return self._drawing

    def next(self) -> int:
        if not self._ahead:  # a burst used them all (or the database is away)
            if self.shared:  # (a worker opens no table on a number of its own, nor
                # draws in its loop: its openers ask ``at_hand`` first, or ``ready``)
                raise StoreError("no table number at hand: a draw is on its way")
            # (never filled: a lobby the server did not start, a test's, draws in place)
            elif self._highest or not self._first_draw():
                # never a wait on the store here, in the server's loop (a database
                # away would hold every connection for its timeout, table after
                # table): unique while this server runs, and drawn again meanwhile.
                # A draw on its way: a burst of tables outran it (a ladder's boards on
                # a busy SQLite file), no database away: told at info, not on a
                # ladder's standard error as a warning
                if self._drawing:
                    log.info("table_numbers_burst", then=self._highest + 1)
                else:
                    log.warning("table_numbers_ahead_used", then=self._highest + 1)
                self._take([self._highest + 1])
        number = self._ahead.pop(0)
        if len(self._ahead) < AHEAD // 2 and not self._drawing:
            self._draw_soon()
        return number

    def _draw_soon(self) -> None:
        self._drawing = True
        self.spawner.start_soon(self._draw_more)

    def unused(self) -> tuple[int, int] | None:
        """The numbers drawn and never handed out, as (lowest, highest): the top of the
        last draw, for the store to take back as the server stops; None if none, or they
        are not that (a draw on its way, a lone server's own past a failed draw)."""
        ahead = self._ahead
        if self._drawing or not ahead or ahead != list(range(ahead[0], self._highest + 1)):
            return None
        return ahead[0], self._highest

    def _first_draw(self) -> bool:
        """The first block, drawn in place by a lobby the server did not fill as it
        started (one made by a test, or a program of its own): whether it came."""
        try:
            self.fill()
        except Exception:
            log.exception("table_numbers_failed")
            return False
        return True

    def _take(self, drawn: list[int]) -> None:
        # (a lone server that went on from its own highest skips what it used)
        self._ahead += [n for n in drawn if n > self._highest]
        self._highest = max([self._highest, *drawn])

    async def _draw_more(self) -> None:
        self._failed = True
        try:
            self._take(await trio.to_thread.run_sync(self.draw, AHEAD))
            self._failed = False
        except Exception:  # the database away for a moment: drawn at the next table
            log.exception("table_numbers_failed")
        finally:
            self._drawing = False
            self._landed.set()
            self._landed = trio.Event()
