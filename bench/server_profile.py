"""Where a busy server's CPU goes, per call: by thread, kernel and user, and by package.

    .venv/bin/python bench/server_profile.py [--tables 100] [--seconds 10]
                                             [--py-spy PATH] [--rate 100] [--raw FILE]

Starts the server as bench/server.py does (its ``deberc_server_code``: ``serve`` in a
``python -c`` subprocess, a fresh SQLite file) and drives N busy two-player tables with
its machine-style bots (no thinking: N calls always in flight). Once every table plays
and a short warm-up has passed, it counts one window of ``--seconds``: the calls (the
bots' round trips) and, from ``/proc/PID/task/*/stat``, each server thread's user and
system CPU, printed in µs a call: the main thread's user and system (the kernel's, all
but the writer's), the busiest other thread's (the store writer's) and the rest's. The
clock tick is 10 ms: at ~5,000 calls a second, a 10-second window resolves 0.2 µs.

``--py-spy PATH``: then a second window, in a second fresh server (in the first one,
the first window's tables, their bots gone, played on by their clocks in it: up to a
tenth of its samples), sampled by that py-spy (``record --native --threads --format raw``,
``--rate`` a second; py-spy is not one of the project's dependencies: install it
apart, e.g. in a scratch venv), whose main-thread samples are split: an innermost
frame in libc (a system call, nearly always: under a socket write (``Outbox.flush``,
trio's socket), a socket read (``Server._read``), trio's epoll, the store writer's
queue, other) and the rest by the file of the innermost Python frame (self time): our
packages (``deberc_net/game/``, ``protocol/``, ``server/``, ``plugins/``, the rest),
trio (and outcome), attrs (its generated methods too), structlog, pluggy, the standard
library, other libraries. Each share is also given in µs of the first (unsampled)
window's main-thread CPU a call: the sampler stops the process at each sample, so the
sampled window's own CPU is not the server's. Other threads' samples are left out
(py-spy counts trio's idle thread-cache workers and the writer's waits as busy); their
CPU is the first window's ``/proc`` figure. ``--raw FILE`` keeps py-spy's collapsed
stacks.

Prints the figures, then ONE JSON line. Each server is killed at its window's end.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

import trio
from server import Load, all_ready, bots, deberc_server_code, start, stop  # bench/server.py

PACKAGES = ("game", "protocol", "server", "plugins", "ladder")


def thread_cpu(pid: int) -> dict[int, tuple[float, float, str]]:
    """Each thread's (user, system) CPU seconds and its name."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[int, tuple[float, float, str]] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            head, tail = task.joinpath("stat").read_text().rsplit(")", 1)
        except OSError:
            continue  # a thread that ended
        fields = tail.split()
        name = head.split("(", 1)[1]
        out[int(task.name)] = (int(fields[11]) / tick, int(fields[12]) / tick, name)
    return out


def frame_file(frame: str) -> str:
    """The file of a py-spy frame ``function (file:line)``, or the native library."""
    inside = frame.rsplit("(", 1)[-1].rstrip(")")
    return inside.rsplit(":", 1)[0]


def native(frame: str) -> bool:
    """A C frame: a library's address (``0x7f... (libc.so.6)``) or a C source line."""
    return ".so" in frame_file(frame) or frame_file(frame).endswith((".c", ".h"))


def python_category(path: str) -> str:
    if "deberc_net/" in path:
        rest = path.split("deberc_net/", 1)[1]
        top = rest.split("/", 1)[0] if "/" in rest else ""
        return f"deberc_net/{top}/" if top in PACKAGES else "deberc_net (other)"
    if path.startswith("<attrs generated"):  # attrs' generated __init__, __eq__...
        return "attrs"
    for package in ("trio", "outcome", "attr", "attrs", "structlog", "pluggy"):
        if f"/{package}/" in path or path.startswith(f"{package}/"):
            return {"attr": "attrs", "outcome": "trio"}.get(package, package)
    if "site-packages" in path:
        return "other libraries"
    return "standard library"


def category(frames: list[str]) -> str:
    """What a main-thread sample is charged to (see the module's docstring)."""
    if frames and native(frames[-1]) and "libc.so" in frames[-1]:
        inner = next((f for f in reversed(frames) if not native(f)), "")
        if "Outbox.flush" in inner or "trio/_socket.py" in inner:
            return "libc: socket writes"
        if "Server._read " in inner or "receive_some" in inner:
            return "libc: socket reads"
        if "trio/_core/_io_epoll.py" in inner:
            return "libc: epoll"
        if "store_writer.py" in inner:  # the queue's put: a futex to wake the writer
            return "libc: the writer's queue"
        return "libc: other"
    for frame in reversed(frames):
        if not native(frame):
            return python_category(frame_file(frame))
    return "native, no Python frame"


def shares(raw: str, main: int) -> Counter[str]:
    """The main thread's samples by category (py-spy's ``--threads`` lines start with
    ``thread (TID)``; its idle thread-cache workers and the store writer's waits would
    count as busy: their CPU is taken from /proc instead)."""
    counts: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        if not frames[0].startswith(f"thread ({main})"):
            continue
        counts[category(frames[1:])] += int(count)
    return counts


async def drive(
    port: int, tables: int, seconds: float, pid: int, py_spy: list[str] | None
) -> tuple[int, float, dict[int, tuple[float, float, str]]]:
    """One window: its calls, its seconds, each thread's (user, system) CPU in it."""
    load = Load()
    async with trio.open_nursery() as nursery:
        bots(port, tables, f"p{time.monotonic_ns()}x", math.inf, load, nursery)
        await all_ready(load, tables)
        spy = None
        if py_spy is not None:
            spy = subprocess.Popen([*py_spy, "--pid", str(pid)])
            await trio.sleep(0.3)  # py-spy attaching
        before, t0 = thread_cpu(pid), time.monotonic()
        load.counting = True
        await trio.sleep(seconds)
        load.counting = False
        after, elapsed = thread_cpu(pid), time.monotonic() - t0
        nursery.cancel_scope.cancel()
    if spy is not None:
        await trio.to_thread.run_sync(spy.wait)
    spent = {}
    for tid, (user, system, name) in after.items():
        user0, system0, _ = before.get(tid, (0.0, 0.0, name))
        spent[tid] = (user - user0, system - system0, name)
    return load.done, elapsed, spent


def per_call(calls: int, spent: dict[int, tuple[float, float, str]], pid: int) -> dict[str, float]:
    """µs a call: the main thread's user and system time, the busiest other thread's
    (the store writer's) and the rest of the threads'."""
    main_user, main_system, _ = spent.get(pid, (0.0, 0.0, ""))
    others = sorted((u + s for tid, (u, s, _) in spent.items() if tid != pid), reverse=True)
    figures = {
        "main_user": main_user,
        "main_system": main_system,
        "writer": others[0] if others else 0.0,
        "other_threads": sum(others[1:]),
    }
    return {key: round(1e6 * value / calls, 1) for key, value in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=10, help="each counted window")
    parser.add_argument("--py-spy", default="", help="a py-spy to sample the server with")
    parser.add_argument("--rate", type=int, default=100, help="py-spy's samples a second")
    parser.add_argument("--raw", default="", help="keep py-spy's collapsed stacks here")
    args = parser.parse_args()
    if args.tables < 1 or args.seconds < 1 or args.rate < 1:
        parser.error("--tables, --seconds and --rate: at least 1")
    result: dict[str, object] = {"bench": "server_profile", "tables": args.tables}
    with tempfile.TemporaryDirectory() as tmp:
        raw_path = args.raw or os.path.join(tmp, "raw.txt")
        server, port = start(deberc_server_code(os.path.join(tmp, "bench.sqlite3")))
        try:
            calls, elapsed, spent = trio.run(
                drive, port, args.tables, args.seconds, server.pid, None
            )
            cost = per_call(calls, spent, server.pid)
            result.update(calls=calls, calls_per_s=round(calls / elapsed), us_per_call=cost)
            if args.py_spy:
                stop(server)  # its tables, their bots gone, would close in the next window
                server, port = start(deberc_server_code(os.path.join(tmp, "sampled.sqlite3")))
                py_spy = [args.py_spy, "record", "--native", "--threads", "--format", "raw"]
                py_spy += ["--rate", str(args.rate), "--output", raw_path]
                py_spy += ["--duration", str(args.seconds)]
                trio.run(drive, port, args.tables, args.seconds, server.pid, py_spy)
                counts = shares(Path(raw_path).read_text(), server.pid)
                result["main_thread_samples"] = dict(counts.most_common())
        finally:
            stop(server)
    total = sum(cost.values())
    print(f"{args.tables} tables: {result['calls_per_s']} calls/s, {total:.1f} µs CPU a call:")
    for key, value in cost.items():
        print(f"  {key:16s} {value:6.1f} µs")
    if args.py_spy:
        main_cpu = cost["main_user"] + cost["main_system"]
        n = sum(counts.values())
        print(f"  the main thread's {main_cpu:.1f} µs by py-spy's {n} samples (its own window):")
        for what, count in counts.most_common():
            share = count / n
            print(f"  {what:28s} {100 * share:5.1f} %  {main_cpu * share:6.1f} µs a call")
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
