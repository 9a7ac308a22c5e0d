"""A complete bot with nothing but a socket: the example for other languages.

    python clients/raw_bot.py HOST PORT NAME

It is deliberately standalone (no import from this project, not even the client
library): everything it needs is in docs/protocol.md, and it shows how little that is.
It checks the protocol version in the banner, switches to the machine style, logs in,
seeks a two-player game, answers every 'ask' with its first legal call, and stops after
one game. Refused (its login, its seek), left without a 'bye', or not connected, it
says why in one line and exits with status 2.
"""

import socket
import sys


def fields(line: str) -> tuple[str, dict[str, str]]:
    """A machine line's tag and fields (docs/protocol.md §3.1): fields are separated by
    one space, and a field named text runs to the end of the line."""
    tag, _, rest = line.partition(" ")
    out: dict[str, str] = {}
    while rest:
        if rest.startswith("text="):
            out["text"] = rest[5:]
            break
        item, _, rest = rest.partition(" ")
        key, _, value = item.partition("=")
        out[key] = value
    return tag, out


def stop(name: str, why: str) -> None:
    sys.stderr.write(f"{name}: {why}\n")
    sys.exit(2)


def main(host: str, port: int, name: str) -> None:
    sock = socket.create_connection((host, port))
    reader = sock.makefile("r", encoding="utf-8", newline="")

    def send(line: str) -> None:
        sock.sendall((line + "\n").encode("utf-8"))

    banner = reader.readline()
    if "(protocol 1)" not in banner:  # or an error instead: a full server says so
        stop(name, f"not a protocol 1 server: {banner.strip()}")
    send("style machine")
    send(f"login {name}")
    send("seek 2")
    unanswered = ["style", "login", "seek"]  # each gets 'ok' or 'error', in this order
    for raw in reader:
        tag, kv = fields(raw.rstrip("\r\n"))
        if tag in ("ok", "error") and unanswered:
            what = unanswered.pop(0)
            if tag == "error":  # it cannot play without it: say why and stop
                stop(name, f"{what} refused: {kv.get('text', kv.get('code'))}")
        elif tag == "ask":  # answer with a legal call, naming the request it answers
            send(f"{kv['legal'].split(',')[0]} seq={kv['seq']}")
        elif tag == "error" and kv.get("code") == "stale":
            send("state")  # the request moved on: ask for the open one again
        elif tag == "event" and kv.get("kind") == "match-end":
            send("quit")
        elif tag == "bye":
            break
    else:  # the server closed the connection without 'bye'
        stop(name, "the server closed the connection")
    sock.close()


if __name__ == "__main__":
    host, port, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    try:
        main(host, port, name)
    except OSError as exc:  # the server not reached, or the connection broken
        stop(name, f"connection to {host}:{port}: {exc.strerror or exc}")
