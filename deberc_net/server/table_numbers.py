"""Table ids drawn ahead from the store: never the same on one database, so a table's
number (its web page /table/N, `join N`) is not another table's after a restart, and the
workers of `serve --workers` (on any host) never share one (docs/protocol.md §5.2)."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import structlog
import trio

from .spawner import Spawner

log = structlog.get_logger("deberc.tables")
AHEAD = 32  # drawn from the store at a time; more are drawn when half are used


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

    def fill(self) -> None:
        """Draw the first block now (blocking: at start-up, before the server listens;
        a worker draws so again whenever a burst has used every number drawn)."""
        self._take(self.draw(AHEAD))

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
            if self.shared:  # (a worker opens no table on a number of its own)
                self.fill()
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
            self._drawing = True
            self.spawner.start_soon(self._draw_more)
        return number

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
        try:
            self._take(await trio.to_thread.run_sync(self.draw, AHEAD))
        except Exception:  # the database away for a moment: drawn at the next table
            log.exception("table_numbers_failed")
        finally:
            self._drawing = False
