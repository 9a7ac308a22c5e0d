"""CPU time a text to a player on another worker costs the bus's queue: ``Bus.publish_text``
(pieces cut by the bytes they take as sent), or, on a tree before it (``git archive
ced22ec``, through PYTHONPATH), node.py's old cut of 1800 letters, as it did it.

    PYTHONPATH=/tmp/old .venv/bin/python bench/bus_text_pieces.py [KIND]
    PYTHONPATH=. .venv/bin/python bench/bus_text_pieces.py [KIND]

KIND: 0 a play, 1 an ask, 2 three lines of Cyrillic and an emoji, 3 a 2400-letter
state; none: the four in turn. No database: every twelfth text goes to a fresh bus,
its queue empty as a send leaves it (the buses made before the clock starts; only the
public ``Bus``, so either tree runs it). Prints the min and median of 5 rounds, µs of
CPU a text."""

from __future__ import annotations

import statistics
import sys
import time

from deberc_net.server.cluster.bus import Bus, channel

KINDS = [
    "event seq=12 table=3 kind=play seat=1 card=QS\r\n",
    "ask seq=13 table=3 seat=0 legal=7H,8H,9H,10H,JH,QH,KH,AH timeout=30000"
    " hand=7H,8H,9H,10H,JH,QH,KH,AH\r\n",
    "info text=Жданович: привет всем за столом 😀\r\n" * 3,
    ("state seq=40 table=3 " + "x" * 180 + "\r\n") * 12,
]
TEXTS = 40_000
ROUNDS = 5
OLD_CUT = 1800  # letters: node.py's TEXT_CHUNK before


def _send(bus: Bus, to: str, session: int, text: str, asks: int) -> None:
    if hasattr(bus, "publish_text"):
        bus.publish_text(to, session, text, asks)
        return
    for start in range(0, len(text), OLD_CUT):  # the old tree's node.send_out
        last = start + OLD_CUT >= len(text)
        piece = text[start : start + OLD_CUT]
        body = {"k": "text", "s": session, "text": piece, "asks": asks if last else 0}
        bus.publish(to, body, merge=True)


def _round(texts: list[str]) -> float:
    fresh = [Bus("postgresql://unused", 3, lambda _: None) for _ in range(0, TEXTS, 12)]
    to = channel(9)
    started = time.process_time()
    for i in range(TEXTS):
        if i % 12 == 0:
            bus = fresh.pop()  # the last one's queue goes with it, as a send takes it
        _send(bus, to, 7, texts[i % len(texts)], i % 2)
    return (time.process_time() - started) / TEXTS * 1e6


def main() -> None:
    texts = [KINDS[int(sys.argv[1])]] if len(sys.argv) > 1 else KINDS
    rounds = sorted(_round(texts) for _ in range(ROUNDS))
    tree = "publish_text" if hasattr(Bus, "publish_text") else "old cut"
    print(f"{tree}: min {rounds[0]:.2f} median {statistics.median(rounds):.2f} µs/text")


if __name__ == "__main__":
    main()
