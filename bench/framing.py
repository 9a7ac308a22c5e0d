"""The line decoder and the sans-IO connection on one read, in-process: what a line
costs on the way in, and what a read of telnet commands or NULs costs.

    .venv/bin/python bench/framing.py [--repeat 7] [--number 200000]

Each case is timed ``--repeat`` times (``timeit``, ``--number`` runs each; the hostile
reads a hundredth of that) in the process's CPU time (a wall clock counts the other
processes of a busy machine) and reported as the best in ns a run; then ONE JSON line.
Run it on two trees side by side (PYTHONPATH) and compare the ratios: the figures
are the machine's.

- ``feed_call``: ``LineDecoder.feed`` of one whole call (``9h seq=12\\n``), a bot's read;
- ``whole_line``: ``LineDecoder.whole_line`` of the same (the connection's shortest way);
- ``feed_pieces``: a line cut in two reads, then four lines in one read;
- ``feed_telnet_line``: a telnet's negotiation and a line in one read (and its
  refusals taken);
- ``receive_next``: ``Connection.receive_data`` and ``next_input`` of ``ping``;
- ``receive_call``: ``Connection.receive_call`` of a call answering an ask;
- ``hostile_nop``, ``hostile_nul``: ``receive_data`` of a 4 KiB read of IAC NOP, of
  NUL (a fresh connection each time, the flood limit out of the way: the framing only);
- ``hostile_do``: the same of IAC DO x, each refused (1,365 refusals owed a read).
"""

from __future__ import annotations

import argparse
import json
import time
import timeit
from collections.abc import Callable

from lines import machine  # bench/lines.py

from deberc_net.protocol.connection import Connection, Limits
from deberc_net.protocol.framing import LineDecoder

CALL = b"9h seq=12\n"
NEGOTIATION = b"\xff\xfd\x03\xff\xfb\x18\xff\xfb\x1f\xff\xfa\x1f\x00\x50\x00\x18\xff\xf0"
NOP = b"\xff\xf1" * 2048
NUL = b"\x00" * 4096
DO = b"\xff\xfd\x01" * 1365
UNLIMITED = Limits(flood_lines_per_s=1e12, flood_burst=1e12)


def cases() -> dict[str, tuple[Callable[[], object], int]]:
    """Each case and its share of ``--number`` (a divisor)."""
    decoder = LineDecoder()
    connection = Connection(0.0, UNLIMITED)
    connection.logged_in()
    caller = Connection(0.0, UNLIMITED)
    caller.logged_in()

    def receive_next() -> None:
        connection.receive_data(b"ping\n", 0.0)
        connection.next_input(0.0)

    def receive_call() -> None:
        caller.answer_credit = 1
        caller.receive_call(CALL, 0.0)

    def pieces() -> None:
        decoder.feed(b"who ")
        decoder.feed(b"2\npas seq=1\nping\r\nsay hi\n")

    # the refusals owed are taken after each read, as the connection takes them (a
    # tree without them: nothing to take)
    take = getattr(decoder, "take_answers", lambda: b"")

    def telnet_line() -> None:
        decoder.feed(NEGOTIATION + b"who\r\n")
        take()

    def hostile(data: bytes) -> Callable[[], object]:
        def run() -> None:
            Connection(0.0, UNLIMITED).receive_data(data, 0.0)

        return run

    return {
        "feed_call": (lambda: decoder.feed(CALL), 1),
        "whole_line": (lambda: decoder.whole_line(CALL), 1),
        "feed_pieces": (pieces, 1),
        "feed_telnet_line": (telnet_line, 1),
        "receive_next": (receive_next, 1),
        "receive_call": (receive_call, 1),
        "hostile_nop": (hostile(NOP), 100),
        "hostile_nul": (hostile(NUL), 100),
        "hostile_do": (hostile(DO), 100),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=200_000)
    args = parser.parse_args()
    figures = {}
    for name, (run, share) in cases().items():
        number = max(1, args.number // share)
        times = timeit.repeat(run, number=number, repeat=args.repeat, timer=time.process_time)
        best = min(times) / number
        figures[name] = round(best * 1e9, 1)
        print(f"{name:18} {figures[name]:12.1f} ns")
    print(json.dumps({"bench": "framing", "ns": figures, "machine": machine()}))


if __name__ == "__main__":
    main()
