"""A login's session as server/cut_off.py's CutOff reads it, for the cut-off tests."""

from __future__ import annotations

import attrs

from deberc_net.protocol import events as ev


@attrs.define
class Player:
    """What CutOff reads of a login's session: whether it closed, what it was told."""

    closed: bool = False
    told: list[ev.ServerEvent] = attrs.Factory(list)

    def send(self, event: ev.ServerEvent) -> None:
        self.told.append(event)
