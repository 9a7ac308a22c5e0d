"""The pure Deberts engine: cards, deals, matches, views and records. No I/O."""

from .calls import Call, parse_token
from .deal import Deal
from .errors import IllegalCall
from .match import RECORD_FORMAT, Match
from .rules import RuleSet, Settings

__all__ = [
    "RECORD_FORMAT",
    "Call",
    "Deal",
    "IllegalCall",
    "Match",
    "RuleSet",
    "Settings",
    "parse_token",
]
