"""The phases of a deal."""

BIDDING = "bidding"
ORDERED = "ordered"  # only with settings.pause_after_order: a plugin's moment
PLAY = "play"
DONE = "done"
