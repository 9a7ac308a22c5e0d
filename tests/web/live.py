"""What a live page's socket tells (docs/web.md, "The live socket"), read as the page
reads it: for the tests of a table here and of one on another worker."""

from __future__ import annotations

import json

from trio_websocket import WebSocketConnection

from tests.server.client import fields, is_event


async def text_of(socket: WebSocketConnection) -> str:
    """The socket's next message: the page is sent text, never bytes."""
    message = await socket.get_message()
    assert isinstance(message, str), message
    return message


def lines_of(message: str) -> list[str]:
    """A message's lines, each ended by CRLF; what may follow the last is the hand sizes
    (the page's own, never a line)."""
    *lines, tail = message.split("\r\n")
    assert tail == "" or tail.startswith('{"hand_sizes":'), message  # and the seat to act
    assert not [line for line in lines if line.startswith("{")], message  # never a line
    return lines


def follow_sizes(sizes: list[int], message: str) -> list[int]:
    """The hand sizes as the page works them out (static/table.js) after ``message``."""
    lines = lines_of(message)
    tail = message.rsplit("\r\n", 1)[-1]
    if tail:  # told after the lines: their plays are in it (sizes may have been [])
        told: list[int] = json.loads(tail)["hand_sizes"]
        return told
    out = list(sizes)
    for line in lines:
        if is_event(line, "play"):
            out[int(fields(line)[1]["seat"])] -= 1
    return out


def follow_to_act(to_act: int | None, message: str) -> int | None:
    """The seat the page marks to act after ``message`` (static/table.js): told after
    the lines whenever it is another than the last told, never worked out."""
    tail = message.rsplit("\r\n", 1)[-1]
    if tail:
        told: int | None = json.loads(tail)["to_act"]
        return told
    return to_act
