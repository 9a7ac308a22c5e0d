"""Server throughput and memory, against a bare trio echo server in the same run.

    .venv/bin/python bench/server.py [--pairs 20] [--seconds 5] [--idle 1000]

1. Starts a bare trio line-echo server (a subprocess) and measures round trips per
   second with ``2 * pairs`` concurrent clients, each sending one line and waiting for
   its echo.
2. Starts ``deberc-net serve`` (a subprocess, fresh SQLite file) and ``pairs`` pairs of
   machine-style bots that seek games and answer every ``ask`` with a random legal
   call; counts answered calls per second.
3. Prints both rates and the ratio (server calls/s ÷ echo round trips/s).
4. Opens ``idle`` connections that log in and stay idle, and reports the server's
   resident memory per connection (RSS growth ÷ connections).

Everything is on 127.0.0.1; every loop stops by itself after ``--seconds``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
from lines import Lines, status_kib  # bench/lines.py

ROOT = Path(__file__).resolve().parent.parent

ECHO_SERVER = """
import sys, trio
async def handle(stream):
    buf = b""
    try:
        while True:
            data = await stream.receive_some(4096)
            if not data:
                return
            buf += data
            while b"\\n" in buf:
                line, buf = buf.split(b"\\n", 1)
                await stream.send_all(line + b"\\r\\n")
    except trio.BrokenResourceError:
        pass
async def main():
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    await trio.serve_listeners(handle, listeners)
trio.run(main)
"""


async def echo_client(port: int, index: int, deadline: float, counter: list[int]) -> None:
    lines = await Lines.open(port)
    while trio.current_time() < deadline:
        await lines.send("9h seq=1")
        with trio.move_on_at(deadline):
            await lines.line()
            counter[0] += 1
    await lines.stream.aclose()


async def bot(port: int, name: str, deadline: float, counter: list[int], seed: int) -> None:
    rng = random.Random(seed)
    lines = await Lines.open(port)
    await lines.send("style machine")
    await lines.send(f"login {name}")
    await lines.send("seek 2")
    while trio.current_time() < deadline:
        line = ""
        with trio.move_on_at(deadline):  # a partner may stop first: never wait past the end
            try:
                line = await lines.line()
            except EOFError:
                return
        tag = line.split(" ", 1)[0]
        if tag == "ask":
            fields = dict(p.split("=", 1) for p in line.split(" ")[1:] if "=" in p)
            await lines.send(f"{rng.choice(fields['legal'].split(','))} seq={fields['seq']}")
            counter[0] += 1
        elif tag == "event" and "kind=match-end" in line:
            await lines.send("seek 2")
    await lines.stream.aclose()


async def measure(client: Any, port: int, clients: int, seconds: float) -> float:
    counter = [0]
    deadline = trio.current_time() + seconds
    async with trio.open_nursery() as nursery:
        for i in range(clients):
            nursery.start_soon(client, port, i, deadline, counter)
    return counter[0] / seconds


async def idle_connections(port: int, pid: int, count: int) -> float:
    before = status_kib(pid, "VmRSS")
    streams = []
    for i in range(count):
        lines = await Lines.open(port)
        await lines.send(f"login idle{i}")
        streams.append(lines)
    for lines in streams:  # wait for every hello + login reply
        await lines.line()
        await lines.line()
    await trio.sleep(0.5)
    after = status_kib(pid, "VmRSS")
    for lines in streams:
        await lines.stream.aclose()
    return (after - before) * 1024 / count


def start(cmd: list[str]) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def start_server(db: str) -> tuple[subprocess.Popen[str], int]:
    code = (
        "import sys, trio\n"
        "from deberc_net.server.app import serve\n"
        "from deberc_net.server.config import Config\n"
        "from deberc_net.server.logs import configure_logging\n"
        "configure_logging('warning')\n"
        "async def main():\n"
        "    async with trio.open_nursery() as n:\n"
        f"        port = await n.start(serve, Config(port=0, db={db!r}, max_connections=5000, "
        "max_connections_per_address=0))\n"
        "        print(port, flush=True)\n"
        "trio.run(main)\n"
    )
    return start([sys.executable, "-c", code])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--idle", type=int, default=1000)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))

    echo, echo_port = start([sys.executable, "-c", ECHO_SERVER])
    try:
        echo_rate = trio.run(measure, echo_client, echo_port, 2 * args.pairs, args.seconds)
    finally:
        echo.kill()

    with tempfile.TemporaryDirectory() as tmp:
        server, port = start_server(os.path.join(tmp, "bench.sqlite3"))
        try:

            async def bots(port: int, index: int, deadline: float, counter: list[int]) -> None:
                await bot(port, f"bot{index}", deadline, counter, index)

            started = time.perf_counter()
            calls_rate = trio.run(measure, bots, port, 2 * args.pairs, args.seconds)
            elapsed = time.perf_counter() - started
            per_conn = trio.run(idle_connections, port, server.pid, args.idle)
        finally:
            server.kill()

    print(f"bare trio echo:  {echo_rate:10.0f} round trips/s ({2 * args.pairs} clients)")
    print(
        f"deberc-net:      {calls_rate:10.0f} calls/s ({args.pairs} games at a time, "
        f"{elapsed:.1f} s)"
    )
    print(f"ratio:           {calls_rate / echo_rate:10.3f}")
    print(
        f"memory:          {per_conn / 1024:10.1f} KiB per idle logged-in connection "
        f"({args.idle} connections)"
    )


if __name__ == "__main__":
    main()
