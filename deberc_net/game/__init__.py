"""The pure Deberts engine: cards, deals, matches, views and records. No I/O.

The names below are imported when first asked for (PEP 562): a bot that imports only
``deberc_net.game.cards`` does not build the deal's and the match's classes at its
start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .calls import Call, parse_token
    from .deal import Deal
    from .errors import IllegalCall
    from .match import RECORD_FORMAT, Match
    from .rules import RuleSet, Settings

_HOME = {
    "Call": "calls",
    "parse_token": "calls",
    "Deal": "deal",
    "IllegalCall": "errors",
    "RECORD_FORMAT": "match",
    "Match": "match",
    "RuleSet": "rules",
    "Settings": "rules",
}

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


# mypy sees the imports above, not the module __getattr__ (a misspelled name would
# pass as Any)
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        home = _HOME.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
        globals()[name] = value  # once: later lookups find it as a plain global
        return value
