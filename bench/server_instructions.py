"""A call's instructions in the server and in the echo, counted by callgrind: a figure
the machine's load does not move.

    .venv/bin/python bench/server_instructions.py [--tables 10] [--seconds 60] [--repeat 1]

bench/server.py's CPU a call moves by ±15 % from run to run on a shared machine (the
load, the host's hour), so two trees a few per cent apart need dozens of alternated
runs to tell apart. Here each server (bench/server.py's ``deberc_server_code``, a fresh
SQLite file) and the echo (its ``ECHO_SERVER``) runs under valgrind's callgrind,
instrumented only during the counted window (``callgrind_control -i on/off``), driven
by bench/server.py's harness: busy two-player tables of machine-style bots (the echo:
as many echo clients). The figure is the user-space instructions (callgrind's ``Ir``,
every thread of the process: the store writer's too) a call, and the echo's over the
server's. The kernel's share (the system calls: a call's reads and writes, the same
count whatever the load) is not in it, nor what the instructions cost (caches, the
host). Under callgrind a server runs ~50 times slower (~40 calls a second at 10
tables), so the window is long; a run's calls counted span the instrumented window
(the switches take a moment), so the figure reads a little low (< 1 % at 60 s), alike
for every tree. Runs of one tree differ by ~1–3 % (the deals' mix: their ends, the
matches' starts), so compare trees over equal windows and a few runs each.

To compare two trees, run this script under each: ``PYTHONPATH=TREE`` (and each tree's
``examples/*/src`` for its own rule plugins) picks the ``deberc_net`` measured.
Needs valgrind (``callgrind_control``, ``callgrind_annotate``) on the PATH; it is not
one of the project's dependencies.

Prints a line a kind, then ONE JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial

import trio
from lines import machine  # bench/lines.py
from server import ECHO_SERVER, Load, all_ready, bots, deberc_server_code, echoes


def started(code: str, out: str) -> tuple[subprocess.Popen[str], int]:
    """``code`` in a ``python -c`` under callgrind, instrumented only when switched on."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}",
        sys.executable,
        "-c",
        code,
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def control(pid: int, *args: str) -> None:
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True)


async def window(
    pid: int, clients: Callable[[float, Load, trio.Nursery], None], seconds: float, count: int
) -> int:
    """The calls counted while ``pid`` is instrumented (a window of ``seconds``), once
    all ``count`` tables are served and warm; its instructions are dumped at the end."""
    load = Load()
    async with trio.open_nursery() as nursery:
        clients(float("inf"), load, nursery)
        await all_ready(load, count)
        load.counting = True
        await trio.to_thread.run_sync(control, pid, "-z")
        await trio.to_thread.run_sync(control, pid, "-i", "on")
        await trio.sleep(seconds)
        await trio.to_thread.run_sync(control, pid, "-i", "off")
        load.counting = False
        await trio.to_thread.run_sync(control, pid, "-d", "window")
        nursery.cancel_scope.cancel()
    return load.done


def instructions(out: str) -> int:
    """The window's instructions: the dump's totals (its file ``out`` .1, the first dump)."""
    report = subprocess.run(
        ["callgrind_annotate", f"{out}.1"], check=True, capture_output=True, text=True
    ).stdout
    found = re.search(r"^\s*([\d,]+)\s+\(100\.0%\)\s+PROGRAM TOTALS", report, re.MULTILINE)
    if found is None:
        raise SystemExit(f"no totals in callgrind_annotate's report of {out}.1")
    return int(found.group(1).replace(",", ""))


def measure(kind: str, tables: int, seconds: float, tmp: str, round_no: int) -> float:
    """One fresh process of ``kind`` (server or echo): its instructions a call."""
    out = os.path.join(tmp, f"{kind}{round_no}.callgrind")
    if kind == "echo":
        code = ECHO_SERVER
    else:
        code = deberc_server_code(os.path.join(tmp, f"bench{round_no}.sqlite3"))
    proc, port = started(code, out)
    try:
        if kind == "echo":
            clients = partial(echoes, port, tables)
        else:
            clients = partial(bots, port, tables, f"i{round_no}x")
        calls = trio.run(window, proc.pid, clients, seconds, tables)
    finally:
        proc.kill()
        proc.wait()
    if not calls:
        raise SystemExit(f"no {kind} call was counted in {seconds} s")
    return instructions(out) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0, help="each counted window")
    parser.add_argument("--repeat", type=int, default=1, help="fresh servers (and echoes)")
    args = parser.parse_args()
    if args.tables < 1 or args.repeat < 1 or args.seconds <= 0:
        parser.error("--tables and --repeat need at least 1, --seconds more than 0")
    missing = [
        t for t in ("valgrind", "callgrind_control", "callgrind_annotate") if not shutil.which(t)
    ]
    if missing:
        parser.error(f"needs valgrind's tools on the PATH: {', '.join(missing)} not found")
    per_call: dict[str, list[float]] = {"echo": [], "server": []}
    with tempfile.TemporaryDirectory() as tmp:
        for round_no in range(args.repeat):
            for kind in ("echo", "server"):
                per_call[kind].append(measure(kind, args.tables, args.seconds, tmp, round_no))
    result: dict[str, object] = {
        "bench": "server_instructions",
        "tables": args.tables,
        "seconds": args.seconds,
        "repeat": args.repeat,
        "machine": machine(),
    }
    for kind, values in per_call.items():
        result[kind] = {
            "instructions_per_call": {
                "min": round(min(values)),
                "median": round(statistics.median(values)),
            }
        }
        middle, low = statistics.median(values), min(values)
        print(
            f"{args.tables:4d} tables  {kind:6s} {middle:10,.0f} instructions a call"
            f" (median of {len(values)}; min {low:,.0f})"
        )
    ratio = statistics.median(per_call["echo"]) / statistics.median(per_call["server"])
    result["ratio_median"] = round(ratio, 4)
    print(f"{args.tables:4d} tables  ratio (echo / server): {ratio:.4f}")
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
