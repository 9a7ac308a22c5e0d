"""Measure the CPU a server spends on each read of a big club (bench/big_club.py's).

Starts ``deberc-net serve`` on the store (its allowances opened wide, so that nothing is
refused), sends each line command and each web request N times a round, and prints the
server process's CPU (user + system, from /proc) per one: the least and the median of
the rounds, and the first round's (a finished ladder run's plot is made at its first
request, then kept: docs/web.md "Plots").

    .venv/bin/python bench/big_club_measure.py /dev/shm/big.sqlite3 [--times 10] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")

LINES = (
    "who",
    "tables",
    "top",
    "finger hero",
    "finger p00001",
    "finger house-heuristic",
    "games hero",
    "games p00001",
    "games house-heuristic",
    "history",
    "sheet",
)
PAGES = (
    "/",
    "/api/tables",
    "/players/hero",
    "/api/players/hero",
    "/players/p00001",
    "/players/house-heuristic",
    "/api/players/house-heuristic",
    "/games/m200000",
    "/table/200000",  # a closed table: 404 with its last match's link, from the store
    "/table/987654",  # a number no table had: a bare 404 (the store asked all the same)
    "/api/games/m200000",
    "/ladders",
    "/api/ladders",
    "/ladders/50",
    "/api/ladders/50",
    "/ladders/50?page=100",
    "/api/ladders/50?page=100",
    "/ladders/51",
    "/api/ladders/51",
    "/ladders/51?page=100",
    "/ladders/1",
)
CONFIG = """[server]
lists_per_s = 1000.0
lists_burst = 1000.0
lists_per_address_per_s = 1000.0
lists_per_address_burst = 1000.0
web_requests_per_address_per_s = 0
flood_lines_per_s = 1000.0
"""


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def until(sock: socket.socket, needle: bytes) -> bytes:
    got = b""
    while needle not in got:
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise EOFError(got[-300:])
        got += chunk
    return got


def fetched(url: str) -> bytes:
    """A page's body, a 404's too (a closed table's page is one)."""
    try:
        with urllib.request.urlopen(url) as answer:
            return bytes(answer.read())
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise
        return bytes(error.read())


def told(what: str, rounds: list[float], extra: str = "") -> None:
    """One line: the least, the median and the first round's CPU a request, in ms."""
    least, median = min(rounds) * 1000, statistics.median(rounds) * 1000
    print(f"{what:32} {least:8.1f} {median:8.1f} {rounds[0] * 1000:8.1f} ms{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--times", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    port, http = free_port(), free_port()
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as cfg:
        cfg.write(CONFIG)
    command = [sys.executable, "-m", "deberc_net", "serve", "--db", str(args.db),
               "--port", str(port), "--http-port", str(http), "--config", cfg.name]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                sock = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.1)
        sock.sendall(b"style machine\nlogin hero hero-password\n")
        until(sock, b"cmd=login")
        sock.sendall(b"ping\n")
        until(sock, b"cmd=ping")
        print(f"{'(CPU a request)':32} {'least':>8} {'median':>8} {'first':>8}")
        for line in LINES:
            rounds = []
            for _ in range(args.rounds):
                before = cpu_s(server.pid)
                for _ in range(args.times):
                    sock.sendall(f"{line}\nping\n".encode())
                    if b"code=slow-down" in until(sock, b"cmd=ping"):  # a refusal's CPU
                        raise SystemExit(f"{line!r} was refused: raise its limit in CONFIG")
                rounds.append((cpu_s(server.pid) - before) / args.times)
            told(line, rounds)
        for path in PAGES:
            rounds = []
            for _ in range(args.rounds):
                before = cpu_s(server.pid)
                for _ in range(args.times):
                    size = len(fetched(f"http://127.0.0.1:{http}{path}"))
                rounds.append((cpu_s(server.pid) - before) / args.times)
            told(path, rounds, f"  {size:9d} bytes")
        rounds = []
        for _ in range(args.rounds):
            before = cpu_s(server.pid)
            for _ in range(args.times):
                login = socket.create_connection(("127.0.0.1", port))
                login.sendall(b"style machine\nlogin hero hero-password\nping\n")
                until(login, b"cmd=ping")
                login.close()
            rounds.append((cpu_s(server.pid) - before) / args.times)
        told("login hero (scrypt included)", rounds)
    finally:
        server.terminate()
        server.wait(10)
        os.unlink(cfg.name)


if __name__ == "__main__":
    main()
