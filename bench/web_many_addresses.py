"""Many addresses, each just under its web allowance: what they cost the server, and what
another client meanwhile sees (docs/security.md §8, "Many addresses").

    .venv/bin/python bench/web_many_addresses.py [--addresses 200] [--per-s 9.5]
        [--path /favicon.ico] [--connections 1] [--page-every 0.25] [--seconds 5]
        [--repeat 3] [--settle 1] [--server-setting k=v ...]

It starts one fresh server (a subprocess, fresh SQLite file, the web face on a free
port, every web limit at its default unless ``--server-setting`` changes one), run as
``deberc-net serve`` runs it (``handle_signals``: its start-up heap frozen out of the
collector, its young collections rarer, its woken tasks served in arrival order,
server/running.py; as bench/server.py does). Before, it ran without them: a full
collection walked the start-up heap, 68 to 102 ms of CPU each, 2 to 4 of them in 30 s
of a flood, each stopping the loop up to 0.79 s at load 16 to 18 (docs/security.md §8).
Then
``--repeat`` pairs of windows of ``--seconds``: one quiet, one with the flood. The flood
is a subprocess (its CPU is not this one's, which measures): ``--addresses`` loopback
sources (127.0.0.2, 127.0.0.3, …), each with ``--connections`` keep-alive connections
each asking ``--path`` ``--per-s`` times a second, steadily (one connection at 9.5: the
allowance's 10 a second, its burst never spent), the next request sent when its time
comes and the answer before it is in. A flood's window begins once each of its
connections has had an answer (at most READY_MOST_S), then ``--settle`` seconds: it
began 2 s after the flood's start, and on a loaded machine the server was still
accepting and answering the flood's first requests (200 connections at once: 1.6 to
3.5 s before each had an answer, at load 8 to 16), so the window timed the flood's
start, the other client's first page waiting behind them in the kernel's accept queue
(docs/security.md §8).

In each window this process, the other client, asks the game port ``ping`` (a
connection of its own, one every 20 ms) and the web face ``/`` from 127.0.0.1 (one
every ``--page-every`` seconds after the last came, 0.25: within its own allowance),
and counts the server's CPU (/proc). Prints one JSON line: per side, min and median
of the server's CPU share (seconds a second), the ping's and the page's round trip
(median, p99, ms; ``none answered`` when no page came in the window), the p99 of its
page's connect alone (a full accept queue: the kernel resends a dropped SYN after 1 s),
how many pages came, and the flood's answers a second by status (counted by the
flood's process as it is asked, a little past the window's ends: a loaded machine's
answer to that ask comes late); of a flood's window, how many of its connections were
open and answered at its start (``flood_open_at_start``) and how long they took to be
(``flood_opening_s``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
PING_EVERY_S = 0.02
PAGE_EVERY_S = 0.25
READY_MOST_S = 30.0  # the longest wait for the flood's connections to be answered

FLOOD = r"""
import json, random, sys, time, trio
port, count, per_s, path = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
connections = int(sys.argv[5])
REQUEST = f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
counts = {}
opened = [0]  # connections open that have had an answer

async def answer(stream, buffered):
    while b"\r\n\r\n" not in buffered:
        data = await stream.receive_some(65536)
        if not data:
            raise EOFError
        buffered += data
    head, _, rest = buffered.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1].decode()
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        data = await stream.receive_some(65536)
        if not data:
            raise EOFError
        rest += data
    counts[status] = counts.get(status, 0) + 1
    return rest[length:], b"connection: close" in head.lower()

async def address(i):
    source = f"127.0.0.{2 + i}"
    next_at = trio.current_time() + random.random() / per_s
    while True:
        sock = trio.socket.socket()
        await sock.bind((source, 0))
        try:
            await sock.connect(("127.0.0.1", port))
        except OSError:
            counts["refused"] = counts.get("refused", 0) + 1
            sock.close()
            await trio.sleep(1 / per_s)
            continue
        stream = trio.SocketStream(sock)
        buffered = b""
        answered = False
        try:
            while True:
                await trio.sleep_until(next_at)
                next_at = max(next_at + 1 / per_s, trio.current_time())
                await stream.send_all(REQUEST)
                buffered, closing = await answer(stream, buffered)
                if not answered:
                    answered = True
                    opened[0] += 1
                if closing:
                    break
        except (EOFError, trio.BrokenResourceError, OSError):
            counts["dropped"] = counts.get("dropped", 0) + 1
        if answered:
            opened[0] -= 1
        await stream.aclose()

async def report():
    while True:
        line = await trio.to_thread.run_sync(sys.stdin.readline)
        if not line:
            return
        print(json.dumps({**counts, "open": opened[0]}), flush=True)

async def main():
    async with trio.open_nursery() as nursery:
        for i in range(count):
            for _ in range(connections):
                nursery.start_soon(address, i)
        await report()
        nursery.cancel_scope.cancel()

trio.run(main)
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    """(None answered in the window: the window's length, what the wait was at least.)"""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else math.inf


def start_server(db: str, settings: list[str]) -> tuple[subprocess.Popen[str], int, int]:
    extra = "".join(f", {setting}" for setting in settings)
    code = (
        "import trio\n"
        "from deberc_net.server.app import serve\n"
        "from deberc_net.server.config import Config\n"
        "from deberc_net.server.logs import configure_logging\n"
        "from deberc_net.testing import rule_book\n"
        "configure_logging('warning')\n"
        "async def main():\n"
        "    bound = []\n"
        "    async with trio.open_nursery() as n:\n"
        f"        port = await n.start(lambda task_status: serve(Config(port=0, db={db!r}, "
        f"http_port=0{extra}), rules=rule_book(), http_bound=bound.append, "
        "task_status=task_status, handle_signals=True))\n"
        "        print(port, bound[0], flush=True)\n"
        "trio.run(main)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=open(f"{db}.log", "w"),  # noqa: SIM115 (the server's, for its lifetime)
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    port, http_port = (int(p) for p in proc.stdout.readline().split())
    return proc, port, http_port


async def pinging(port: int, into: list[float]) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    buffered = b""
    async with stream:
        await stream.send_all(b"style machine\r\n")
        while True:
            sent = trio.current_time()
            await stream.send_all(b"ping\r\n")
            while b"pong" not in buffered:
                buffered += await stream.receive_some(65536)
            into.append(trio.current_time() - sent)
            buffered = buffered.rpartition(b"pong")[2]
            await trio.sleep(PING_EVERY_S)


async def paging(http_port: int, every: float, into: list[float], connects: list[float]) -> None:
    request = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    while True:
        sent = trio.current_time()
        stream = await trio.open_tcp_stream("127.0.0.1", http_port)
        connects.append(trio.current_time() - sent)  # (the kernel's: a full accept queue)
        async with stream:
            await stream.send_all(request)
            answer = b""
            while data := await stream.receive_some(65536):
                answer += data
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
        into.append(trio.current_time() - sent)
        await trio.sleep(every)


async def window(
    pid: int,
    port: int,
    http_port: int,
    args: argparse.Namespace,
    flood: subprocess.Popen[str] | None,
) -> dict[str, float]:
    pings: list[float] = []
    pages: list[float] = []
    connects: list[float] = []
    before: dict[str, int] = {}
    if flood is not None:
        before = flood_counts(flood)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pinging, port, pings)
        nursery.start_soon(paging, http_port, args.page_every, pages, connects)
        cpu0, t0 = cpu_seconds(pid), time.monotonic()
        await trio.sleep(args.seconds)
        cpu, elapsed = cpu_seconds(pid) - cpu0, time.monotonic() - t0
        nursery.cancel_scope.cancel()
    result = {
        **({} if flood is None else {"flood_open_at_start": before["open"]}),
        "server_cpu_share": cpu / elapsed,
        "ping_p50_ms": 1000 * percentile(pings, 0.5),
        "ping_p99_ms": 1000 * percentile(pings, 0.99),
        "page_p50_ms": 1000 * percentile(pages, 0.5),
        "page_p99_ms": 1000 * percentile(pages, 0.99),
        "page_connect_p99_ms": 1000 * percentile(connects, 0.99),
        "pages_answered": len(pages),
        "load_average": os.getloadavg()[0],
    }
    if flood is not None:
        after = flood_counts(flood)
        for status in after.keys() - {"open"}:
            result[f"flood_{status}_per_s"] = (after[status] - before.get(status, 0)) / elapsed
    return result


def summary(runs: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    keys = sorted({key for run in runs for key in run})

    def told(value: float) -> float | str:  # (JSON has no infinity)
        return round(value, 3) if math.isfinite(value) else "none answered"

    return {
        key: {
            "min": told(min(run.get(key, 0.0) for run in runs)),
            "median": told(statistics.median(run.get(key, 0.0) for run in runs)),
        }
        for key in keys
    }


def flood_counts(flood: subprocess.Popen[str]) -> dict[str, int]:
    assert flood.stdin is not None and flood.stdout is not None
    flood.stdin.write("\n")
    flood.stdin.flush()
    counts: dict[str, int] = json.loads(flood.stdout.readline())
    return counts


async def flood_opened(flood: subprocess.Popen[str], connections: int) -> float:
    """Wait until each of the flood's ``connections`` has had an answer (at most
    READY_MOST_S): how long it took."""
    began = trio.current_time()
    while trio.current_time() - began < READY_MOST_S:
        if flood_counts(flood)["open"] >= connections:
            break
        await trio.sleep(0.1)
    return trio.current_time() - began


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server, port, http_port = start_server(str(Path(tmp) / "b.sqlite3"), args.server_setting)
        flood = None
        try:
            quiet, flooded = [], []
            for _ in range(args.repeat):
                quiet.append(await window(server.pid, port, http_port, args, None))
                flood = subprocess.Popen(
                    [sys.executable, "-c", FLOOD, str(http_port), str(args.addresses),
                     str(args.per_s), args.path, str(args.connections)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                )  # fmt: skip
                # its connections all opened and answered once (a loaded machine's
                # server takes seconds over 200 at once: a window begun 2 s after the
                # flood's start timed that, not the flood), then its pace reached
                opening = await flood_opened(flood, args.addresses * args.connections)
                await trio.sleep(args.settle)
                flooded.append(await window(server.pid, port, http_port, args, flood))
                flooded[-1]["flood_opening_s"] = opening
                flood.kill()
                flood.wait()
                flood = None
                await trio.sleep(1)
        finally:
            if flood is not None:
                flood.kill()
            server.kill()
            server.wait()
    print(
        json.dumps(
            {
                "addresses": args.addresses,
                "per_s": args.per_s,
                "path": args.path,
                "connections": args.connections,
                "page_every": args.page_every,
                "settings": args.server_setting,
                "quiet": summary(quiet),
                "flooded": summary(flooded),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=200)
    parser.add_argument("--per-s", type=float, default=9.5)
    parser.add_argument("--path", default="/favicon.ico")
    parser.add_argument("--connections", type=int, default=1, help="each address's")
    parser.add_argument("--page-every", type=float, default=PAGE_EVERY_S)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--settle", type=float, default=1.0, help="s after the flood's connections opened"
    )
    parser.add_argument("--server-setting", action="append", default=[], metavar="K=V")
    trio.run(run, parser.parse_args())


if __name__ == "__main__":
    main()
