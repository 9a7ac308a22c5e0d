"""What one call costs the server in steps, not seconds: counts the load does not move.

    .venv/bin/python bench/server_calls.py [--tables 10] [--seconds 2] [--tell all|asks]
                                           [--top 25] [--pauses] [--tail] [--think-ms 0]
                                           [--stagger 0]

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
started (over what ``serve`` sets), to try others. With ``--pauses`` it also says what
the steps of 1 ms of CPU or more did (the engine's events told, the commands handled,
a collection), with the mean CPU of all the steps that did the same;
``BENCH_GC_TYPES=1`` counts the young objects each middle collection walks, by type.

``--think-ms T``: the bots think T ms on average before each answer (a paced load, as
bench/server.py's). ``--tail`` (``--pauses`` and more): every call's latency, as the
bot sees it, is split at the server's handling of it (``Table._call``, its start and
end): the way in (the bot's send to the handling: the kernel, the server's loop, the
steps before it), the handling, the way out (the handling's end to the bot's read of
the ask: the kernel, the harness); and for the slowest calls (from the p99 on), how
many overlap a collection in the server, a step of 1 ms or more without one, a store
job on the writer's thread, or a collection or long step of the bench's own, each
beside its share of every call (its lift: near 1, the tail meets it no more than any
call does, as under load, when everything overlaps everything). Then the way in again
by the server's CPU (its main thread's, from the step before the send to the handling:
a loaded machine stretches the wall time, not this), its slowest calls (its p99 and up)
and how much of that CPU was collections and steps that ended a deal, against every
call's; and how the deal ends bunch (those in each run of 100 calls handled: a variance
far above the mean is deals of many tables ending together).
The harness's collector is off in the window, as in bench/server.py.
``BENCH_PSTATS=FILE`` dumps cProfile's stats (``BENCH_PSTATS_CPU=1``: timed in the
thread's CPU) for pstats' reports.
``BENCH_PARTS=module:Qual.name,...`` times those functions (plain ones, not coroutines)
in the window, each call's CPU of its own thread (inclusive; a function a module imported
by name is named in that module): their calls and CPU, in all and per deal ended, without
cProfile (use it with ``--pauses``): what a deal's end spends, part by part.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from functools import partial
from typing import Any

import trio
from server import Load, all_ready, bot  # bench/server.py

CHILD = """
import cProfile, json, os, pstats, signal, sys, threading, time
from collections import Counter
from functools import partial
from typing import Any
import trio
from deberc_net.server.app import serve
from deberc_net.server.config import Config
from deberc_net.server.logs import configure_logging

configure_logging("warning")
counting = False
steps = Counter()
counts = Counter()

PROFILE = os.environ.get("BENCH_PROFILE", "1") == "1"  # --pauses: no cProfile
TAIL = os.environ.get("BENCH_TAIL") == "1"  # --tail: a timeline of calls, passes, steps
# (perf_counter times, the bench's clock too): each table call (table, start, end), each
# collection (generation, start, end), each task step of 0.5 ms or more (task, start,
# end, CPU ms, whether it ended a deal), each store job on the writer's thread (start,
# end, CPU ms); the main thread's CPU at each step's start (perf_counter, thread_time);
# a call also its handling's start in the thread's CPU, a collection its CPU ms and
# whether it ran on the main thread
timeline = {"call": [], "gc": [], "step": [], "store": [], "clock": []}
pauses = Counter()  # the longest stretches the loop ran no other task: by kind
longest = []  # (ms, what) of the longest task steps and collections
step_at = [0.0]
step_notes = set()  # what the running step did (--pauses)
long_notes = Counter()  # of the steps of 1 ms CPU or more: what they did
all_notes = Counter()  # of every step: what it did
notes_cpu = Counter()  # the CPU ms of the steps that did it
step_cpu = [0.0]

import importlib, inspect
parts = {}  # BENCH_PARTS: name -> [calls, CPU seconds] in the window
def _timed_part(spec):
    module_name, qual = spec.split(":")
    owner = importlib.import_module(module_name)
    *path, attr = qual.split(".")
    for name in path:
        owner = getattr(owner, name)
    original = getattr(owner, attr)
    if inspect.iscoroutinefunction(original):  # (it would time the coroutine's making)
        raise SystemExit(f"BENCH_PARTS: {spec} is a coroutine function")
    tally = parts.setdefault(spec, [0, 0.0])
    clock = time.thread_time
    def timed(*args, **kwargs):
        if not counting:
            return original(*args, **kwargs)
        start = clock()
        try:
            return original(*args, **kwargs)
        finally:
            tally[0] += 1
            tally[1] += clock() - start
    setattr(owner, attr, timed)
for _spec in filter(None, os.environ.get("BENCH_PARTS", "").split(",")):
    _timed_part(_spec.strip())

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
                if TAIL:
                    timeline["clock"].append((step_at[0], step_cpu[0]))
    def after_task_step(self, task):
        if counting and step_at[0]:
            ended = time.perf_counter()
            ms, cpu_ms = 1e3 * (ended - step_at[0]), 1e3 * (time.thread_time() - step_cpu[0])
            name = task.name.rsplit(".", 1)[-1]
            _pause(ms, cpu_ms, name)
            notes = step_notes or {"nothing noted"}
            ended_deal = "DealEnded" in notes or "DealAbandoned" in notes
            all_notes.update(notes)
            for note in notes:
                notes_cpu[note] += cpu_ms
            if cpu_ms >= 1:
                long_notes.update(notes)
            step_notes.clear()
            if TAIL and ms >= 0.5:
                timeline["step"].append((name, step_at[0], ended, round(cpu_ms, 3), ended_deal))
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

# BENCH_PSTATS_CPU=1: the dumped profile's times are the thread's CPU, not wall time
profile = (
    cProfile.Profile(time.thread_time) if os.environ.get("BENCH_PSTATS_CPU") == "1"
    else cProfile.Profile()
)
if not PROFILE:  # the calls counted without cProfile
    from deberc_net.server.table import Table
    real_call = Table._call
    async def counted_call(self, *args, **kwargs):
        if not counting:
            return await real_call(self, *args, **kwargs)
        counts["table_calls"] += 1
        started, started_cpu = time.perf_counter(), time.thread_time()
        try:
            return await real_call(self, *args, **kwargs)
        finally:
            if TAIL:
                timeline["call"].append(
                    (str(self.id), started, time.perf_counter(), started_cpu)
                )
    Table._call = counted_call
    # what a task step did, for the long ones: the engine's events it told, the
    # commands it handled (notes, cleared at each step)
    real_tell = Table._tell
    async def noted_tell(self, events):
        if counting:
            step_notes.update(type(e).__name__ for e in events)
        return await real_tell(self, events)
    Table._tell = noted_tell
    from deberc_net.server.lobby import Lobby
    real_handle = Lobby.handle
    async def noted_handle(self, session, item):
        if counting:
            step_notes.add(getattr(item, "name", type(item).__name__))
        return await real_handle(self, session, item)
    Lobby.handle = noted_handle
    from deberc_net.server.store_writer import StoreWriter
    real_submit = StoreWriter._submit
    def timed_submit(self, item):
        job, done, context = item
        def timed():
            started, cpu = time.perf_counter(), time.thread_time()
            try:
                return job()
            finally:
                if counting and TAIL:
                    cpu_ms = round(1e3 * (time.thread_time() - cpu), 3)
                    timeline["store"].append((started, time.perf_counter(), cpu_ms))
        return real_submit(self, (timed, done, context))
    StoreWriter._submit = timed_submit
import gc, time
gc_started = [0.0]
gc_wall = [0.0]
gc_times = {}  # each collection's CPU (µs), by generation
young_types = Counter()  # BENCH_GC_TYPES=1: what the middle collections walk, by type
WALKED = os.environ.get("BENCH_GC_TYPES") == "1"
def on_gc(phase, info):
    if not counting:
        return
    if phase == "start" and WALKED and info["generation"] == 1:
        for generation in (0, 1):
            young_types.update(
                type(o).__qualname__
                if type(o) not in (list, tuple, dict, set)
                else f"{type(o).__qualname__} of "
                + (type(next(iter(o))).__qualname__ if o else "nothing")
                for o in gc.get_objects(generation)
            )
        counts["gc_walked_gen1"] += 1
    if phase == "start":
        gc_started[0] = time.thread_time()
        gc_wall[0] = time.perf_counter()
    else:
        counts[f"gc_gen{info['generation']}"] += 1
        if TAIL:
            timeline["gc"].append((
                info["generation"], gc_wall[0], time.perf_counter(),
                1e3 * (time.thread_time() - gc_started[0]),
                threading.current_thread() is threading.main_thread(),
            ))
        cpu_us = round(1e6 * (time.thread_time() - gc_started[0]))
        counts["gc_cpu_us"] += cpu_us
        gc_times.setdefault(f"gen{info['generation']}", []).append(cpu_us)
        step_notes.add(f"gc gen{info['generation']}")
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
                if PROFILE and os.environ.get("BENCH_PSTATS"):  # for pstats' own reports
                    profile.dump_stats(os.environ["BENCH_PSTATS"])
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
                    "timeline": timeline if TAIL else None,
                    "parts": parts,
                    "young_types": young_types.most_common(40),
                    "long_steps_did": [
                        (n, all_notes[note], round(notes_cpu[note] / all_notes[note], 3), note)
                        for note, n in long_notes.most_common(30)
                    ],
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


class ClientTimeline(trio.abc.Instrument):
    """The bench process's own collections and long task steps (perf_counter times):
    a call slow on the client's side is the harness's, not the server's."""

    def __init__(self, load: Load) -> None:
        self.load = load  # its window: the collections counted are the window's
        self.gc: list[tuple[int, float, float]] = []
        self.steps: list[tuple[str, float, float]] = []
        self._step = 0.0
        self._gc = 0.0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._step = time.perf_counter()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        ended = time.perf_counter()
        if ended - self._step >= 0.0005:
            self.steps.append((task.name.rsplit(".", 1)[-1], self._step, ended))

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if not self.load.counting:
            return
        if phase == "start":
            self._gc = time.perf_counter()
        else:
            self.gc.append((info["generation"], self._gc, time.perf_counter()))


async def _after(delay: float, start: Any) -> None:
    await trio.sleep(delay)
    await start()


async def drive(
    port: int,
    pid: int,
    tables: int,
    seconds: float,
    style: str,
    think: float,
    load: Load,
    stagger: float = 0.0,
) -> float:
    """Drive the tables, count one window; returns trio's clock less perf_counter.
    ``stagger``: the tables' two bots start evenly over that many seconds, not at once."""
    async with trio.open_nursery() as nursery:
        for i in range(2 * tables):
            bot_of = partial(bot, port, f"c{i}", math.inf, load, i, style=style, think=think)
            nursery.start_soon(_after, stagger * (i // 2) / tables, bot_of)
        await all_ready(load, tables)  # every table playing: logins and seats not counted
        gc.collect()  # the harness's collector off in the window, as bench/server.py's
        gc.freeze()
        gc.disable()
        os.kill(pid, signal.SIGUSR1)
        load.counting = True
        await trio.sleep(seconds)
        load.counting = False
        os.kill(pid, signal.SIGUSR2)
        gc.enable()
        gc.unfreeze()
        await trio.sleep(0.5)  # the counts read while the tables still play
        nursery.cancel_scope.cancel()
    return trio.current_time() - time.perf_counter()


def _overlaps(spans: list[tuple[float, float]], start: float, end: float) -> bool:
    return any(s < end and e > start for s, e in spans)


def _ahead(handled: list[Any], calls: list[Any]) -> dict[str, float]:
    """Of ``calls`` (the split's), on average: the calls the server handled between a
    call's send and its handling, and of how many tables (one call in flight a table:
    a table served twice meanwhile came round again before this one did)."""
    starts = sorted((start, table) for table, start, _, _ in handled)
    at = [start for start, _ in starts]
    ahead = tables = 0
    for x in calls:
        sent, started = x[4], x[4] + x[1]
        between = starts[bisect.bisect_right(at, sent) : bisect.bisect_left(at, started)]
        ahead += len(between)
        tables += len({table for _, table in between})
    n = len(calls) or 1
    return {"calls": round(ahead / n, 1), "tables": round(tables / n, 1)}


def _bunching(calls: list[float], ends: list[float]) -> dict[str, float]:
    """The deals ended in each run of 100 calls handled: their mean, variance and most
    (deals ending independently: a variance near the mean; bunched: far above it)."""
    counts = [
        bisect.bisect_left(ends, calls[i + 100]) - bisect.bisect_left(ends, calls[i])
        for i in range(0, len(calls) - 100, 100)
    ]
    if not counts:
        return {}
    mean = sum(counts) / len(counts)
    variance = sum((n - mean) ** 2 for n in counts) / len(counts)
    return {"mean": round(mean, 2), "variance": round(variance, 2), "most": max(counts)}


def tail_report(
    load: Load, offset: float, server: dict[str, list[list[Any]]], client: ClientTimeline
) -> dict[str, Any]:
    """Each call's latency split at the server's handling of it (its ``Table._call``):
    the way in (sent to handled: the kernel, the server's loop, waiting behind other
    steps), the handling, the way out (handled to the ask read by the bot: the kernel,
    the harness); then, for the slowest calls (the latency's p99 and up), what ran
    meanwhile on either side."""
    assert load.samples is not None
    calls: dict[str, list[tuple[float, float, float]]] = {}
    for table, start, end, start_cpu in server["call"]:
        calls.setdefault(table, []).append((start, end, start_cpu))
    clock = server["clock"]  # (perf_counter, the server's main thread CPU) at each step
    clock_at = [t for t, _ in clock]

    def cpu_at(moment: float) -> float:
        at = bisect.bisect_right(clock_at, moment) - 1
        return float(clock[max(at, 0)][1])

    # latency, in, handling, out, sent, the server's CPU on the way in (its main thread's,
    # from the step before the send to the handling: what it did before it got to it,
    # which a loaded machine stretches in wall time but not in CPU)
    split: list[tuple[float, float, float, float, float, float]] = []
    for sent_trio, latency, table in load.samples:
        sent = sent_trio - offset
        handled = next(
            (c for c in calls.get(table, ()) if sent - 1e-4 <= c[0] <= sent + latency), None
        )
        if handled is None:
            continue
        start, end, start_cpu = handled
        way_in_cpu = start_cpu - cpu_at(sent)
        split.append((latency, start - sent, end - start, sent + latency - end, sent, way_in_cpu))
    if not split:
        return {}
    latencies = sorted(x[0] for x in split)
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    tail = [x for x in split if x[0] >= p99]

    def ms(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)

        def pick(p: float) -> float:
            return round(1e3 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

        return {"p50": pick(0.5), "p99": pick(0.99), "max": round(1e3 * ordered[-1], 2)}

    gcs = {gen: [(s, e) for g, s, e, _, _ in server["gc"] if g == gen] for gen in (0, 1, 2)}
    gc_spans = [(s, e) for _, s, e, _, _ in server["gc"]]
    steps = [(s, e) for _, s, e, _, _ in server["step"]]
    long_steps = [(s, e) for _, s, e, _, _ in server["step"] if e - s >= 0.001]
    # a long step without a collection in it: the code's own, or the process held up
    plain_steps = [(s, e) for s, e in long_steps if not _overlaps(gc_spans, s, e)]
    store = [(s, e) for s, e, _ in server["store"]]
    client_gc = [(s, e) for _, s, e in client.gc if e - s >= 0.0005]
    client_steps = [(s, e) for _, s, e in client.steps if e - s >= 0.001]
    causes = {
        "server gc gen0": gcs[0],
        "server gc gen1": gcs[1],
        "server gc gen2": gcs[2],
        "server step >= 1 ms, no gc in it": plain_steps,
        "store job (writer's thread)": store,
        "client gc >= 0.5 ms": client_gc,
        "client step >= 1 ms": client_steps,
    }
    overlapping = {
        cause: sum(_overlaps(spans, x[4], x[4] + x[0]) for x in tail)
        for cause, spans in causes.items()
    }
    overlapping["none of these"] = sum(
        not any(_overlaps(spans, x[4], x[4] + x[0]) for spans in causes.values()) for x in tail
    )
    # the same share of every call: a cause the tail overlaps no more often than any call
    # (a lift near 1) is not what makes it (under load everything overlaps everything)
    every = {
        cause: sum(_overlaps(spans, x[4], x[4] + x[0]) for x in split)
        for cause, spans in causes.items()
    }
    lift = {
        cause: round((overlapping[cause] / len(tail)) / (every[cause] / len(split)), 2)
        for cause in causes
        if every[cause]
    }
    # the way in by the server's CPU: the slowest calls by it (its p99 and up) and what
    # that CPU went to, against every call's mean: collections, steps that ended a deal
    by_cpu = sorted(x[5] for x in split)
    cpu_p99 = by_cpu[min(len(by_cpu) - 1, int(0.99 * len(by_cpu)))]
    cpu_tail = [x for x in split if x[5] >= cpu_p99]
    gc_cpu = [(s, e, c) for _, s, e, c, main in server["gc"] if main]
    deal_end_cpu = [(s, e, c) for _, s, e, c, ended in server["step"] if ended]

    def within(spans: list[tuple[float, float, float]], calls: list[Any]) -> float:
        # their CPU ms between a call's send and its handling, a call on average
        total = 0.0
        for x in calls:
            sent, handled = x[4], x[4] + x[1]
            total += sum(c for s, e, c in spans if s >= sent and e <= handled)
        return round(total / len(calls), 3) if calls else 0.0

    in_cpu: dict[str, Any] = {
        "all_ms": ms([x[5] for x in split]),
        "tail_from_ms": round(1e3 * cpu_p99, 2),
        "tail_calls": len(cpu_tail),
        "gc_ms_a_call": within(gc_cpu, split),
        "gc_ms_a_tail_call": within(gc_cpu, cpu_tail),
        "deal_end_steps_ms_a_call": within(deal_end_cpu, split),
        "deal_end_steps_ms_a_tail_call": within(deal_end_cpu, cpu_tail),
        "gc_off_main_thread": sum(not main for *_, main in server["gc"]),
        "ahead_of_a_call": _ahead(server["call"], split),
        "ahead_of_a_tail_call": _ahead(server["call"], cpu_tail),
        "deal_ends_a_100_calls": _bunching(
            sorted(start for _, start, _, _ in server["call"]),
            sorted(s for _, s, _, _, ended in server["step"] if ended),
        ),
    }
    return {
        "calls_split": len(split),
        "way_in_server_cpu": in_cpu,
        "latency_ms": ms([x[0] for x in split]),
        "way_in_ms": ms([x[1] for x in split]),
        "handling_ms": ms([x[2] for x in split]),
        "way_out_ms": ms([x[3] for x in split]),
        "tail_from_ms": round(1e3 * p99, 2),
        "tail_calls": len(tail),
        "tail_way_in_ms": ms([x[1] for x in tail]),
        "tail_handling_ms": ms([x[2] for x in tail]),
        "tail_way_out_ms": ms([x[3] for x in tail]),
        "tail_overlapping": overlapping,
        "all_overlapping": every,
        "tail_lift": lift,
        "client_gc_ms": {
            f"gen{gen}": ms([e - s for g, s, e in client.gc if g == gen])
            for gen in (0, 1, 2)
            if any(g == gen for g, _, _ in client.gc)
        },
        "client_gc_n": {f"gen{gen}": sum(g == gen for g, _, _ in client.gc) for gen in (0, 1, 2)},
        "server_steps_over_0.5_ms": len(steps),
        "server_store_jobs": len(store),
        # the writer thread's CPU, a call of the window
        "store_cpu_us_per_call": round(1e3 * sum(c for _, _, c in server["store"]) / len(split), 2),
    }


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
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="each bot waits this long on average before it answers (a paced load)",
    )
    parser.add_argument(
        "--tail",
        action="store_true",
        help="as --pauses, and split each call's latency at the server's handling of it;"
        " the slowest calls (p99 and up) with what ran meanwhile, server's and bench's",
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="the tables start evenly over this many seconds, not at once (their deals"
        " and matches then end out of step, as a server's tables in use do)",
    )
    args = parser.parse_args()
    pauses = args.pauses or args.tail
    style = "style machine" if args.tell == "all" else "style machine\nstyle machine tell=asks"
    load = Load()
    load.samples = [] if args.tail else None
    client = ClientTimeline(load)
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "BENCH_PROFILE": "0" if pauses else "1",
            "BENCH_TAIL": "1" if args.tail else "0",
        }
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, os.path.join(tmp, "calls.sqlite3")],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        try:
            port = int(proc.stdout.readline())
            think = args.think_ms / 1000
            gc.callbacks.append(client.on_gc)
            offset = trio.run(
                drive,
                port,
                proc.pid,
                args.tables,
                args.seconds,
                style,
                think,
                load,
                args.stagger,
                instruments=[client] if args.tail else [],
            )
            gc.callbacks.remove(client.on_gc)
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
    if result["long_steps_did"]:
        print(
            "  task steps of 1 ms CPU or more, by what they did (of all steps that did it;"
            " their mean CPU ms):"
        )
        for n, of, mean, note in result["long_steps_did"]:
            print(f"    {n:6d} of {of:6d} ({mean:6.3f})  {note}")
    if result["parts"]:  # BENCH_PARTS: each part's CPU, per its call and per table call
        print(
            "  parts (BENCH_PARTS; inclusive CPU, their thread): calls, µs a call, µs a table call"
        )
        for name, (n, cpu) in result["parts"].items():
            print(f"    {n:7d} {1e6 * cpu / max(n, 1):9.1f} {1e6 * cpu / calls:8.2f}  {name}")
    walked = result["counts"].get("gc_walked_gen1", 0)
    if result["young_types"] and walked:
        print(f"  young objects a middle collection walks ({walked} collections), by type:")
        for name, n in result["young_types"][: args.top]:
            print(f"    {n / walked:9.1f}  {name}")
    for name, by in result["callers"].items():
        print(f"  {name} called by:")
        for caller, n in sorted(by.items(), key=lambda kv: -kv[1]):
            print(f"    {n / calls:7.2f}  {caller}")
    timeline = result.pop("timeline", None)
    if timeline is not None:
        tail = result["tail"] = tail_report(load, offset, timeline, client)
        print(f"  latency split at the server's handling ({tail.get('calls_split', 0)} calls):")
        for key in ("latency_ms", "way_in_ms", "handling_ms", "way_out_ms"):
            print(f"    {key:14s} {tail.get(key)}")
        for key, value in tail.get("way_in_server_cpu", {}).items():
            print(f"    way in, the server's CPU: {key:30s} {value}")
        print(f"  the slowest {tail.get('tail_calls')} (from {tail.get('tail_from_ms')} ms):")
        for key in ("tail_way_in_ms", "tail_handling_ms", "tail_way_out_ms"):
            print(f"    {key:19s} {tail.get(key)}")
        every, lift = tail.get("all_overlapping", {}), tail.get("tail_lift", {})
        for cause, n in tail.get("tail_overlapping", {}).items():
            of_all = every.get(cause)
            print(
                f"    overlapping {cause:36s} {n}"
                + (f"  (of all calls {of_all}: lift {lift.get(cause)})" if of_all else "")
            )
        print(f"  the store writer's thread: {tail.get('store_cpu_us_per_call')} µs CPU a call")
        own = f"{tail.get('client_gc_n')} {tail.get('client_gc_ms')}"
        print(f"  the bench's own collections: {own}")
    result["tell"], result["tables"], result["think_ms"] = args.tell, args.tables, args.think_ms
    shown = {
        k: v
        for k, v in result.items()
        if k
        not in ("top", "callers", "by_file", "longest", "gc_times", "young_types", "long_steps_did")
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
