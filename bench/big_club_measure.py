"""Measure the CPU a server spends on each read of a big club (bench/big_club.py's).

Starts ``deberc-net serve`` on the store (its allowances opened wide, so that nothing is
refused), sends each line command and each web request N times, and prints the
server process's CPU (user + system, from /proc) per one.

    .venv/bin/python bench/big_club_measure.py /dev/shm/big.sqlite3 [--times 10]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
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
    "/api/games/m200000",
    "/ladders",
    "/api/ladders",
    "/ladders/50",
    "/api/ladders/50",
    "/ladders/1",
)
CONFIG = """[server]
lists_per_s = 1000.0
lists_burst = 1000.0
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--times", type=int, default=10)
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
        for line in LINES:
            before = cpu_s(server.pid)
            for _ in range(args.times):
                sock.sendall(f"{line}\nping\n".encode())
                until(sock, b"cmd=ping")
            spent = (cpu_s(server.pid) - before) / args.times
            print(f"{line:32} {spent * 1000:8.1f} ms")
        for path in PAGES:
            before = cpu_s(server.pid)
            for _ in range(args.times):
                with urllib.request.urlopen(f"http://127.0.0.1:{http}{path}") as answer:
                    size = len(answer.read())
            spent = (cpu_s(server.pid) - before) / args.times
            print(f"{path:32} {spent * 1000:8.1f} ms  {size:9d} bytes")
        before = cpu_s(server.pid)
        for _ in range(args.times):
            login = socket.create_connection(("127.0.0.1", port))
            login.sendall(b"style machine\nlogin hero hero-password\nping\n")
            until(login, b"cmd=ping")
            login.close()
        spent = (cpu_s(server.pid) - before) / args.times
        print(f"{'login hero (scrypt included)':32} {spent * 1000:8.1f} ms")
    finally:
        server.terminate()
        server.wait(10)
        os.unlink(cfg.name)


if __name__ == "__main__":
    main()
