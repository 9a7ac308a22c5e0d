"""What a web page shows of a table that an observer's lines do not tell (docs/web.md,
"The live socket"): the hand sizes, public as at a real table, and the seat the table
waits for. A page works the sizes out from the last it was told, each ``play`` taking a
card from its seat, and is told them when that is not what the hands hold; the seat to
act no line says, so it is told whenever it is not the one last told. Both ride in one
note, JSON after a message's last line. Shared by the web feed (a table here) and,
under ``serve --workers``, a table's owner telling them to a page's watcher on another
worker (server/cluster/)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from .table import Table

_PLAY = re.compile(r" kind=play seat=(\d+) ")  # an event line: a card leaves that hand
SIZES = '{"hand_sizes":'  # how a note starts (a line never starts with "{")


@attrs.frozen
class Seen:
    """What a page shows besides the lines: the cards in each hand, and the seat the
    table waits for (``Match.to_act``: the answerer while a question is pending; None:
    nobody, no match or it is over)."""

    sizes: list[int]
    to_act: int | None


def seen_now(table: Table) -> Seen:
    """The hand sizes and the seat to act of a table here now."""
    match = table.match
    if match is None:
        return Seen([], None)
    return Seen([len(hand) for hand in match.deal.hands], match.to_act)


def note(seen: Seen) -> str:
    """Never a line: it follows a message's last CRLF (both, always: one shape). The
    bytes of ``json.dumps(..., separators=(",", ":"))``, written out: under ``serve
    --workers`` an owner tells one with nearly every call at a watched table (the seat
    to act moves with each), and this is a quarter of json's 2.5 µs."""
    act = "null" if seen.to_act is None else seen.to_act
    return f'{{"hand_sizes":[{",".join(map(str, seen.sizes))}],"to_act":{act}}}'


def after_plays(sizes: list[int], text: str) -> list[int]:
    """``sizes`` less a card for each ``play`` in ``text``: what a page works out."""
    out = list(sizes)
    for seat in _PLAY.findall(text):
        index = int(seat)
        if index < len(out) and out[index] > 0:
            out[index] -= 1
    return out


def told_among(lines: list[str], seen: Seen | None) -> tuple[list[str], Seen | None]:
    """``lines`` less the notes an owner told among them (on lines of their own, server/
    cluster/node.py), and what is seen after them all: the last note (else ``seen``,
    as before the lines), its sizes less a card for each play after it; None: nothing
    known."""
    kept = []
    for line in lines:
        if line.startswith(SIZES):
            told = json.loads(line)
            seen = Seen(told["hand_sizes"], told.get("to_act"))
            continue
        kept.append(line)
        if seen is not None and " kind=play " in line:
            seen = Seen(after_plays(seen.sizes, line), seen.to_act)
    return kept, seen


def to_tell(told: Seen | None, now: Seen, text: str) -> bool:
    """Whether a page told ``told`` (None: nothing yet) and then ``text`` must be told
    ``now``: what it works out is not what the table holds, or another seat acts."""
    if told is None or now.to_act != told.to_act:
        return True  # (the seat first: it moves with nearly every call, and is cheap)
    return now.sizes != after_plays(told.sizes, text)
