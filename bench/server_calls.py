"""What one call costs the server in steps, not seconds: counts the load does not move.

    .venv/bin/python bench/server_calls.py [--tables 10] [--seconds 2] [--tell all|asks]
                                           [--top 25] [--pauses]

Starts a server in a subprocess (``python -c``: deberc_net.server.app's ``serve`` with its
signal handlers, as ``deberc-net serve`` runs it, inside the counters below; a fresh SQLite
file) and N busy two-player tables
of bench/server.py's machine-style bots (``--tell asks``: each told only its asks,
``style machine tell=asks``). Once every table plays (and a short warm-up) the server
counts, for one window: the trio
task steps (an Instrument's ``before_task_step``) by task, the run loop's waits for I/O
(``before_io_wait``), ``os.write`` calls, ``SocketStream.send_all`` calls, cancel scopes
made, the collector's passes and their CPU, and every function call (cProfile's counts:
a count, not a time). Prints each per call (the calls are the server's ``Table._call``s
in the window), the most called functions (``--top``) and the calls by file, then one
JSON line. ``BENCH_CALLERS=NAME`` in the environment also prints who calls the
functions named NAME. CPU time is bench/server.py's job: under cProfile it means nothing.

``--pauses`` counts no function calls (no cProfile): it times every task step and every
collection instead, wall time and the thread's CPU (``time.thread_time``), and prints
how many took 1, 5 and 20 ms or more, of each, and the longest: a step long in wall
time but not in CPU was the process waiting for a core (or for the GIL). Both modes
print the process's user and system CPU a call (``os.times``).
``BENCH_GC_THRESHOLD=700,10,10`` sets the server's collector thresholds once it has
started (over what ``serve`` sets), to try others.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from functools import partial

import trio
from server import Load, all_ready, bot  # bench/server.py

CHILD = """
import cProfile, json, os, pstats, signal, sys, time
from collections import Counter
from functools import partial
import trio
from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.server.logs import configure_logging

configure_logging("warning")
counting = False
steps = Counter()
counts = Counter()

PROFILE = os.environ.get("BENCH_PROFILE", "1") == "1"  # --pauses: no cProfile
pauses = Counter()  # the longest stretches the loop ran no other task: by kind
longest = []  # (ms, what) of the longest task steps and collections
step_at = [0.0]
step_cpu = [0.0]

def _pause(ms, cpu_ms, what):
    # a stretch of ms wall time, cpu_ms of it this thread's CPU (the rest: the process
    # waited for a core, or another thread held the GIL)
    for limit in (1, 5, 20):
        if ms >= limit:
            pauses[f"{what} >= {limit} ms"] += 1
        if cpu_ms >= limit:
            pauses[f"{what} >= {limit} ms CPU"] += 1
    longest.append((round(ms, 2), round(cpu_ms, 2), what))
    if len(longest) > 200:
        longest.sort(reverse=True)
        del longest[20:]

class Steps(trio.abc.Instrument):
    def before_task_step(self, task):
        if counting:
            steps[task.name.rsplit(".", 1)[-1]] += 1
            if not PROFILE:
                step_at[0] = time.perf_counter()
                step_cpu[0] = time.thread_time()
    def after_task_step(self, task):
        if counting and step_at[0]:
            _pause(
                1e3 * (time.perf_counter() - step_at[0]),
                1e3 * (time.thread_time() - step_cpu[0]),
                task.name.rsplit(".", 1)[-1],
            )
            step_at[0] = 0.0
    def before_io_wait(self, timeout):
        if counting:
            counts["io_waits"] += 1

real_write = os.write
def write(fd, data):
    if counting:
        counts["os_write"] += 1
    return real_write(fd, data)
os.write = write
real_send_all = trio.SocketStream.send_all
async def send_all(self, data):
    if counting:
        counts["send_all"] += 1
    return await real_send_all(self, data)
trio.SocketStream.send_all = send_all

profile = cProfile.Profile()
if not PROFILE:  # the calls counted without cProfile
    from deberc_net.server.table import Table
    real_call = Table._call
    async def counted_call(self, *args, **kwargs):
        if counting:
            counts["table_calls"] += 1
        return await real_call(self, *args, **kwargs)
    Table._call = counted_call
import gc, time
gc_started = [0.0]
gc_wall = [0.0]
gc_times = {}  # each collection's CPU (µs), by generation
def on_gc(phase, info):
    if not counting:
        return
    if phase == "start":
        gc_started[0] = time.thread_time()
        gc_wall[0] = time.perf_counter()
    else:
        counts[f"gc_gen{info['generation']}"] += 1
        cpu_us = round(1e6 * (time.thread_time() - gc_started[0]))
        counts["gc_cpu_us"] += cpu_us
        gc_times.setdefault(f"gen{info['generation']}", []).append(cpu_us)
        _pause(
            1e3 * (time.perf_counter() - gc_wall[0]),
            1e3 * (time.thread_time() - gc_started[0]),
            f"gc gen{info['generation']}",
        )
gc.callbacks.append(on_gc)

async def control():
    global counting
    with trio.open_signal_receiver(signal.SIGUSR1, signal.SIGUSR2) as signals:
        async for signum in signals:
            if signum == signal.SIGUSR1:
                counting = True
                started = os.times()
                if PROFILE:
                    profile.enable()
            else:
                profile.disable()
                counting = False
                ended = os.times()  # the process's user and system CPU (its threads too)
                counts["cpu_user_us"] = round(1e6 * (ended.user - started.user))
                counts["cpu_system_us"] = round(1e6 * (ended.system - started.system))
                stats = pstats.Stats(profile).stats if PROFILE else {}
                calls = sum(
                    s[1] for (f, _, name), s in stats.items() if name == "_call" and "table" in f
                ) or counts.pop("table_calls", 0)
                python = sum(s[1] for (f, _, _), s in stats.items() if f != "~")
                builtin = sum(s[1] for (f, _, _), s in stats.items() if f == "~")
                scopes = sum(
                    s[1] for (f, _, name), s in stats.items()
                    if "CancelScope" in f and name == "__init__"
                )
                wanted = os.environ.get("BENCH_CALLERS")  # who calls the functions so named
                callers = {
                    f"{os.sep.join(f.split(os.sep)[-2:])}:{name}": {
                        f"{os.sep.join(cf.split(os.sep)[-2:])}:{cn}": c[1]
                        for (cf, _, cn), c in s[4].items()
                    }
                    for (f, _, name), s in stats.items()
                    if wanted and name == wanted
                }
                by_file = Counter()
                for (f, _, name), st in stats.items():
                    by_file["C" if f == "~" else os.sep.join(f.split(os.sep)[-2:])] += st[1]
                top = sorted(
                    (
                        (s[1], f"{os.sep.join(f.split(os.sep)[-2:])}:{name}")
                        for (f, _, name), s in stats.items()
                    ),
                    reverse=True,
                )[:150]
                print(json.dumps({
                    "calls": calls, "steps": dict(steps), "counts": dict(counts),
                    "python_calls": python, "builtin_calls": builtin, "cancel_scopes": scopes,
                    "top": top, "callers": callers, "pauses": dict(pauses),
                    "longest": sorted(longest, reverse=True)[:8],
                    "by_file": by_file.most_common(25),
                    "gc_times": gc_times,
                    "gc_threshold": gc.get_threshold(), "gc_frozen": gc.get_freeze_count(),
                }), flush=True)

async def main():
    async with trio.open_nursery() as n:
        config = Config(port=0, db=sys.argv[1], max_connections=5000,
                        max_connections_per_address=0)
        # started as bench/server.py starts it (and `deberc-net serve`)
        port = await n.start(partial(serve, config, handle_signals=True))
        if os.environ.get("BENCH_GC_THRESHOLD"):  # others than serve's, to try them
            gc.set_threshold(*map(int, os.environ["BENCH_GC_THRESHOLD"].split(",")))
        print(port, flush=True)
        await control()  # (killed by the bench once it has read the counts)

trio.run(main, instruments=[Steps()])
"""


async def drive(port: int, pid: int, tables: int, seconds: float, style: str) -> None:
    load = Load()
    async with trio.open_nursery() as nursery:
        for i in range(2 * tables):
            nursery.start_soon(partial(bot, port, f"c{i}", math.inf, load, i, style=style))
        await all_ready(load, tables)  # every table playing: logins and seats not counted
        os.kill(pid, signal.SIGUSR1)
        await trio.sleep(seconds)
        os.kill(pid, signal.SIGUSR2)
        await trio.sleep(0.5)  # the counts read while the tables still play
        nursery.cancel_scope.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--tell", choices=("all", "asks"), default="all")
    parser.add_argument("--top", type=int, default=25, help="the most called functions")
    parser.add_argument(
        "--pauses",
        action="store_true",
        help="no cProfile: time the task steps and collections instead (the longest)",
    )
    args = parser.parse_args()
    style = "style machine" if args.tell == "all" else "style machine\nstyle machine tell=asks"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, os.path.join(tmp, "calls.sqlite3")],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "BENCH_PROFILE": "0" if args.pauses else "1"},
        )
        assert proc.stdout is not None
        try:
            port = int(proc.stdout.readline())
            trio.run(drive, port, proc.pid, args.tables, args.seconds, style)
            result = json.loads(proc.stdout.readline())
        finally:
            time.sleep(0.1)
            proc.kill()
            proc.wait()
    calls = result["calls"] or 1
    print(f"{result['calls']} calls, {args.tables} tables, tell={args.tell}; per call:")
    for name, n in sorted(result["steps"].items(), key=lambda kv: -kv[1]):
        print(f"  task steps {name:30s} {n / calls:7.2f}")
    print(f"  task steps (all)               {sum(result['steps'].values()) / calls:7.2f}")
    for name, n in sorted(result["counts"].items()):
        print(f"  {name:40s} {n / calls:7.2f}")
    print(f"  cancel scopes made             {result['cancel_scopes'] / calls:7.2f}")
    print(f"  Python function calls          {result['python_calls'] / calls:7.1f}")
    print(f"  builtin (C) calls              {result['builtin_calls'] / calls:7.1f}")
    for name, n in sorted(result["pauses"].items()):
        print(f"  {name:40s} {n:7d} in all")
    for gen, times in sorted(result["gc_times"].items()):
        times.sort()
        p50, p99 = times[len(times) // 2], times[min(len(times) - 1, len(times) * 99 // 100)]
        print(
            f"  collections {gen}: {len(times)}, CPU ms p50 {p50 / 1e3:.2f}, p99 {p99 / 1e3:.2f},"
            f" max {times[-1] / 1e3:.2f}, sum {sum(times) / 1e3:.1f}"
        )
    print(f"  thresholds {result['gc_threshold']}, frozen objects {result['gc_frozen']}")
    if result["longest"]:
        longest = ", ".join(f"{ms} ({cpu} CPU) {what}" for ms, cpu, what in result["longest"])
        print("  longest, ms:", longest)
    print("  most called:")
    for n, name in result["top"][: args.top]:
        print(f"    {n / calls:7.2f}  {name}")
    print("  by file:")
    for name, n in result["by_file"][: args.top]:
        print(f"    {n / calls:7.2f}  {name}")
    for name, by in result["callers"].items():
        print(f"  {name} called by:")
        for caller, n in sorted(by.items(), key=lambda kv: -kv[1]):
            print(f"    {n / calls:7.2f}  {caller}")
    result["tell"], result["tables"] = args.tell, args.tables
    shown = {
        k: v
        for k, v in result.items()
        if k not in ("top", "callers", "by_file", "longest", "gc_times")
    }
    shown["gc_cpu_ms"] = {
        gen: {
            "n": len(t),
            "p50": t[len(t) // 2] / 1e3,
            "p99": t[len(t) * 99 // 100] / 1e3,
            "max": t[-1] / 1e3,
        }
        for gen, t in result["gc_times"].items()
    }
    print(json.dumps(shown, sort_keys=True))


if __name__ == "__main__":
    main()
