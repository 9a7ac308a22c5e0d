"""The score sheet: a fold over the events that end deals, one row a deal, as the
table tells them (``DealEnded``, or ``DealAbandoned`` when a forfeit ends the match)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .events import DealAbandoned, DealEnded, MatchEvent


@attrs.frozen
class SheetRow:
    """One deal on the score sheet: what each side wrote, and where the match stands."""

    deal: int
    outcome: str
    written: tuple[int, ...]
    totals: tuple[int, ...]
    hanging: int  # points left hanging after the deal
    bides: tuple[int, ...]  # each side's bides after the deal
    # hanging-separate: the sums waiting for the deals after the next (``hanging``)
    hanging_after: tuple[int, ...] = ()


@attrs.define
class ScoreSheet:
    rows: list[SheetRow] = attrs.Factory(list)

    def feed(self, event: MatchEvent) -> None:
        """Every event may come here; only a deal's end writes a row."""
        if isinstance(event, DealEnded):
            if event.written is not None:
                self.rows.append(
                    SheetRow(
                        event.deal,
                        event.outcome,
                        event.written,
                        event.totals,
                        event.hanging,
                        event.bides,
                        event.pending,
                    )
                )
        elif isinstance(event, DealAbandoned):
            end = event.unveiled
            if end is not None and end.written is not None:  # nobody writes: all zero
                self.rows.append(
                    SheetRow(
                        event.deal, end.outcome, end.written, event.totals, end.hanging, event.bides
                    )
                )


def record_row(record: dict[str, Any], after: tuple[int, ...] = ()) -> SheetRow:
    """A stored deal's row (docs/records.md), as its end told it: the bides after it are
    those before it, and one more for the side that ordered a game it did not make;
    ``after``: the sums still waiting beyond the next deal (hanging-separate), which
    only the next record says (its ``hanging_pending_before``)."""
    bides = list(record.get("bides_before") or [0] * len(record["written"]))
    if record["outcome"] == "bide":
        bides[record["player"] % len(bides)] += 1  # (four players: side = seat mod 2)
    return SheetRow(
        record["deal_no"],
        record["outcome"],
        tuple(record["written"]),
        tuple(record["totals"]),
        record.get("hanging", 0),
        tuple(bides),
        after,
    )


def record_rows(records: Sequence[dict[str, Any]]) -> tuple[SheetRow, ...]:
    """A stored match's rows, its records in order: a deal's sums waiting beyond the
    next one (hanging-separate) are the next record's ``hanging_pending_before``."""
    later = [tuple(r.get("hanging_pending_before", ())) for r in records[1:]]
    return tuple(map(record_row, records, [*later, ()]))
