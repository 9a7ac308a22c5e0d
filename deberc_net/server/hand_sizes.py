"""The hand sizes a web page shows (docs/web.md, "The live socket"): public, as at a real
table, but not in an observer's lines. A page works them out from the last sizes it was
told, each ``play`` taking a card from its seat; when that is not what the hands hold,
it is told them. Shared by the web feed (a table here) and, under ``serve --workers``, a
table's owner telling them to a page's watcher on another worker (server/cluster/)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .table import Table

_PLAY = re.compile(r" kind=play seat=(\d+) ")  # an event line: a card leaves that hand
SIZES = '{"hand_sizes":'  # how a sizes message starts (a line never starts with "{")


def hand_sizes(table: Table) -> list[int]:
    """The cards in each hand of a table here now."""
    match = table.match
    return [] if match is None else [len(hand) for hand in match.deal.hands]


def sizes_message(sizes: list[int]) -> str:
    """Never a line: it follows a message's last CRLF."""
    return json.dumps({"hand_sizes": sizes}, separators=(",", ":"))


def after_plays(sizes: list[int], text: str) -> list[int]:
    """``sizes`` less a card for each ``play`` in ``text``: what a page works out."""
    out = list(sizes)
    for seat in _PLAY.findall(text):
        index = int(seat)
        if index < len(out) and out[index] > 0:
            out[index] -= 1
    return out


def told_among(lines: list[str], sizes: list[int] | None) -> tuple[list[str], list[int] | None]:
    """``lines`` less the sizes an owner told among them (on lines of their own, server/
    cluster/node.py), and the sizes after them all: the last told (else ``sizes``, the
    sizes before the lines), less a card for each play after it; None: none known."""
    kept = []
    for line in lines:
        if line.startswith(SIZES):
            sizes = json.loads(line)["hand_sizes"]
            continue
        kept.append(line)
        if sizes is not None and " kind=play " in line:
            sizes = after_plays(sizes, line)
    return kept, sizes


def sizes_to_tell(told: list[int] | None, sizes: list[int], text: str) -> bool:
    """Whether a page told ``told`` (None: nothing yet) and then ``text`` must be told
    ``sizes``: what it works out is not what the hands hold."""
    return told is None or sizes != after_plays(told, text)
