"""A complete bot with nothing but a socket: the example for other languages.

    python clients/raw_bot.py HOST PORT NAME

It is deliberately standalone (no import from this project, not even the client
library): everything it needs is in docs/protocol.md, and it shows how little that is.
It checks the protocol version in the banner, switches to the machine style, logs in,
seeks a two-player game, answers every 'ask' with its first legal call, and stops after
one game. Put off (a 'slow-down' with its wait_ms=, docs/protocol.md §10), it says so,
waits as told and asks again, a few times at most: a login on a new connection, as the
server closes one not logged in 15 s after it opened (§2.1), however long the wait.
Refused (its login, its seek), left without a 'bye', or not connected, it says why in
one line and exits with status 2.
"""

import socket
import sys
import time

TRIES = 3  # a slow-down waited out and asked again at most this many times


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


def main(host: str, port: int, name: str, tries: int = TRIES) -> None:
    sock = socket.create_connection((host, port))
    reader = sock.makefile("r", encoding="utf-8", newline="")

    def send(line: str) -> None:
        sock.sendall((line + "\n").encode("utf-8"))

    banner = reader.readline()
    if "(protocol 1)" not in banner:  # or an error instead: a full server says so
        stop(name, f"not a protocol 1 server: {banner.strip()}")
    unanswered = ["style machine", f"login {name}", "seek 2"]  # sent at once, and each
    for line in unanswered:  # gets 'ok' or 'error', in this order
        send(line)
    stale = 0  # answers still due to lines since sent again
    for raw in reader:
        tag, kv = fields(raw.rstrip("\r\n"))
        if tag in ("ok", "error") and stale:
            stale -= 1
        elif tag in ("ok", "error") and unanswered:
            line = unanswered.pop(0)
            what, text = line.split()[0], kv.get("text", kv.get("code"))
            if tag == "error" and kv.get("code") == "slow-down" and "wait_ms" in kv and tries:
                tries -= 1  # put off: wait as told, then send it and the lines after it again
                wait_s = int(kv["wait_ms"]) / 1000
                sys.stderr.write(f"{name}: {what} put off: {text}; again in {wait_s:g} s\n")
                if what == "login":  # not logged in, it would be closed meanwhile (§2.1):
                    reader.close()  # so it is closed, the wait is waited out without it,
                    sock.close()  # and all is sent again on a new one
                    time.sleep(wait_s)
                    main(host, port, name, tries)
                    return
                time.sleep(wait_s)
                stale, unanswered = len(unanswered), [line, *unanswered]
                for again in unanswered:
                    send(again)
            elif tag == "error":  # it cannot play without it: say why and stop
                stop(name, f"{what} refused: {text}")
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
