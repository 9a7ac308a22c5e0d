"""The parent of ``serve --workers N``: one port for every worker (SO_REUSEPORT: the
kernel spreads new connections over them), N worker processes, each restarted if it
dies, and SIGTERM/SIGINT (SIGHUP too, unless ignored) passed on to them. Each worker's
stdin is a pipe the parent holds open: the parent gone (even by SIGKILL), the worker
reads its end and stops as on SIGTERM (worker.py), so no orphan keeps serving the
ports. The words written there come with a signal the whole server's drain or stop
passes on: DRAIN_WORD with the SIGUSR1 (a worker's admin 'drain' then knows it has
begun), STOP_WORD with the SIGTERM (its players at the other workers' tables are not
told their seats are kept: those tables close too). A
worker's stdout says 'ready' with the database as its logs name it (or 'failed
REASON'), then only 'drain-asked NAME' before an admin's 'drain' there signals the
parent, whose log then names him.

The parent binds the port first (port 0 picks a free one) and keeps that socket, bound
and not listening, so the port stays theirs while a worker restarts; it logs
``listening`` with the port once every worker listens."""

from __future__ import annotations

import json
import os
import secrets
import select
import signal
import socket
import threading
import time
import tomllib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs
import structlog

from deberc_net.hangup import drain, hangup, leave_the_terminal_on_hangup
from deberc_net.server.config import Config, cannot_listen
from deberc_net.server.store import describe, is_postgres

from . import DRAIN_ASKED, DRAIN_WORD, STOP_WORD
from .deaths import Deaths
from .forked import (
    Child,
    Closable,
    ForkRefused,
    TimeoutExpired,
    fork_worker,
    preload,
    spawn_worker,
    threads_running,
)
from .parent_out import Backlog

if TYPE_CHECKING:
    from deberc_net.plugins import RuleBook

log = structlog.get_logger("deberc.workers")


class WorkersError(Exception):
    """``--workers`` cannot run as asked (the reason says why)."""


# a process a core, each with its own database connections: no machine has more cores,
# and a typo's extra zeros would start thousands of servers
MOST_WORKERS = 256


def check_workers(config: Config, count: int, db_in: str | None = None) -> None:
    """Refuse what ``--workers`` cannot run; ``db_in``: the settings file that gave the
    database, to be changed there (after a move-store, its db is the old file still)."""
    if not 1 <= count <= MOST_WORKERS:
        raise WorkersError(f"--workers takes a whole number from 1 to {MOST_WORKERS}, not {count}")
    if count > 1 and not is_postgres(config.db):
        why = "(the workers share their lobby through PostgreSQL; an SQLite file serves one worker)"
        if db_in is None:
            raise WorkersError(f"--workers above 1 needs --db postgresql://… {why}")
        raise WorkersError(
            f"--workers above 1 needs PostgreSQL, and db in {db_in} is the SQLite file"
            f' {config.db}: set db = "postgresql://…" there (a club moves there by'
            f" 'deberc-net move-store': docs/scaling.md), or give --db postgresql://… {why}"
        )


# Workers share one host: a killed one is noticed in seconds, not in the 30 s of
# silence meant for servers on other hosts (docs/scaling.md)
WORKERS_HEARTBEAT_MS = 1000
WORKERS_DEAD_MS = 5000


def workers_timing(config: Config, settings_file: str | None) -> Config:
    """``config`` with the workers' heartbeat and dead-server silence, unless the settings
    file gives either (then both are as given, or as for any server)."""
    given: set[str] = set()
    if settings_file is not None:  # read and checked already (Config.from_toml)
        with open(settings_file, "rb") as fh:
            data = tomllib.load(fh)
        given = set(data.get("server", data))
    if given & {"heartbeat_ms", "server_dead_ms"}:
        return config
    return attrs.evolve(config, heartbeat_ms=WORKERS_HEARTBEAT_MS, server_dead_ms=WORKERS_DEAD_MS)


def refuse_a_port_in_use(host: str, port: int) -> None:
    """OSError (EADDRINUSE) if another process listens on (host, port), even another
    ``serve --workers`` (SO_REUSEPORT would let its workers and ours share the port,
    the kernel handing our connections to its lobby and database: a tryout's). A
    socket without SO_REUSEPORT cannot bind beside a listening one; port 0: none."""
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (TIME_WAIT is no one's)
        probe.bind((host or "0.0.0.0", port))


def reuseport_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to (host, port) with SO_REUSEPORT, not listening yet."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host or "0.0.0.0", port))
    return sock


@attrs.define(eq=False)
class Worker:
    index: int
    process: Child
    ready: bool = False
    failure: str | None = None  # why it could not start, in its own words
    draining: bool = False  # passed the parent's SIGUSR1 (docs/scaling.md, "Processes")
    # the admins whose 'drain' this worker passed on as a SIGUSR1 to the parent, not
    # yet logged ('drain-asked NAME' on its stdout, before the signal)
    asked: list[str] = attrs.Factory(list)
    # the database as the worker's logs name it ('ready DB': a JSON string)
    db: str | None = None
    # what it wrote on its stdout after its last whole line (listen)
    partial: bytes = b""


def heard_from(worker: Worker, line: bytes) -> None:
    """A line of a worker's stdout: 'ready DB', 'failed REASON', or 'drain-asked NAME';
    any other (a plugin's print) is passed on to the parent's stdout, where a lone
    ``serve`` would have written it."""
    line = line.strip()
    if line == b"ready" or line.startswith(b"ready "):
        said = line[len(b"ready ") :]
        try:
            db = json.loads(said) if said else None
        except ValueError:  # not the worker's word: a plugin's print ('ready to go')
            _pass_on(line)
            return
        worker.ready = True
        if isinstance(db, str):
            worker.db = db
    elif line.startswith(b"failed "):
        worker.failure = line[len(b"failed ") :].decode("utf-8", "replace")
    elif line.startswith(DRAIN_ASKED):
        worker.asked.append(line[len(DRAIN_ASKED) :].decode("utf-8", "replace"))
    else:
        _pass_on(line)


# what waits for the parent's stdout: written as far as it takes it, never waited on
# (a stalled reader stopped the parent's loop: parent_out.py)
OUT = Backlog()


def _pass_on(line: bytes) -> None:
    """A worker's line that is not for the parent, on the parent's stdout (none: lost)."""
    OUT.put(line + b"\n")


# what the parent reads of a worker's stdout at once; and the longest line it keeps
# whole (a longer one, a plugin's print without a newline, is passed on in pieces)
READ_SIZE = 65536
LONGEST_LINE = 1 << 20


def listen(workers: Iterable[Worker]) -> None:
    """Read what each worker has written on its stdout, without waiting, and hear each
    whole line (heard_from). Every worker's, every turn of the parent's loop, not only
    until it is ready: a worker's stdout is a pipe, and one nobody read filled up (64
    KiB) and stopped the worker at its next print, a plugin's, its trio loop and every
    player with it."""
    pipes = {
        w.process.stdout: w
        for w in workers
        if w.process.stdout is not None and not w.process.stdout.closed
    }
    if not pipes:
        return
    for pipe in select.select(list(pipes), [], [], 0)[0]:
        worker = pipes[pipe]
        while True:  # (os.read: no buffer of the file object's kept behind select's back)
            try:
                chunk = os.read(pipe.fileno(), READ_SIZE)  # (select saw it: no wait)
            except OSError:
                break
            if not chunk:  # its end closed: it has stopped (the loop's poll says so)
                break
            *lines, worker.partial = (worker.partial + chunk).split(b"\n")
            if len(worker.partial) > LONGEST_LINE:
                lines.append(worker.partial)
                worker.partial = b""
            for line in lines:
                heard_from(worker, line)
            if len(chunk) < READ_SIZE or not select.select([pipe], [], [], 0)[0]:
                break


def _described(workers: list[Worker], config: Config) -> str:
    """The database as the 'listening' line names it: as a worker said it with its
    'ready'. The parent reads no address itself: a postgresql:// one is read by
    psycopg, whose import (a sixth of a second of CPU) the parent needs for nothing
    else, and which came after the last worker was ready, holding up the line."""
    said = next((w.db for w in workers if w.db is not None), None)
    return said if said is not None else describe(config.db)


def _who_asked(workers: list[Worker]) -> tuple[int, str] | None:
    """The first admin whose 'drain' a worker passed on to this parent and who is not
    logged yet: (that worker, his name); None if none did (a SIGUSR1 sent by hand). His
    line was written before his worker's signal: it is in the pipe by now."""
    listen(workers)
    for worker in workers:
        if worker.asked:
            return worker.index, worker.asked.pop(0)
    return None


def _drain_heard(workers: list[Worker], signum: int, first: bool, count: int) -> None:
    """Log a SIGUSR1 that came: ``drain`` (``first``) or ``drain_ignored``, saying what
    asked: an admin's 'drain' on a worker (his name, that worker), else the signal."""
    asked = _who_asked(workers)
    why: dict[str, Any] = (
        {"signal": signal.Signals(signum).name}
        if asked is None
        else {"admin": asked[1], "worker": asked[0]}
    )
    if first:
        log.info("drain", **why, workers=count)
    else:  # one drain: the workers were told already
        log.warning("drain_ignored", **why)


# what a stop asked for ends a worker with: 0 once it serves (its server takes SIGTERM,
# SIGINT and SIGHUP, and stops cleanly), or the signal itself before it does (till then
# each ends it as its default would: hangup.StopSignals; a signal as it is started, at once)
STOPS: frozenset[int] = frozenset(
    getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)
)


def stopped_as_asked(status: int) -> bool:
    """Whether a worker's exit ``status`` is that of a stop it was asked for (a rolling
    restart's SIGTERM, even one come before it served), not of a death or a failure."""
    return status == 0 or (status < 0 and -status in STOPS)


def _last_words(worker: Worker) -> str | None:
    """Why a worker that has ended stopped, in its own words ('failed REASON' on its
    stdout), if it said."""
    _hear_the_rest(worker)
    return worker.failure


def _hear_the_rest(worker: Worker) -> None:
    """Every line an ended worker wrote that the parent has not read yet, heard, its
    last even without a newline: a stop came before the loop's next ``listen``, and a
    plugin's print still in the pipe (up to 64 KiB of it) was lost. Only what is there
    (listen reads what select sees): a process the worker started may hold the pipe
    open still."""
    listen([worker])
    rest, worker.partial = worker.partial, b""
    if rest.strip():
        heard_from(worker, rest)


def run_workers(config: Config, count: int, drains: list[int] | None = None) -> int:
    """Run ``count`` workers on one port until SIGTERM, SIGINT or SIGHUP; the exit status.
    ``WorkersError`` if the port cannot be bound, or a worker could not start and said
    why (the web port in use, the database): the one line a single server says.
    PluginError (a broken rule plugin, loaded here for the workers) before any starts.
    ``drains``: the SIGUSR1s that came as ``serve`` started (cli.py holds them from its
    start), and the list the ones from here on are added to."""
    try:
        refuse_a_port_in_use(config.host, config.port)
        held = reuseport_socket(config.host, config.port)
    except OSError as exc:  # in use, a host that does not resolve: as one server says it
        raise WorkersError(cannot_listen(config.host, config.port, exc)) from None
    port = held.getsockname()[1]
    settings = attrs.asdict(attrs.evolve(config, port=port))
    OUT.limit = config.output_backlog_bytes
    stopping: list[int] = []
    # SIGUSR1s: each worker drains, none is started again
    draining: list[int] = drains if drains is not None else []

    def stop(signum: int, _frame: Any) -> None:
        leave_the_terminal_on_hangup(signum)
        stopping.append(signum)

    # SIGHUP (the terminal closed) too, unless ignored (nohup): the workers stop cleanly
    for signum in (signal.SIGTERM, signal.SIGINT, *hangup()):
        signal.signal(signum, stop)
    for signum in drain():
        signal.signal(signum, lambda signum, _frame: draining.append(signum))
    # this parent's run, which each worker's identity names (Node.identity): the one
    # started again after a death is then known for the dead one's successor
    parent = secrets.token_hex(8)
    # the server imported once, here: each worker forked from this parent skips it (a
    # refused port or settings said before, as quickly as ever); a broken plugin is
    # PluginError, said by the CLI as a lone serve says it, no worker started
    try:
        rules = preload()
    except BaseException:
        held.close()
        raise
    workers: list[Worker] = []

    def parents_own() -> list[Closable]:
        """What a worker forked now closes: the held socket, the other workers' pipes."""
        pipes = [pipe for w in workers for pipe in (w.process.stdin, w.process.stdout)]
        return [held, *(pipe for pipe in pipes if pipe is not None and not pipe.closed)]

    # why a worker is started as a fresh interpreter (forked.spawn_worker), not forked:
    # None while it is forked. Once a worker has been stopped as asked (a rolling
    # restart, perhaps an upgrade's), the code installed may be newer than what this
    # parent imported; a thread (a plugin's) makes a fork unsafe. Either way every
    # start from then on is a fresh interpreter's (docs/scaling.md, "Forked workers")
    spawned: str | None = None

    def start(i: int) -> Worker:
        nonlocal spawned
        if spawned is None and (threads := threads_running()):
            spawned = THREADS
            _fork_refused(threads)
        return start_worker(settings, i, count, parent, rules, parents_own(), spawned)

    for i in range(count):
        workers.append(start(i))
    announced = False
    failed = 0
    failure: str | None = None  # the reason a worker could not start, said by the CLI
    restart_at: dict[int, float] = {}  # a dead worker's index: when it starts again
    drained: set[int] = set()  # the workers a drain has ended (not started again)
    drains_seen = 0
    deaths = Deaths()  # each worker's deaths since it last served: said once, then summed
    try:
        while not stopping:
            while len(draining) > drains_seen:
                _drain_heard(workers, draining[drains_seen], not drains_seen, count)
                drains_seen += 1
            if draining:
                _pass_the_drain_on(workers, restart_at, drained)
                if len(drained) + len(restart_at) == count:  # every worker has stopped
                    log.info("drained", workers=count)
                    break
            listen(w for i, w in enumerate(workers) if i not in restart_at)
            OUT.pump()
            if not announced and all(w.ready for w in workers):
                log.info(
                    "listening",
                    host=config.host,
                    port=port,
                    db=_described(workers, config),
                    workers=count,
                    **config.web_off(),
                )
                announced = True
            for i in list(deaths.runs):  # (a worker started again that serves)
                if i not in restart_at and workers[i].ready:
                    deaths.serving(i, time.monotonic())
            for i, worker in enumerate(workers):
                if i in drained:
                    continue
                if i in restart_at:
                    if time.monotonic() >= restart_at[i] and not stopping and not draining:
                        del restart_at[i]
                        workers[i] = start(i)
                    continue
                code = worker.process.poll()
                if code is None or stopping:
                    continue
                # its matches over, it stopped: not started again (one the drain reached
                # as the others still started too: it had served, it did not fail to start)
                if draining and (announced or worker.draining):
                    if stopped_as_asked(code):
                        _let_go(worker)
                        log.info("worker_drained", worker=i, pid=worker.process.pid, status=code)
                    else:  # killed or failed meanwhile: its matches were cut off, not over
                        reason = _last_words(worker)
                        _let_go(worker)
                        log.warning(
                            "worker_died",
                            worker=i,
                            pid=worker.process.pid,
                            status=code,
                            reason=reason,
                            draining=True,
                        )
                    drained.add(i)
                    continue
                # it could not start, nor would it next time (one stopped as asked meanwhile
                # did not fail: it is started again, as below)
                if not announced and not stopped_as_asked(code):
                    _last_words(worker)
                    log.error(
                        "worker_failed_to_start", worker=i, status=code, reason=worker.failure
                    )
                    stopping.append(signal.SIGTERM)
                    failed = 2 if worker.failure is not None else 1
                    failure = worker.failure
                    break
                reason = _last_words(worker)
                _let_go(worker)
                # it stopped as asked (its SIGTERM, SIGHUP, drain), even before it served
                # (its status then the signal's, negative): no death
                if stopped_as_asked(code):
                    log.info("worker_stopped", worker=i, pid=worker.process.pid, status=code)
                    spawned = spawned or STOPPED
                else:  # (its first death since it served is said; the next are counted)
                    deaths.died(i, worker.process.pid, code, reason, time.monotonic())
                # a time to start it again, not a sleep: a signal meanwhile stops the
                # workers at once, and the others' deaths are seen as they come
                restart_at[i] = time.monotonic() + config.worker_restart_ms / 1000
            time.sleep(0.05)
        deaths.stopped(time.monotonic())
        if not failed and len(drained) + len(restart_at) < count:  # (drained: all stopped)
            log.info("shutdown", signal=signal.Signals(stopping[0]).name, workers=count)
        for worker in workers:
            if worker.process.poll() is None:
                _say(worker, STOP_WORD)  # the whole server's stop: all its tables close
                worker.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + config.shutdown_grace_ms / 1000 + 10
        ending = [w for i, w in enumerate(workers) if i not in restart_at]
        _hear_while_they_end(ending, deadline)
        status = failed
        for i, worker in enumerate(workers):
            if i in restart_at:  # it ended before the signal (worker_died or _stopped said)
                continue
            try:
                code = worker.process.wait(max(0.1, deadline - time.monotonic()))
            except TimeoutExpired:
                worker.process.kill()
                code = worker.process.wait()
            _hear_the_rest(worker)
            status = status or (code if code > 0 else 0)
        if failure is not None:
            raise WorkersError(failure)
        return status
    finally:
        for worker in workers:
            if worker.process.poll() is None:
                worker.process.kill()
            _let_go(worker)
        held.close()
        OUT.finish()
        log.info("stopped", workers=count)


def _hear_while_they_end(workers: list[Worker], deadline: float) -> None:
    """Wait until ``workers`` have ended (or ``deadline``), reading their stdout all the
    while: one that prints as it stops (a plugin's) would otherwise fill its pipe and
    hang there until killed, its print lost."""
    while time.monotonic() < deadline and any(w.process.poll() is None for w in workers):
        listen(w for w in workers if w.process.returncode is None)
        OUT.pump()
        time.sleep(ENDING_STEP_S)


# how often the parent looks whether its stopped workers have ended
ENDING_STEP_S = 0.01


def _pass_the_drain_on(
    workers: list[Worker], restart_at: dict[int, float], drained: set[int]
) -> None:
    """SIGUSR1 to each worker that serves and has not had it: it drains as a lone server
    does (docs/protocol.md §11.4a), then stops. One still starting gets it once ready
    (before that its default would end it). The word DRAIN_WORD on its stdin first:
    it is the whole server's drain, not one of that worker alone (worker.py)."""
    for i, worker in enumerate(workers):
        if worker.draining or not worker.ready or i in restart_at or i in drained:
            continue
        if worker.process.poll() is None:
            _say(worker, DRAIN_WORD)
            worker.process.send_signal(drain()[0])
        worker.draining = True


def _say(worker: Worker, word: bytes) -> None:
    """``word`` (DRAIN_WORD, STOP_WORD) on ``worker``'s stdin: what the whole server
    does, not that worker alone (one that died meanwhile: nobody to tell)."""
    pipe = worker.process.stdin
    if pipe is None:
        return
    try:
        pipe.write(word)
        pipe.flush()
    except OSError:  # (its end closed: it is dying, and the loop will see it)
        pass


def start_worker(
    settings: dict[str, Any],
    index: int,
    count: int,
    parent: str = "",
    rules: RuleBook | None = None,
    parents_own: Iterable[Closable] = (),
    spawned: str | None = None,
) -> Worker:
    """Worker ``index`` of ``count`` forked, a process of its own serving ``settings``
    (it says 'ready' on its stdout once it serves); ``parent``: the parent's run;
    ``rules``: the parent's loaded rules (None: the worker loads them); ``parents_own``:
    what the worker closes (forked.fork_worker); ``spawned``: why it is a fresh
    interpreter of the code installed now instead (forked.spawn_worker: ``STOPPED``,
    ``THREADS``). Its stdout: 'ready', then an admin's 'drain-asked NAME' (heard_from);
    its stdin's end is the parent's death, and the words said there, DRAIN_WORD and
    STOP_WORD (worker.py). Its ``worker_started`` line says which way it was started."""
    told = {
        "config": settings,
        "index": index,
        "count": count,
        "parent": parent,
        "parent_pid": os.getpid(),  # an admin's 'drain' signals it (cluster/__init__.py)
    }
    told = json.loads(json.dumps(told))  # the settings as the worker's Config reads them
    if spawned is None:
        try:
            process = fork_worker(told, rules, parents_own)
        except ForkRefused:  # a thread started since the parent looked: spawned this time
            spawned = THREADS
    if spawned is not None:
        process = spawn_worker(told)
        log.info("worker_started", worker=index, pid=process.pid, how="exec", why=spawned)
    else:
        log.info("worker_started", worker=index, pid=process.pid, how="fork")
    return Worker(index, process)


# why a worker is a fresh interpreter (its worker_started line's ``why``)
STOPPED = "stopped-as-asked"  # a worker was stopped as asked: perhaps new code installed
THREADS = "threads"  # the parent runs a thread (a plugin's): a fork would be unsafe


def _fork_refused(threads: int) -> None:
    """Say, once, that the parent runs threads and so forks no worker: each is a fresh
    interpreter, at its cost (docs/scaling.md, "Forked workers")."""
    names = sorted(t.name for t in threading.enumerate() if t is not threading.current_thread())
    log.warning("workers_not_forked", threads=threads, names=names)


def _let_go(worker: Worker) -> None:
    """Close the parent's end of an ended worker's pipes (a restart opens new ones)."""
    for pipe in (worker.process.stdin, worker.process.stdout):
        if pipe is not None:
            pipe.close()
