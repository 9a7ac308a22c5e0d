"""The public tables that closed, each with the match it last played: a closed
table's page (``/table/N``) links that match's replay (docs/web.md).

Kept in memory, the newest ``CLOSED_KEPT``: the store does not say which table was
private (a private table's number must look like no table at all, docs/security.md
§1), so a table is remembered only by the server that saw it close as public."""

from __future__ import annotations

import attrs

CLOSED_KEPT = 10_000  # tables remembered: a number and a match id each, a few bytes


@attrs.define
class ClosedTables:
    kept: int = CLOSED_KEPT
    _last_match: dict[int, str] = attrs.Factory(dict)

    def closed(self, table: int, match: str) -> None:
        """Public ``table`` closed with ``match`` its last; the oldest is let go."""
        self._last_match.pop(table, None)
        self._last_match[table] = match
        while len(self._last_match) > self.kept:
            del self._last_match[next(iter(self._last_match))]

    def last_match(self, table: int) -> str | None:
        """The match a closed public table last played; None: none remembered."""
        return self._last_match.get(table)
