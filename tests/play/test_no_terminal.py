"""`deberc-net play` needs a terminal: without one it says so and exits 2 at once (it
hung, drawing nowhere); and a connection never made is not called "lost" while the
client tries again."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time

from clients.play.link import Link


def test_play_without_a_terminal_exits_2_saying_it_needs_one() -> None:
    with socket.socket() as held:  # nothing listens: it must not even get that far
        held.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{held.getsockname()[1]}"
        done = subprocess.run(
            [sys.executable, "-m", "deberc_net", "play", address, "--name", "x"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == (
        "deberc-net play: the terminal client needs a terminal (standard input and output); "
        "a program speaks the protocol itself (docs/bots.md)\n"
    )


def test_a_connection_never_made_is_retried_without_being_called_lost() -> None:
    said: list[str] = []
    tried_again = threading.Event()

    def deliver(line: str) -> None:
        said.append(line)
        if "(try 3)" in line:
            tried_again.set()

    with socket.socket() as held:  # bound, never listening: every connect is refused
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        link = Link("127.0.0.1", port, deliver, name="x")
        started = time.monotonic()
        link.start()
        try:
            assert tried_again.wait(10), said
        finally:
            link.stop()
    assert time.monotonic() - started < 10
    assert said[0] == f"info text=cannot connect to 127.0.0.1:{port}: Connection refused", said
    assert said[1] == "info text=no connection yet: trying again in 0.5 s (try 2)", said
    assert not any("connection lost" in line for line in said), said
