"""The phases of a deal (a phase is not a call: ``calls.PLAY`` is the call of a card)."""

from enum import StrEnum


class Phase(StrEnum):
    BIDDING = "bidding"
    ORDERED = "ordered"  # only with settings.pause_after_order: a plugin's moment
    PLAY = "play"
    DONE = "done"


# the names plugins and callers already use
BIDDING = Phase.BIDDING
ORDERED = Phase.ORDERED
PLAY = Phase.PLAY
DONE = Phase.DONE
