"""What a live page's socket tells (docs/web.md, "The live socket"), read as the page
reads it: for the tests of a table here and of one on another worker."""

from __future__ import annotations

import json
from typing import Any

from trio_websocket import ConnectionClosed, WebSocketConnection

from tests.server.client import fields, is_event

# the feed's notes (web/feed.py): the hand sizes and the seat to act; the rematch on offer
NOTES = ({"hand_sizes", "to_act"}, {"rematch_offer"})


def note_of(message: str) -> dict[str, Any]:
    """The note after ``message``'s last line (empty: none)."""
    tail = message.rsplit("\r\n", 1)[-1]
    told: dict[str, Any] = json.loads(tail) if tail else {}
    return told


async def text_of(socket: WebSocketConnection) -> str:
    """The socket's next message: the page is sent text, never bytes."""
    message = await socket.get_message()
    assert isinstance(message, str), message
    return message


def lines_of(message: str) -> list[str]:
    """A message's lines, each ended by CRLF; what may follow the last is the hand sizes
    and the seat to act, or the rematch on offer (the page's own notes, never a line)."""
    *lines, tail = message.split("\r\n")
    assert tail == "" or set(json.loads(tail)) in NOTES, message
    assert not [line for line in lines if line.startswith("{")], message  # never a line
    return lines


def follow_sizes(sizes: list[int], message: str) -> list[int]:
    """The hand sizes as the page works them out (static/table.js) after ``message``."""
    lines = lines_of(message)
    note = note_of(message)
    if "hand_sizes" in note:  # told after the lines: their plays are in it (sizes may have been [])
        told: list[int] = note["hand_sizes"]
        return told
    out = list(sizes)
    for line in lines:
        if is_event(line, "play"):
            out[int(fields(line)[1]["seat"])] -= 1
    return out


def follow_to_act(to_act: int | None, message: str) -> int | None:
    """The seat the page marks to act after ``message`` (static/table.js): told after
    the lines whenever it is another than the last told, never worked out."""
    note = note_of(message)
    if "to_act" in note:
        told: int | None = note["to_act"]
        return told
    return to_act


async def to_the_offer(socket: WebSocketConnection) -> tuple[list[str], int]:
    """What the page is told up to the rematch's offer: its lines, and the seconds it
    is told the offer stands."""
    lines: list[str] = []
    while True:
        message = await text_of(socket)
        lines += lines_of(message)
        if "rematch_offer" in note_of(message):
            seconds: int = note_of(message)["rematch_offer"]
            return lines, seconds


async def to_the_end(socket: WebSocketConnection) -> tuple[list[str], list[dict[str, Any]]]:
    """What the page is told till its socket closes: lines, and notes."""
    lines: list[str] = []
    notes: list[dict[str, Any]] = []
    try:
        while True:
            message = await text_of(socket)
            lines += [line for line in lines_of(message) if line]
            if note_of(message):
                notes.append(note_of(message))
    except ConnectionClosed:
        return lines, notes
