"""The server's machine-style lines as typed values, for bots (no I/O).

The parsing is deberc_net.protocol.wire's, the same the server's formatter is checked
against; this module names what a bot author uses: ``parse(line)`` gives a ``View``
(``ask``/``state``), a ``Record`` (a deal in full) or an ``Event`` (any other line: its
tag and fields, typed on access).
"""

from __future__ import annotations

from deberc_net.protocol.wire import (
    EventKind,
    MatchEnd,
    Record,
    Tag,
    View,
    WireError,
    banner_protocol,
    fields_of,
    parse,
)
from deberc_net.protocol.wire import Line as Event

__all__ = [
    "Event",
    "EventKind",
    "MatchEnd",
    "Record",
    "Tag",
    "View",
    "WireError",
    "banner_protocol",
    "fields_of",
    "parse",
]
