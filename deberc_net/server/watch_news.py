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

from .limits import Bucket, Recent


@attrs.define
class WatchNews:
    window: float
    comings: Bucket
    # name keys whose coming was told here within the window
    _told: Recent = attrs.field(init=False)
    # name keys told as watching and not yet as gone
    _watching: set[str] = attrs.field(init=False, factory=set)

    def __attrs_post_init__(self) -> None:
        self._told = Recent(self.window, kept=64)

    def coming(self, key: str, now: float) -> bool:
        """Whether to tell that ``key`` starts watching (remembered if so)."""
        if key in self._watching or self._told.seen(key, now):
            return False  # told a moment ago: coming and going again is no news
        if not self.comings.take(now):
            return False  # the table has heard enough of comings for now
        self._told.add(key, now)
        self._watching.add(key)
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
        return len(self._told) + len(self._watching)
