"""A complete bot with nothing but a socket: the example for other languages.

    python clients/raw_bot.py HOST PORT NAME
It logs in, switches to the machine style, seeks a two-player game, answers every
'ask' with its first legal call, and stops after one game.
"""

import socket
import sys


def main(host: str, port: int, name: str) -> None:
    sock = socket.create_connection((host, port))
    reader = sock.makefile("r", encoding="utf-8", newline="\r\n")

    def send(line: str) -> None:
        sock.sendall((line + "\n").encode("utf-8"))

    send("style machine")
    send(f"login {name}")
    send("seek 2")
    for line in reader:
        tag, _, rest = line.strip().partition(" ")
        fields = dict(p.split("=", 1) for p in rest.split(" ") if "=" in p)
        if tag == "ask":  # answer with a legal call, naming the request it answers
            send(f"{fields['legal'].split(',')[0]} seq={fields['seq']}")
        elif tag == "event" and fields.get("kind") == "match-end":
            send("quit")
        elif tag == "bye":
            break
    sock.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
