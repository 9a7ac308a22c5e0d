"""Which of a table's watchers' comings and goings its players are told.

Each is a line on every screen at the table, and 'observe'/'unobserve' cost nothing
else, so without a bound anyone could bury the players in them (and overflow a slow
reader's outbox: a player cut off for others' doings). A name's coming is told at most
once in ``window`` seconds at a table, and only while the table's own ``Bucket`` of
comings has a token; its going is told only if its coming was, so the players never
hear of one without the other. The bound is the table's, not a sender's: it holds
however many connections, from however many addresses, come and go (docs/security.md
§6)."""

from __future__ import annotations

import attrs

from .limits import Bucket


@attrs.define
class WatchNews:
    window: float
    comings: Bucket
    # name key: when its coming was last told here; only stamps within the window count
    _told_at: dict[str, float] = attrs.field(init=False, factory=dict)
    # name keys told as watching and not yet as gone
    _watching: set[str] = attrs.field(init=False, factory=set)
    # ``_told_at`` is looked through for old stamps once it holds this many (amortized)
    _prune_at: int = attrs.field(init=False, default=64)

    def coming(self, key: str, now: float) -> bool:
        """Whether to tell that ``key`` starts watching (remembered if so)."""
        told = self._told_at.get(key)
        if key in self._watching or (told is not None and now - told < self.window):
            return False  # told a moment ago: coming and going again is no news
        if not self.comings.take(now):
            return False  # the table has heard enough of comings for now
        self._told_at[key] = now
        self._watching.add(key)
        if len(self._told_at) >= self._prune_at:
            for old in [k for k, t in self._told_at.items() if now - t >= self.window]:
                del self._told_at[old]
            self._prune_at = max(64, 2 * len(self._told_at))
        return True

    def going(self, key: str) -> bool:
        """Whether to tell that ``key`` stops watching: only if its coming was told."""
        if key in self._watching:
            self._watching.discard(key)
            return True
        return False

    def seated(self, key: str) -> None:
        """``key`` sat down here: its seat is told instead, and its going never will be."""
        self._watching.discard(key)

    def __len__(self) -> int:
        """How many names it remembers (for tests: bounded by the recent comings)."""
        return len(self._told_at) + len(self._watching)
