"""One server process against a bare trio line-echo server, driven by the same harness.

    .venv/bin/python bench/server.py [--tables 10,100] [--seconds 1] [--repeat 5] [--idle 300]
                                     [--think-ms 0] [--paced 100:100] [--arrival-order]

For each table count N it measures, ``--repeat`` times (echo and server alternating, so a
slow spell on the machine hits both), a window of ``--seconds`` that starts once every
table (echo: every client) has been served once, and a short warm-up after that:

- the echo baseline: a bare trio line-echo server (a subprocess) and N clients of this
  process, each with one line in flight (send a line, wait for its echo);
- deberc-net: ``deberc-net serve`` (a subprocess, fresh SQLite file) and N busy
  two-player tables: 2N machine-style bots of this process that seek games and answer
  every ``ask`` with a random legal call, so each table has one request in flight.

Both are driven by the same client code (bench/lines.py) in the same process, each
reading its reply with deberc_net/protocol/wire.py's ``parse_line`` (the one parser of
the machine style), and both servers are single trio processes started the same way.
For each it reports round trips (calls) per second, the server process's own CPU time
per round trip (utime + stime from /proc, in µs), and the latency from sending a call
to the table's next ``ask`` arriving (the echo: to the echo arriving), p50 and p99 in
ms; each figure as min and median over the repeats, and the ratios deberc-net ÷ echo
of the medians.

``--think-ms T``: every bot (echo client) waits T ms on average (0.5 T to 1.5 T) before
it answers, so the load is offered at a pace (N tables, about N / T calls a second)
rather than as fast as served: with no thinking, N calls are always in flight and the
p50 is about N ÷ (calls a second) (Little's law), whatever a call costs; with it, p50 and
p99 are what one call waits at that load. The latency still counts from the answer.

``--paced N:T`` (default 100:100): each round also measures N tables (echo: clients)
thinking T ms, whatever ``--think-ms`` is, reported apart (``paced`` in the JSON, its
p99 beside the echo's): issue #9's p99 at 100 tables is a paced figure, since at N
calls always in flight the p99 is the queue's (``--paced 0``: none).

The harness's own collector is frozen and off during each counted window (both kinds
alike): a collection in the bench process (200 bots' garbage) would hold up the calls
in flight and count as the server's latency.

``--arrival-order``: the harness (this process) and the echo server run trio's woken
tasks first come, first served, as deberc-net's server does
(deberc_net/server/run_order.py); by default they keep trio's coin (each batch in wake
order or reversed at random), so figures compare with the history. At 100 busy tables
the harness's own order is part of every latency (the bot's read of its ask waits for
the other bots woken with it), echo's and server's alike.

Then ``--repeat`` fresh servers of each kind, one after another, each get ``--idle``
connections that stay idle (deberc-net's logged in, every login sent before a reply
is read) and report the growth of their resident memory per connection (min and
median), counted from after their first 20 (``IDLE_WARM_UP``: what the first
connections make once is no connection's).

Prints a short text summary (medians), then ONE JSON line with every figure (and the
machine), so runs can be compared over time. Everything is on 127.0.0.1, on ports the
system picks; every server is killed.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import trio
from lines import Lines, machine, status_kib  # bench/lines.py

from deberc_net.protocol.wire import parse_line
from deberc_net.server.run_order import serve_in_arrival_order

WARM_UP_S = 0.5
# every client served once (each table dealt and asking) before a window counts: 200
# bots logging in and seeking take longer than the warm-up, and a window that counted
# them would charge logins and seating to the calls
READY_LIMIT_S = 30.0

ARRIVAL_ORDER = (
    "from deberc_net.server.run_order import serve_in_arrival_order\nserve_in_arrival_order()\n"
)
ECHO_SERVER = """
import trio
async def handle(stream):
    buf = b""
    try:
        while True:
            data = await stream.receive_some(65536)
            if not data:
                return
            buf += data
            if b"\\n" in buf:
                *lines, buf = buf.split(b"\\n")
                await stream.send_all(b"".join(line + b"\\r\\n" for line in lines))
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
async def main():
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    await trio.serve_listeners(handle, listeners)
trio.run(main)
"""


def deberc_server_code(db: str) -> str:
    return (
        "from functools import partial\n"
        "import trio\n"
        "from deberc_net.server.app import serve\n"
        "from deberc_net.server.config import Config\n"
        "from deberc_net.server.logs import configure_logging\n"
        "configure_logging('warning')\n"
        "async def main():\n"
        "    async with trio.open_nursery() as n:\n"
        f"        port = await n.start(partial(serve, Config(port=0, db={db!r}, "
        "max_connections=5000, max_connections_per_address=0), handle_signals=True))\n"
        "        print(port, flush=True)\n"
        "trio.run(main)\n"
    )


class Load:
    """What a load counts: round trips (calls) and their latencies, while ``counting``."""

    def __init__(self) -> None:
        self.counting = False
        self.done = 0
        self.latencies: list[float] = []
        self.sent_at: dict[str, float] = {}  # table id: when its last call was sent
        self.ready: set[str] = set()  # the tables (echo: clients) served at least once
        # (sent, latency, table) of each call counted, when kept (server_calls.py's
        # --tail: which calls are slow, and what the server did meanwhile)
        self.samples: list[tuple[float, float, str]] | None = None

    def record(self, latency: float, sent: float = 0.0, table: str = "") -> None:
        if self.counting:
            self.done += 1
            self.latencies.append(latency)
            if self.samples is not None:
                self.samples.append((sent, latency, table))


async def echo_client(
    port: int, index: int, deadline: float, load: Load, think: float = 0.0
) -> None:
    """``think``: seconds (on average) waited before each line, as a bot would."""
    rng = random.Random(index)
    lines = await Lines.open(port)
    while trio.current_time() < deadline:
        if think:
            await trio.sleep(think * rng.uniform(0.5, 1.5))
        sent = trio.current_time()
        await lines.send("9h seq=1")
        with trio.move_on_at(deadline):
            parse_line(await lines.line())  # read as a bot reads its ask: the same harness
            load.record(trio.current_time() - sent)
            load.ready.add(str(index))
    await lines.aclose()


async def bot(
    port: int,
    name: str,
    deadline: float,
    load: Load,
    seed: int,
    seek: str = "seek 2",
    style: str = "style machine",
    think: float = 0.0,
) -> None:
    """A machine-style bot: seeks two-player games (``seek``: the command that asks for
    one), answers every ``ask`` at random. ``style``: the line(s) that choose its style
    (``style machine tell=asks``: told only its asks and the match's end). ``think``:
    seconds (on average) it waits before each answer (the latency counts from the answer)."""
    rng = random.Random(seed)
    lines = await Lines.open(port)
    await lines.send(style)
    await lines.send(f"login {name}")
    await lines.send(seek)
    while trio.current_time() < deadline:
        line = ""
        with trio.move_on_at(deadline):  # a partner may stop first: never wait past the end
            try:
                line = await lines.line()
            except EOFError:
                return
        if line.startswith("ask "):
            fields = parse_line(line).fields  # the one parser of the machine style
            table = fields["table"]
            load.ready.add(table)
            sent = load.sent_at.pop(table, None)
            if sent is not None:
                load.record(trio.current_time() - sent, sent, table)
            if think:
                await trio.sleep(think * rng.uniform(0.5, 1.5))
            load.sent_at[table] = trio.current_time()
            await lines.send(f"{rng.choice(fields['legal'].split(','))} seq={fields['seq']}")
        elif line.startswith("event ") and "kind=match-end" in line:
            await lines.send(seek)
    await lines.aclose()


def echoes(
    port: int, n: int, deadline: float, load: Load, nursery: trio.Nursery, think: float = 0.0
) -> None:
    for i in range(n):
        nursery.start_soon(echo_client, port, i, deadline, load, think)


def bots(
    port: int,
    n: int,
    prefix: str,
    deadline: float,
    load: Load,
    nursery: trio.Nursery,
    think: float = 0.0,
) -> None:
    """N busy two-player tables: 2N bots (named afresh each round)."""
    for i in range(2 * n):
        nursery.start_soon(partial(bot, port, f"{prefix}{i}", deadline, load, i, think=think))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


async def all_ready(load: Load, count: int) -> None:
    """Wait until ``count`` tables (echo: clients) have each been served once (at most
    ``READY_LIMIT_S``), then the warm-up."""
    with trio.move_on_after(READY_LIMIT_S):
        while len(load.ready) < count:
            await trio.sleep(0.05)
    await trio.sleep(WARM_UP_S)


async def window(
    pid: int, clients: Callable[[float, Load, trio.Nursery], None], seconds: float, count: int
) -> dict[str, float]:
    """Start the clients, wait till all ``count`` tables (echo: clients) are served and
    warm up, then count one window of ``seconds``; the clients are cancelled after it.
    The harness's collector is off in the window (what its clients made so far frozen):
    its pauses are not the server's latency."""
    load = Load()
    async with trio.open_nursery() as nursery:
        clients(math.inf, load, nursery)
        await all_ready(load, count)
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            own0 = time.process_time()
            load.counting, cpu0, t0 = True, cpu_seconds(pid), trio.current_time()
            await trio.sleep(seconds)
            load.counting = False
            cpu, elapsed = cpu_seconds(pid) - cpu0, trio.current_time() - t0
            own = time.process_time() - own0
        finally:
            gc.enable()
            gc.unfreeze()
        nursery.cancel_scope.cancel()
    done = load.done
    return {
        "per_s": done / elapsed,
        "cpu_us_per": 1e6 * cpu / done if done else float("nan"),
        # the harness's own CPU (this process): near a whole core, it is what limits
        "client_cpu_share": own / elapsed,
        "p50_ms": 1000 * percentile(load.latencies, 0.5),
        "p99_ms": 1000 * percentile(load.latencies, 0.99),
    }


def start(code: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def stop(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()


# connections opened (and kept) before the idle figure's baseline: what the first ones
# make once (the login path's first use, the server's dicts growing) is no connection's
IDLE_WARM_UP = 20


async def _open_idle(port: int, count: int, logged_in: bool, prefix: str) -> list[Lines]:
    """``count`` connections, each served once (logged in, or its line echoed)."""
    opened = []
    for i in range(count):
        lines = await Lines.open(port)
        await lines.send(f"style machine\nlogin {prefix}{i}" if logged_in else "hello")
        opened.append(lines)
    for lines in opened:  # every connection served: its login answered, its line echoed
        if logged_in:
            await lines.login_reply()
        else:
            await lines.line()
    return opened


async def idle_rss(port: int, pid: int, count: int, logged_in: bool) -> float:
    """Bytes of resident memory the server grows by per idle connection, after
    IDLE_WARM_UP connections alike."""
    warm = await _open_idle(port, IDLE_WARM_UP, logged_in, "warm")
    await trio.sleep(0.2)
    before = status_kib(pid, "VmRSS")
    opened = await _open_idle(port, count, logged_in, "idle")
    await trio.sleep(0.3)
    after = status_kib(pid, "VmRSS")
    for lines in warm + opened:
        await lines.aclose()
    return (after - before) * 1024 / count


def summary(values: list[float]) -> dict[str, float]:
    return {"min": round(min(values), 2), "median": round(statistics.median(values), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,100", help="table counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=1.0, help="each counted window")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--idle", type=int, default=300, help="idle connections (0: none)")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="each bot (echo client) waits this long on average before it answers: a"
        " load offered at a pace, not as fast as served (p99 then is the wait of a call,"
        " not the queue of N calls in flight)",
    )
    parser.add_argument(
        "--paced",
        default="100:100",
        help="TABLES:THINK_MS: also measure so many tables thinking so long (0: none)",
    )
    parser.add_argument(
        "--arrival-order",
        action="store_true",
        help="the harness and the echo server serve woken tasks first come, first served,"
        " as deberc-net's server does (default: trio's coin, as before)",
    )
    args = parser.parse_args()
    try:
        sizes = [int(n) for n in args.tables.split(",")]
    except ValueError:
        parser.error("--tables: numbers separated by commas, like 10,100")
    paced: tuple[int, float] | None = None
    if args.paced not in ("", "0"):
        try:
            tables, think_ms = args.paced.split(":")
            paced = (int(tables), float(think_ms))
        except ValueError:
            parser.error("--paced: TABLES:THINK_MS, like 100:100 (or 0)")
        if paced[0] < 1 or paced[1] <= 0:
            parser.error("--paced: at least 1 table and more than 0 ms")
    if not sizes or min(sizes) < 1 or args.seconds <= 0 or args.repeat < 1 or args.idle < 0:
        parser.error("--tables and --repeat need at least 1, --seconds more than 0")
    if args.think_ms < 0:
        parser.error("--think-ms: 0 or more")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))

    # each row: its key in the JSON, its tables, its thinking (s)
    rows = [(f"tables_{n}", n, args.think_ms / 1000) for n in sizes]
    if paced is not None:
        rows.append(("paced", paced[0], paced[1] / 1000))
    runs: dict[tuple[str, str], list[dict[str, float]]] = {}
    echo_code = ECHO_SERVER
    if args.arrival_order:
        serve_in_arrival_order()  # this process's loop: every trio.run below
        echo_code = ARRIVAL_ORDER + ECHO_SERVER
    with tempfile.TemporaryDirectory() as tmp:
        echo, echo_port = start(echo_code)
        server, port = start(deberc_server_code(os.path.join(tmp, "bench.sqlite3")))
        try:
            for round_no in range(args.repeat):
                for key, n, think in rows:
                    loads = (
                        ("echo", echo.pid, partial(echoes, echo_port, n, think=think)),
                        (
                            "server",
                            server.pid,
                            partial(bots, port, n, f"b{round_no}{key[0]}x", think=think),
                        ),
                    )
                    for kind, pid, clients in loads:
                        measured = trio.run(window, pid, clients, args.seconds, n)
                        runs.setdefault((kind, key), []).append(measured)
        finally:
            stop(echo)
            stop(server)

        # each kind's figure from ``--repeat`` fresh servers: one burst of logins reads
        # 6 to 8 KiB a connection on the same code, as the heap happens to be laid out
        idle: dict[str, list[float]] = {}
        for round_no in range(args.repeat if args.idle else 0):
            echo, echo_port = start(ECHO_SERVER)
            try:
                rss = trio.run(idle_rss, echo_port, echo.pid, args.idle, False)
                idle.setdefault("echo", []).append(rss)
            finally:
                stop(echo)
            db = os.path.join(tmp, f"idle{round_no}.sqlite3")
            server, port = start(deberc_server_code(db))
            try:
                rss = trio.run(idle_rss, port, server.pid, args.idle, True)
                idle.setdefault("server", []).append(rss)
            finally:
                stop(server)

    result: dict[str, Any] = {
        "bench": "server",
        "seconds": args.seconds,
        "repeat": args.repeat,
        "think_ms": args.think_ms,
        "arrival_order": args.arrival_order,
        "machine": machine(),
    }
    for name, n, think in rows:
        row: dict[str, Any] = {"tables": n, "think_ms": round(1000 * think, 3)}
        for kind in ("echo", "server"):
            taken = runs[kind, name]
            row[kind] = {key: summary([m[key] for m in taken]) for key in taken[0]}
        echo_rate = row["echo"]["per_s"]["median"]
        row["calls_ratio_median"] = round(row["server"]["per_s"]["median"] / echo_rate, 3)
        echo_cpu = row["echo"]["cpu_us_per"]["median"]
        row["cpu_ratio_median"] = round(echo_cpu / row["server"]["cpu_us_per"]["median"], 3)
        result[name] = row
    if idle:
        result["idle_bytes_per_connection"] = {k: summary(v) for k, v in idle.items()}
        result["idle_connections"] = args.idle
    for name, n, think in rows:  # a text summary (medians), then the JSON line
        row = result[name]
        label = f"{n:4d} tables" + (f", thinking {1000 * think:.0f} ms" if think else "")
        for kind in ("echo", "server"):
            f = {key: value["median"] for key, value in row[kind].items()}
            print(
                f"{label}  {kind:6s} {f['per_s']:8.0f}/s  {f['cpu_us_per']:7.1f} µs CPU"
                f"  p50 {f['p50_ms']:6.1f} ms  p99 {f['p99_ms']:6.1f} ms"
                f"  client {100 * f['client_cpu_share']:3.0f} % of a core"
            )
        calls, cpu = row["calls_ratio_median"], row["cpu_ratio_median"]
        print(f"{label}  ratios: calls/s {calls}, CPU {cpu}")
    for kind, values in idle.items():
        low, middle = min(values) / 1024, statistics.median(values) / 1024
        print(
            f"idle {kind:6s} {middle:5.1f} KiB per connection (min {low:.1f}; {args.idle}"
            f" connections, {len(values)} fresh servers)"
        )
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
