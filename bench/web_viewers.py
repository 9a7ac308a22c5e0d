"""Does watching slow the game? Calls/s and server CPU per call, 0 vs N live web viewers.

    .venv/bin/python bench/web_viewers.py [--tables 10] [--viewers 50] [--seconds 5]
        [--repeat 6] [--no-deflate]

It starts one fresh ``deberc-net`` server (a subprocess, fresh SQLite file, the web face
on a free port) and ``2 * tables`` machine-style bots in this process (bench/server.py's
``bot``: they seek two-player games and answer every ``ask`` with a random legal call).
The bots play to 100000001 (``to-100000001``, a target option this bench adds to the
server's rules; a table here reached 100001 in 58 s, within a run) and the server's
``max_match_deals`` is lifted (at its 200 a bots' match here ended within a second or
two, and the viewers measured reopened sockets again), so each table plays deal after
deal for the whole run: a viewer watches one table throughout, as a person watches a
match, instead of reconnecting every couple of seconds as short matches would make it
(that measured reconnects, not watching: ``viewer_reopened_per_s`` says if it does).

Once every table plays, it counts ``--repeat`` pairs of windows of ``--seconds``: one
without viewers, then one with them: a fresh process (bench/web_viewer_clients.py:
plain sockets under one ``selectors`` loop, offering ``permessage-deflate`` as a
browser does) opens N live sockets (``/live/table/T``, the
table page's), spread over the tables, and reads every message; it is stopped after
the window. Each window counts answered calls, the CPU time of the server, of this
process (the bots) and of the viewers' process, what the viewers got, and the load
average.

Prints one JSON line: per side, the min and median of calls/s, server CPU ms per 1000
calls, each process's CPU share (seconds of CPU per second), the viewers' lines,
messages (the hand-size messages among them), reopened sockets and hand-size messages
per second; and the ratios with ÷ without,
of the medians and of each pair (a pair's windows are seconds apart, so a slow spell
of the machine weighs on both), with their median. The issue's goal: calls/s within 10%;
the server's CPU per call, the steadier figure on a shared machine, within about 10%.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent))
import web_task_cpu  # bench/web_task_cpu.py
from lines import machine  # bench/lines.py
from server import Load, bot, cpu_seconds  # bench/server.py: the same bots, the same load

HERE = Path(__file__).resolve().parent

WARM_UP_S = 1.0
SETTLE_S = 0.5  # after the viewers came (or went), before counting
Phase = dict[str, float]
TARGET = 100000001  # no match ends within a run: the viewers watch the same tables
MOST_DEALS = 10**9  # nor by the server's most deals a match (max_match_deals)
# a page's first message holds its match's sheet, a line a deal: some thousands of deals
# by a run's end, past the 256 KiB a page may have queued (it was dropped, and reopened)
OUTBOX = 64 * 1024 * 1024
SEEK = f"seek 2 moscow to-{TARGET}"


def start_server(db: str, task_cpu: str | None) -> tuple[subprocess.Popen[str], int, int]:
    """The server, its game and web ports; with ``task_cpu``, a file where it writes the
    CPU of its web tasks and of all (bench/web_task_cpu.py). Its viewers stand for as
    many browsers but all come from 127.0.0.1: the per-address limits are off."""
    code = (
        "import sys, trio\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "from web_task_cpu import report\n"
        "from deberc_net.plugins.house.targets import Target\n"
        "from deberc_net.plugins.manager import RuleBook\n"
        "from deberc_net.server.app import serve\n"
        "from deberc_net.server.config import Config\n"
        "from deberc_net.server.logs import configure_logging\n"
        "configure_logging('warning')\n"
        f"rules = RuleBook.load(extra=[Target({TARGET})])\n"
        "async def main():\n"
        "    bound = []\n"
        "    async with trio.open_nursery() as n:\n"
        f"        port = await n.start(lambda task_status: serve(Config(port=0, db={db!r}, "
        "http_port=0, max_connections=5000, max_connections_per_address=0, "
        f"max_match_deals={MOST_DEALS}, outbox_bytes={OUTBOX}, web_viewers_per_address=0, "
        "web_requests_per_address_burst=0, web_connections_per_address=0), rules=rules, "
        "http_bound=bound.append, task_status=task_status))\n"
        "        print(port, bound[0], flush=True)\n"
        + (f"        n.start_soon(report, {task_cpu!r})\n" if task_cpu else "")
        + "trio.run(main)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        # its log to a file: a pipe nobody reads fills, and the server blocks writing to it
        stderr=open(f"{db}.log", "w"),  # noqa: SIM115 (the server's, for its lifetime)
        text=True,
    )
    assert proc.stdout is not None
    port, http_port = (int(p) for p in proc.stdout.readline().split())
    return proc, port, http_port


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def load_average() -> float:
    return os.getloadavg()[0]


async def playing_tables(http_port: int, count: int) -> list[int]:
    """The ids of the playing tables from /api/tables, once ``count`` of them play (a
    plain HTTP/1.0 GET: no client library)."""
    while True:
        stream = await trio.open_tcp_stream("127.0.0.1", http_port)
        async with stream:
            await stream.send_all(b"GET /api/tables HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while chunk := await stream.receive_some(65536):
                data += chunk
        tables = json.loads(data.split(b"\r\n\r\n", 1)[1])["tables"]
        playing = [t["id"] for t in tables if t["state"] == "playing"]
        if len(playing) >= count:
            return playing
        await trio.sleep(0.05)


class ViewerProcess:
    """bench/web_viewer_clients.py, told 'mark' to report its counts."""

    def __init__(self, http_port: int, viewers: int, tables: list[int], args: Any) -> None:
        command = [sys.executable, str(HERE / "web_viewer_clients.py"), str(http_port)]
        command += [str(viewers), ",".join(map(str, tables))]
        command += ["--no-deflate"] if args.no_deflate else []
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the viewers' process ended")
        return line

    def mark(self) -> dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write("mark\n")
        self.proc.stdin.flush()
        marked: dict[str, float] = json.loads(self.line())
        return marked

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


async def measure(
    pid: int, load: Load, seconds: float, watchers: ViewerProcess | None, task_cpu: str | None
) -> Phase:
    """Count one window of ``seconds``."""
    marked = watchers.mark() if watchers else {}
    load.done, load.counting, load_before = 0, True, load_average()
    tasks0 = web_task_cpu.read(task_cpu) if task_cpu else (0.0, 0.0)
    t0, cpu0, own0 = trio.current_time(), cpu_seconds(pid), own_cpu_seconds()
    await trio.sleep(seconds)
    load.counting = False
    elapsed = trio.current_time() - t0
    cpu, own = cpu_seconds(pid) - cpu0, own_cpu_seconds() - own0
    tasks = web_task_cpu.read(task_cpu) if task_cpu else (0.0, 0.0)
    web_tasks, all_tasks = tasks[0] - tasks0[0], tasks[1] - tasks0[1]
    got = watchers.mark() if watchers else {}
    counted = load.done
    phase = {
        "calls_per_s": counted / elapsed,
        "server_cpu_ms_per_1000_calls": 1e6 * cpu / counted if counted else float("nan"),
        "server_cpu_share": cpu / elapsed,
        "bots_cpu_share": own / elapsed,
        "viewers_cpu_share": 0.0,
        "viewer_lines_per_s": 0.0,
        "viewer_messages_per_s": 0.0,
        "viewer_reopened_per_s": 0.0,
        "viewer_sizes_per_s": 0.0,
        "load_average": max(load_before, load_average()),
    }
    if task_cpu:
        phase["web_task_cpu_us_per_call"] = 1e6 * web_tasks / counted if counted else 0.0
        phase["web_task_cpu_share"] = web_tasks / all_tasks if all_tasks else 0.0
    if got:
        phase["viewers_cpu_share"] = (got["cpu_s"] - marked["cpu_s"]) / elapsed
        for key in ("lines", "messages", "reopened", "sizes"):
            phase[f"viewer_{key}_per_s"] = (got[key] - marked[key]) / elapsed
    return phase


async def one_run(args: argparse.Namespace) -> list[tuple[Phase, Phase]]:
    """One server, its tables playing throughout; ``--repeat`` pairs of windows, without
    viewers then with them (a fresh viewers' process each time)."""
    pairs: list[tuple[Phase, Phase]] = []
    with tempfile.TemporaryDirectory() as tmp:
        task_cpu = os.path.join(tmp, "task_cpu") if args.task_cpu else None
        server, port, http_port = start_server(os.path.join(tmp, "bench.sqlite3"), task_cpu)
        try:
            load = Load()
            async with trio.open_nursery() as nursery:
                deadline = trio.current_time() + 3600  # the bots are cancelled before
                for i in range(2 * args.tables):
                    nursery.start_soon(bot, port, f"bot{i}", deadline, load, i, SEEK)
                ids = await playing_tables(http_port, args.tables)
                await trio.sleep(WARM_UP_S)
                for _ in range(args.repeat):
                    await trio.sleep(SETTLE_S)
                    without = await measure(server.pid, load, args.seconds, None, task_cpu)
                    watchers = ViewerProcess(http_port, args.viewers, ids, args)
                    try:
                        await trio.to_thread.run_sync(watchers.line)  # 'ready'
                        await trio.sleep(SETTLE_S)
                        pairs.append(
                            (
                                without,
                                await measure(server.pid, load, args.seconds, watchers, task_cpu),
                            )
                        )
                    finally:
                        watchers.stop()
                nursery.cancel_scope.cancel()
        finally:
            server.kill()
            server.wait()
    return pairs


def summary(runs: list[dict[str, float]], key: str) -> dict[str, float]:
    values = [r[key] for r in runs]
    return {"min": round(min(values), 3), "median": round(statistics.median(values), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=6)
    parser.add_argument(
        "--no-deflate", action="store_true", help="viewers do not offer permessage-deflate"
    )
    parser.add_argument(
        "--task-cpu",
        action="store_true",
        help="also time the server's web tasks (bench/web_task_cpu.py): steady under load",
    )
    args = parser.parse_args()
    if args.tables < 1 or args.viewers < 1 or args.seconds <= 0 or args.repeat < 1:
        parser.error("--tables, --viewers, --repeat need at least 1, --seconds more than 0")
    pairs = trio.run(one_run, args)
    runs = {0: [p[0] for p in pairs], args.viewers: [p[1] for p in pairs]}
    result: dict[str, Any] = {
        "bench": "web_viewers",
        "tables": args.tables,
        "viewers": args.viewers,
        "deflate": not args.no_deflate,
        "task_cpu": args.task_cpu,
        "seconds": args.seconds,
        "pairs": args.repeat,
        "machine": machine(),
    }
    for count, measured in runs.items():
        result[f"viewers_{count}"] = {key: summary(measured, key) for key in measured[0]}
    without, with_viewers = result["viewers_0"], result[f"viewers_{args.viewers}"]
    for key, name in (
        ("calls_per_s", "calls_ratio"),
        ("server_cpu_ms_per_1000_calls", "server_cpu_per_call_ratio"),
    ):
        base = without[key]["median"]
        result[f"{name}_median"] = round(with_viewers[key]["median"] / base, 3) if base else None
        # each run with viewers against the run without just before it: the machine's
        # slow spells (other jobs) hit both of a pair
        pairs = [w[key] / b[key] for b, w in zip(runs[0], runs[args.viewers], strict=True)]
        result[f"{name}_by_pair"] = [round(r, 3) for r in pairs]
        result[f"{name}_by_pair_median"] = round(statistics.median(pairs), 3)
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
