"""Does watching slow the game? Calls/s with 0 and with N live web viewers, same load.

    .venv/bin/python bench/web_viewers.py [--tables 10] [--viewers 50] [--seconds 5] [--repeat 3]

Each run starts a fresh ``deberc-net`` server (a subprocess, fresh SQLite file, the web
face on a free port) and ``2 * tables`` machine-style bots in this process (bench/server.py's
``bot``: they seek two-player games and answer every ``ask`` with a random legal call).
With viewers, each viewer opens the live WebSocket of an open table (``/live/table/N``,
the table page's socket), reads every line, and when the table closes moves to another
(a match of these bots lasts about two seconds, and the server notices a closed table
within a second, so a viewer is attached to a live table for part of the time:
``viewer_lines_per_s`` says how much the viewers got).
After a one-second warm-up it counts answered calls and the server's CPU time over
``--seconds``. The runs alternate (0 viewers, N viewers) ``--repeat`` times; prints one
JSON line: calls/s and server CPU ms per 1000 calls, min and median of each, and the
ratio of the medians (the issue's goal: calls/s with viewers within 10% of without).

The viewers run in this process too, so on a small machine they also take CPU from the
bots; the server's CPU per call is the figure that does not depend on that.
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
from trio_websocket import ConnectionClosed, HandshakeError, open_websocket_url

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lines import machine  # bench/lines.py
from server import Load, bot  # bench/server.py: the same bots, the same load

WARM_UP_S = 1.0


def start_server(db: str) -> tuple[subprocess.Popen[str], int, int]:
    code = (
        "import trio\n"
        "from deberc_net.server.app import serve\n"
        "from deberc_net.server.config import Config\n"
        "from deberc_net.server.logs import configure_logging\n"
        "configure_logging('warning')\n"
        "async def main():\n"
        "    bound = []\n"
        "    async with trio.open_nursery() as n:\n"
        f"        port = await n.start(lambda task_status: serve(Config(port=0, db={db!r}, "
        "http_port=0, max_connections=5000, max_connections_per_address=0), "
        "http_bound=bound.append, task_status=task_status))\n"
        "        print(port, bound[0], flush=True)\n"
        "trio.run(main)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    port, http_port = (int(p) for p in proc.stdout.readline().split())
    return proc, port, http_port


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


async def open_tables(http_port: int) -> list[int]:
    """The open tables' ids from /api/tables (a plain HTTP/1.0 GET: no client library)."""
    stream = await trio.open_tcp_stream("127.0.0.1", http_port)
    async with stream:
        await stream.send_all(b"GET /api/tables HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        data = b""
        while chunk := await stream.receive_some(65536):
            data += chunk
    tables = json.loads(data.split(b"\r\n\r\n", 1)[1])["tables"]
    return [t["id"] for t in tables if t["state"] == "playing"]


async def viewer(http_port: int, index: int, deadline: float, received: list[int]) -> None:
    while trio.current_time() < deadline:
        tables = await open_tables(http_port)
        if not tables:
            await trio.sleep(0.05)
            continue
        url = f"ws://127.0.0.1:{http_port}/live/table/{tables[index % len(tables)]}"
        with trio.move_on_at(deadline):
            try:
                async with open_websocket_url(url) as ws:
                    while True:
                        message = await ws.get_message()
                        text = message if isinstance(message, str) else message.decode()
                        received[0] += text.count("\n")  # lines, however batched
            except (ConnectionClosed, HandshakeError):
                pass  # the table closed (or closed before we came): watch another


async def one_run(tables: int, viewers: int, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        server, port, http_port = start_server(os.path.join(tmp, "bench.sqlite3"))
        try:
            load, received = Load(), [0]
            deadline = trio.current_time() + WARM_UP_S + seconds
            async with trio.open_nursery() as nursery:
                for i in range(2 * tables):
                    nursery.start_soon(bot, port, f"bot{i}", deadline, load, i)
                for i in range(viewers):
                    nursery.start_soon(viewer, http_port, i, deadline, received)
                await trio.sleep(WARM_UP_S)
                load.counting, cpu0, received0 = True, cpu_seconds(server.pid), received[0]
                await trio.sleep_until(deadline)
                load.counting = False
                counted, cpu = load.done, cpu_seconds(server.pid) - cpu0
                lines = received[0] - received0
        finally:
            server.kill()
            server.wait()
    return {
        "calls_per_s": counted / seconds,
        "server_cpu_ms_per_1000_calls": 1e6 * cpu / counted if counted else float("nan"),
        "viewer_lines_per_s": lines / seconds,
    }


def summary(runs: list[dict[str, float]], key: str) -> dict[str, float]:
    values = [r[key] for r in runs]
    return {"min": round(min(values), 1), "median": round(statistics.median(values), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.tables < 1 or args.viewers < 1 or args.seconds <= 0 or args.repeat < 1:
        parser.error("--tables, --viewers, --repeat need at least 1, --seconds more than 0")
    runs: dict[int, list[dict[str, float]]] = {0: [], args.viewers: []}
    for _ in range(args.repeat):
        for count in runs:  # alternate, so a slow spell on the machine hits both
            runs[count].append(trio.run(one_run, args.tables, count, args.seconds))
    result: dict[str, Any] = {
        "tables": args.tables,
        "seconds": args.seconds,
        "repeat": args.repeat,
        "machine": machine(),
    }
    for count, measured in runs.items():
        result[f"viewers_{count}"] = {
            key: summary(measured, key)
            for key in ("calls_per_s", "server_cpu_ms_per_1000_calls", "viewer_lines_per_s")
        }
    without = result["viewers_0"]["calls_per_s"]["median"]
    with_viewers = result[f"viewers_{args.viewers}"]["calls_per_s"]["median"]
    result["calls_ratio_median"] = round(with_viewers / without, 3) if without else None
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
