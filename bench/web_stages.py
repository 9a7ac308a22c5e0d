"""Where a visitor's page waits beside a flood of many addresses: each stage of it timed,
in the client and in the server, on one monotonic clock (docs/security.md §8, "A fair
share per address").

    .venv/bin/python bench/web_stages.py [--addresses 40] [--connections 5]
        [--per-s 1.9] [--after 2] [--seconds 20] [--page-every 2]
        [--stopped 0,0] [--bare]

It starts a fresh server (a subprocess: this file again, ``--serve``) whose web face is
timed by hooks of its own, then bench/web_many_addresses.py's flood (a subprocess:
``--addresses`` loopback sources, ``--connections`` each, each asking ``/favicon.ico``
``--per-s`` a second), and ``--after`` seconds after the flood's start, for
``--seconds``, asks ``/`` from 127.0.0.1 every ``--page-every`` seconds (a new
connection each, as the other bench's other client) and the game port ``ping`` every
20 ms. ``--stopped STOP,RUN``: the server is stopped (SIGSTOP) STOP ms of every STOP +
RUN, to stand for a loaded machine's share of a core. ``--bare``: the server runs as
``serve`` without ``handle_signals`` (as bench/web_many_addresses.py's did before s49:
no ``gc.freeze`` of the start-up heap, the collector's default young threshold, trio's
own order of woken tasks); otherwise as ``deberc-net serve`` runs it.

Prints a line a page: when it was asked (seconds after the flood's start), its round
trip, then the ms from each stage to the next: its connect, the server's accept of it,
its connection's task, its request's first bytes read, the app's start, its arrival at
the pace (``request_limit.Pace``), its turn, the app's first send and end, the
client's first byte and the connection's end (a stage's ms may be below 0 where the
next is the other process's), and how many requests waited at the pace when it came;
then one JSON line: the pages' round trips (median, p90, most), the ``ping``'s (median,
p99), the server's CPU share, the load average, the flood's answers in the window, and
the collector's passes over 5 ms in the server (generation, CPU and wall ms).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_many_addresses as flood_bench  # noqa: E402

STAGES = (
    "connected",
    "accepted",
    "conn_task",
    "data_read",
    "app_start",
    "pace_in",
    "turn",
    "first_send",
    "app_end",
    "first_byte",
    "eof",
)
GC_SHOWN_S = 0.005  # a collector's pass longer than this is told
VISITOR = "127.0.0.1"


def serve_timed(out_path: str, db: str, bare: bool) -> None:
    """The server, its visitor's requests timed (``--serve``): one JSON line each to
    ``out_path``, and one for each long pass of the collector."""
    import gc

    from hypercorn.events import RawData
    from hypercorn.protocol.h11 import H11Protocol
    from hypercorn.trio.tcp_server import TCPServer

    from deberc_net.server.app import serve
    from deberc_net.server.config import Config
    from deberc_net.server.logs import configure_logging
    from deberc_net.server.web import connection_limit, request_fields, request_limit
    from deberc_net.server.web import serve as web_serve
    from deberc_net.testing import rule_book

    out = open(out_path, "w")  # noqa: SIM115 (the process's, for its lifetime)
    pages: dict[int, dict[str, Any]] = {}  # by the visitor's port

    def mark(port: int, stage: str, value: float | None = None) -> None:
        pages.setdefault(port, {"port": port}).setdefault(
            stage, time.monotonic() if value is None else value
        )

    def write(row: dict[str, Any]) -> None:
        out.write(json.dumps(row) + "\n")
        out.flush()

    accept = trio.SocketListener.accept

    async def accepted(self: trio.SocketListener) -> trio.SocketStream:
        stream = await accept(self)
        try:
            host, port = stream.socket.getpeername()[:2]
        except OSError:
            return stream
        if host == VISITOR:
            mark(port, "accepted")
        return stream

    run_within = connection_limit._run_within_allowance

    async def connection(server: TCPServer) -> None:
        try:
            host, port = server.stream.socket.getpeername()[:2]
        except OSError:
            host, port = "", 0
        if host == VISITOR:
            mark(port, "conn_task")
        try:
            await run_within(server)
        finally:
            if host == VISITOR and port in pages:
                write(pages.pop(port))

    def bound_connections() -> None:
        TCPServer.run = connection  # type: ignore[method-assign,assignment]

    handle = H11Protocol.handle

    async def handled(self: H11Protocol, event: Any) -> None:
        if isinstance(event, RawData) and self.client and self.client[0] == VISITOR:
            mark(self.client[1], "data_read")
        await handle(self, event)

    query_limit = request_fields.QueryLimit.__call__

    async def app(self: Any, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get("client")
        if not client or client[0] != VISITOR:
            await query_limit(self, scope, receive, send)
            return
        mark(client[1], "app_start")

        async def sent(message: Any) -> None:
            mark(client[1], "first_send")
            await send(message)

        try:
            await query_limit(self, scope, receive, sent)
        finally:
            mark(client[1], "app_end")

    pace = request_limit.Pace.__call__

    async def paced_here(self: Any, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get("client")
        if client and client[0] == VISITOR:
            mark(client[1], "pace_in")
            mark(client[1], "waiting", len(self.waiting))
        await pace(self, scope, receive, send)

    paced = request_limit.paced

    def paced_marked(inner: Any, config: Any) -> Any:
        async def turn(scope: Any, receive: Any, send: Any) -> None:
            client = scope.get("client")
            if client and client[0] == VISITOR:
                mark(client[1], "turn")
            await inner(scope, receive, send)

        return paced(turn, config)

    trio.SocketListener.accept = accepted  # type: ignore[method-assign]
    web_serve.bound_connections = bound_connections
    H11Protocol.handle = handled  # type: ignore[method-assign]
    request_fields.QueryLimit.__call__ = app  # type: ignore[method-assign]
    request_limit.Pace.__call__ = paced_here  # type: ignore[method-assign]
    web_serve.paced = paced_marked

    began = [0.0, 0.0]

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[:] = [time.monotonic(), time.thread_time()]
        elif (wall := time.monotonic() - began[0]) > GC_SHOWN_S:
            cpu = time.thread_time() - began[1]
            write({"gc": info["generation"], "wall": wall, "cpu": cpu, "at": began[0]})

    gc.callbacks.append(collector)
    configure_logging("warning")

    async def main() -> None:
        bound: list[int] = []
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                lambda task_status: serve(
                    Config(port=0, db=db, http_port=0),
                    rules=rule_book(),
                    http_bound=bound.append,
                    task_status=task_status,
                    handle_signals=not bare,
                )
            )
            print(port, bound[0], flush=True)

    trio.run(main)


async def paging(http_port: int, every: float, into: list[dict[str, Any]]) -> None:
    request = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    while True:
        page: dict[str, Any] = {"start": time.monotonic()}
        stream = await trio.open_tcp_stream(VISITOR, http_port)
        page["connected"] = time.monotonic()
        page["port"] = stream.socket.getsockname()[1]
        async with stream:
            await stream.send_all(request)
            answer = b""
            while data := await stream.receive_some(65536):
                if not answer:
                    page["first_byte"] = time.monotonic()
                answer += data
            page["eof"] = time.monotonic()
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
        into.append(page)
        await trio.sleep(every)


async def pinging(port: int, into: list[float]) -> None:
    while True:  # (again if the server lets an idle connection go)
        with contextlib.suppress(trio.BrokenResourceError, OSError):
            await flood_bench.pinging(port, into)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def run(args: argparse.Namespace) -> None:
    stop_ms, run_ms = (float(n) for n in args.stopped.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        timed = Path(tmp) / "timed.jsonl"
        command = [sys.executable, __file__, "--serve", str(timed), str(Path(tmp) / "b.db")]
        server = subprocess.Popen(
            [*command, *(["--bare"] if args.bare else [])],
            stdout=subprocess.PIPE,
            stderr=open(Path(tmp) / "server.log", "w"),  # noqa: SIM115
            text=True,
            cwd=ROOT,
        )
        assert server.stdout is not None
        port, http_port = (int(p) for p in server.stdout.readline().split())
        flood = stopper = None
        try:
            flood_at = time.monotonic()
            flood = subprocess.Popen(
                [sys.executable, "-c", flood_bench.FLOOD, str(http_port), str(args.addresses),
                 str(args.per_s), "/favicon.ico", str(args.connections)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            if stop_ms:
                stopper = subprocess.Popen(
                    [sys.executable, "-c", STOPPER, str(server.pid), str(stop_ms), str(run_ms)]
                )
            await trio.sleep(args.after)
            pages: list[dict[str, Any]] = []
            pings: list[float] = []
            before = flood_bench.flood_counts(flood)
            cpu, began = flood_bench.cpu_seconds(server.pid), time.monotonic()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(pinging, port, pings)
                nursery.start_soon(paging, http_port, args.page_every, pages)
                await trio.sleep(args.seconds)
                nursery.cancel_scope.cancel()
            took = time.monotonic() - began
            cpu = (flood_bench.cpu_seconds(server.pid) - cpu) / took
            answered = flood_bench.flood_counts(flood).get("200", 0) - before.get("200", 0)
        finally:
            if stopper is not None:
                stopper.kill()
                stopper.wait()
                os.kill(server.pid, signal.SIGCONT)
            if flood is not None:
                flood.kill()
                flood.wait()
            await trio.sleep(1)  # (the last page's row written)
            server.kill()
            server.wait()
        rows = [json.loads(line) for line in timed.read_text().splitlines()]
    timed_pages = {row["port"]: row for row in rows if "port" in row}
    for page in pages:
        stages = {**page, **timed_pages.get(page["port"], {})}
        told = [f"@{page['start'] - flood_at:5.1f}s", f"{page['eof'] - page['start']:.3f}s"]
        last = page["start"]
        for stage in STAGES:
            if stage in stages:
                told.append(f"{stage} {1000 * (stages[stage] - last):+.0f}")
                last = stages[stage]
        told.append(f"waiting {stages.get('waiting')}")
        print(" ".join(told))
    trips = [page["eof"] - page["start"] for page in pages]
    collections = [row for row in rows if "gc" in row and row["at"] >= began]
    print(
        json.dumps(
            {
                "bare": args.bare,
                "stopped": args.stopped,
                "after_s": args.after,
                "pages": len(trips),
                "page_p50_ms": round(1000 * statistics.median(trips), 1),
                "page_p90_ms": round(1000 * percentile(trips, 0.9), 1),
                "page_most_ms": round(1000 * max(trips), 1),
                "ping_p50_ms": round(1000 * percentile(pings, 0.5), 2),
                "ping_p99_ms": round(1000 * percentile(pings, 0.99), 1),
                "server_cpu_share": round(cpu, 3),
                "load_average": os.getloadavg()[0],
                "flood_answered_per_s": round(answered / took, 1),
                "collections_over_5ms": [
                    [row["gc"], round(1000 * row["cpu"]), round(1000 * row["wall"])]
                    for row in collections
                ],
            }
        )
    )


STOPPER = """
import os, signal, sys, time
pid, stop, run = int(sys.argv[1]), float(sys.argv[2]) / 1000, float(sys.argv[3]) / 1000
while True:
    time.sleep(run)
    os.kill(pid, signal.SIGSTOP)
    time.sleep(stop)
    os.kill(pid, signal.SIGCONT)
"""


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        serve_timed(sys.argv[2], sys.argv[3], "--bare" in sys.argv[4:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=40)
    parser.add_argument("--connections", type=int, default=5, help="each address's")
    parser.add_argument("--per-s", type=float, default=1.9, help="each connection's")
    parser.add_argument("--after", type=float, default=2.0, help="s after the flood's start")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--page-every", type=float, default=2.0)
    parser.add_argument("--stopped", default="0,0", metavar="STOP_MS,RUN_MS")
    parser.add_argument("--bare", action="store_true", help="serve without handle_signals")
    trio.run(run, parser.parse_args())


if __name__ == "__main__":
    main()
