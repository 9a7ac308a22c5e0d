"""A client's word as a refusal quotes it back: cut, so a long one costs no echo."""

from __future__ import annotations

# characters of a client's word said back at most ('…' after them): enough to know it
# by. A word of 1000 letters was quoted whole, as many bytes back as were sent
SAID_BACK_MOST = 40


def said_back(text: str) -> str:
    """``text`` as typed, up to SAID_BACK_MOST characters, else its first ones and '…'
    (docs/protocol.md §10)."""
    return text if len(text) <= SAID_BACK_MOST else text[:SAID_BACK_MOST] + "…"
