"""The score sheet: a fold over the events that end deals, one row a deal, as the
table tells them (``DealEnded``, or ``DealAbandoned`` when a forfeit ends the match)."""

from __future__ import annotations

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


def record_row(record: dict[str, Any]) -> SheetRow:
    """A stored deal's row (docs/records.md), as its end told it: the bides after it are
    those before it, and one more for the side that ordered a game it did not make."""
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
    )
