"""Points no line can tell, for tests of a table that fails as it ends a deal (its
match's end then cannot be told either: ``table_end_failed``)."""

from __future__ import annotations

SPOIL = "spoil"  # the call of the test options that write such points


class Unreadable:
    """Points a broken rule writes: they add to a total, but no line can tell them."""

    def __radd__(self, other: object) -> Unreadable:
        return self

    def __str__(self) -> str:
        raise RuntimeError("these points cannot be told")
