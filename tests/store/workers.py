"""``deberc-net serve --workers N`` in processes of their own, for the tests: the
parent's port, each worker's pid, and which worker holds a connection (read from
/proc: the kernel, not the server, chooses the worker of a connection); one such
cluster shared by a module's tests that leave it as they found it; one worker
in the test's process whose other worker the test plays on the real bus (and the bus
of any further worker it plays); and the
settings most of their tests serve, and a client's wait until a table or a player is
listed (or is no more)."""

from __future__ import annotations

import functools
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import attrs
import psycopg
import trio

from deberc_net.server.app import serve
from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.bus import LOBBY, Bus, channel
from tests.hangup import as_from_a_terminal, as_under_nohup
from tests.server.client import LineClient, fields, is_event, log_in_machine
from tests.server.conftest import make_config

START_LIMIT_S = 40  # two workers starting at once on a busy 2-core machine
OTHER = 900001  # the bus id of a worker a test plays (worker_and_bus)
# the server settings of tests/store/test_workers.py and of the tests split from it.
# server_dead_ms 10 s, not 3: none of them waits for a death by silence (a kill is
# known at once: cluster/liveness.py), and a loaded run's stalls of one worker's
# process (ci49c: 2.3 s, then 2.7 s) had it taken for dead; quick_death for those that
# wait for one
SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 100\nheartbeat_ms = 500\nserver_dead_ms = 10000\n"
    "house_bots = true\nworker_restart_ms = 50\n"  # (a killed worker's restart: not 1 s)
    "seek_patience_ms = 200\n"  # (a seek's wait before another worker's seekers: not 1 s)
)
QUICK_DEAD_MS = 1500  # quick_death's server_dead_ms


def quick_death(settings: str) -> str:
    """``settings`` (SETTINGS' beats) with a worker taken for dead after 1.5 s of
    silence, beats every 0.3 s: for a test that waits for a death, or a stall past it,
    and not for how long the judgement takes (3 s each was most of their wall time)."""
    beats = "heartbeat_ms = 500\n", "server_dead_ms = 10000\n"
    assert all(beat in settings for beat in beats), settings
    quick = settings.replace(beats[0], "heartbeat_ms = 300\n")
    return quick.replace(beats[1], f"server_dead_ms = {QUICK_DEAD_MS}\n")


@attrs.define
class Cluster:
    url: str  # its database
    port: int
    pids: dict[int, int]  # worker index: pid (the latest, after a restart)
    events: list[dict[str, Any]]  # every log line of the parent and its workers

    def heard(self, line: bytes) -> bool:
        """Take in a log line of the parent or a worker: whether it says the parent listens."""
        try:
            entry = json.loads(line)
        except ValueError:  # several processes share the stream: rarely mixed
            entry = {"raw": line.decode(errors="replace")}
        self.events.append(entry)
        if entry.get("event") == "worker_listening":
            self.pids[int(entry["worker"])] = int(entry["pid"])
        if entry.get("event") == "listening":
            self.port = int(entry["port"])
            return True
        return False

    def server(self, worker: int) -> int:
        """The bus id of worker ``worker`` (the latest, after a restart): its channel's."""
        return next(
            int(e["server"])
            for e in reversed(self.events)
            if e.get("event") == "worker_listening" and e.get("worker") == worker
        )

    def http_port(self) -> int:
        """The web face's port (worker 0's: it alone serves it)."""
        return next(
            int(e["port"]) for e in reversed(self.events) if e.get("event") == "http_listening"
        )

    def holder(self, client: LineClient) -> int | None:
        """The index of the worker that serves ``client``'s connection."""
        assert isinstance(client.stream, trio.SocketStream)
        inode = _server_inode(client.stream.socket)
        if inode is None:
            return None
        for index, pid in self.pids.items():
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                        return index
                except OSError:
                    continue
        return None

    async def reach(self, worker: int, label: str, source: str | None = None) -> LineClient:
        """A connection to worker ``worker`` (the kernel spreads connections: try until
        one lands there), from the address ``source`` if given."""
        for _ in range(40):
            client = await LineClient.connect(self.port, label, source)
            if self.holder(client) == worker:
                return client
            await client.aclose()
        raise AssertionError(f"no connection landed on worker {worker}")

    async def connect(
        self,
        worker: int,
        name: str,
        password: str | None = None,
        token: str | None = None,
        source: str | None = None,
    ) -> LineClient:
        """A machine-style client logged in as ``name`` on worker ``worker``."""
        client = await self.reach(worker, name, source)
        return await log_in_machine(client, name, password, token)


@attrs.define
class Workers(Cluster):
    """A cluster a test started (``served_workers``), in its trio run."""

    process: trio.Process


@attrs.define
class SharedWorkers(Cluster):
    """A cluster started for a module's tests (``shared_workers``): outside any one
    test's trio run, its log read by a thread."""

    process: subprocess.Popen[bytes]

    async def until_whole(self, found: dict[int, int], since: int) -> None:
        """Wait until each worker a test killed or stopped (its pid no longer as
        ``found``) has a replacement serving, and each loss has been heard
        (``worker_lost``, or ``worker_left`` for a stop, in the log after ``since``): as
        the test found the cluster. A worker that logged its ``shutdown`` after ``since``
        is one stopped, if still stopping."""
        with trio.fail_after(30):
            while True:
                stopping = {
                    e.get("worker") for e in self.events[since:] if e.get("event") == "shutdown"
                }
                gone = [
                    w
                    for w, pid in found.items()
                    if self.pids[w] != pid or not _alive(pid) or w in stopping
                ]
                back = all(self.pids[w] != found[w] and _alive(self.pids[w]) for w in gone)
                lost = sum(
                    e.get("event") in ("worker_lost", "worker_left") for e in self.events[since:]
                )
                if back and lost >= len(gone):
                    return
                await trio.sleep(0.05)

    async def until_nobody_listed(self) -> None:
        """Wait until 'who' at each worker lists nobody but the one asking: a test's
        players, and their seeks, let go everywhere (a seek left by one test would sit
        at the next one's table)."""
        with trio.fail_after(20):
            for worker in sorted(self.pids):
                sweeper = await self.connect(worker, f"sweeper{worker}")
                try:
                    while True:
                        await sweeper.send("who")
                        told = fields(await sweeper.read_until(lambda x: x.startswith("who ")))
                        if told[1]["total"] == "1":
                            break
                        await trio.sleep(0.05)
                finally:
                    await sweeper.aclose()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (not gone, nor a zombie its parent has yet to reap)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


# the kernel's socket diagnostics (linux/sock_diag.h, linux/inet_diag.h): one socket
# looked up by its addresses. /proc/net/tcp, read before, lists every TCP socket of the
# host (thousands on a busy one, the suite's own closed connections among them): some
# 6 ms of CPU a read, and a worker's test reads it at each connection it places.
NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST = 1
INET_DIAG_NOCOOKIE = 0xFFFFFFFF
NLMSG_HEADER = struct.Struct("=IHHII")  # length, type, flags, sequence, port id
# the reply's inode: after its header, family/state/timer/retrans (4 bytes), the socket's
# id (48) and expires, rqueue, wqueue, uid (16)
INODE_AT = NLMSG_HEADER.size + 4 + 48 + 16


def _server_inode(client: trio.socket.SocketType) -> int | None:
    """The inode of the server's end of ``client``'s connection (None: there is none)."""
    family = client.family
    here, here_port = client.getsockname()[:2]
    there, there_port = client.getpeername()[:2]

    def address(text: str) -> bytes:
        return socket.inet_pton(family, text).ljust(16, b"\0")

    # the server's end: its source is the address the client connected to
    sockid = struct.pack(">HH", there_port, here_port) + address(there) + address(here)
    sockid += struct.pack("=III", 0, INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE)  # any interface
    states = 0xFFFFFFFF  # in any TCP state
    request = struct.pack("=BBBxI", family, socket.IPPROTO_TCP, 0, states) + sockid
    header = NLMSG_HEADER.pack(
        NLMSG_HEADER.size + len(request), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 1, 0
    )
    with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG) as diag:
        diag.send(header + request)
        reply = diag.recv(65536)
    if NLMSG_HEADER.unpack_from(reply)[1] != SOCK_DIAG_BY_FAMILY:  # an error: no such socket
        return None
    inode: int = struct.unpack_from("=I", reply, INODE_AT)[0]
    return inode


@asynccontextmanager
async def served_workers(
    url: str,
    settings: Path,
    count: int = 2,
    own_group: bool = False,
    heard: Callable[[dict[str, Any]], None] | None = None,
    nohup: bool = False,
    stdout: int | None = None,
) -> AsyncIterator[Workers]:
    """``serve --workers count`` on a free port (the web face off unless ``settings``
    give it an ``http_port``), its stdout ``stdout`` (a descriptor: a pipe the test may
    leave unread; None: this process's); SIGTERM at the end. ``own_group``: the parent and its
    workers in a process group of their own, as a terminal's foreground job (the test
    signals them all as a terminal's Ctrl-C does). ``heard``: called with each log
    line as it comes, from the start (a test that acts on one before ``listening``).
    ``nohup``: started as under ``nohup`` (SIGHUP ignored), not as from a terminal."""
    async with trio.open_nursery() as nursery:
        web = "http_port" in settings.read_text()
        command = [
            sys.executable, "-m", "deberc_net", "serve", "--workers", str(count),
            "--db", url, "--port", "0", "--config", str(settings),
        ]  # fmt: skip
        if not web:
            command += ["--http-port", "off"]  # off
        # SIGHUP at its default, as from a terminal (tests/store/test_workers_stopping.py
        # sends it), even where this suite runs under nohup
        command = as_under_nohup(command) if nohup else as_from_a_terminal(command)
        process = await nursery.start(
            functools.partial(
                trio.run_process,
                command,
                stdout=stdout,
                stderr=subprocess.PIPE,
                check=False,
                process_group=0 if own_group else None,
            )
        )
        assert process.stderr is not None
        workers = Workers(url=url, port=0, pids={}, events=[], process=process)
        listening = trio.Event()

        async def read_log(stream: trio.abc.ReceiveStream) -> None:
            buffered = b""
            while chunk := await stream.receive_some():
                buffered += chunk
                *lines, buffered = buffered.split(b"\n")
                for line in lines:
                    if workers.heard(line):
                        listening.set()
                    if heard is not None:
                        heard(workers.events[-1])

        nursery.start_soon(read_log, process.stderr)
        with trio.fail_after(START_LIMIT_S):
            await listening.wait()
        try:
            yield workers
        except BaseException:
            for entry in workers.events[-60:]:  # what the servers said, for the failure
                print(json.dumps(entry)[:400], file=sys.stderr)
            raise
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with trio.fail_after(START_LIMIT_S):
                    await process.wait()


@contextmanager
def shared_workers(url: str, settings: Path) -> Iterator[SharedWorkers]:
    """``serve --workers 2`` on a free port (the web face off unless ``settings`` give
    it an ``http_port``), as ``served_workers`` starts it, but for several tests, each
    in a trio run of its own: started and stopped (SIGTERM) outside them, its log read
    by a thread."""
    command = [
        sys.executable, "-m", "deberc_net", "serve", "--workers", "2",
        "--db", url, "--port", "0", "--config", str(settings),
    ]  # fmt: skip
    if "http_port" not in settings.read_text():
        command += ["--http-port", "off"]
    process = subprocess.Popen(as_from_a_terminal(command), stderr=subprocess.PIPE)
    assert process.stderr is not None
    stderr = process.stderr
    workers = SharedWorkers(url=url, port=0, pids={}, events=[], process=process)
    listening = threading.Event()

    def read_log() -> None:
        for line in stderr:
            if workers.heard(line.rstrip(b"\n")):
                listening.set()

    reader = threading.Thread(target=read_log, daemon=True)
    reader.start()
    try:
        assert listening.wait(START_LIMIT_S), workers.events[-20:]
        yield workers
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(START_LIMIT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(START_LIMIT_S)


@asynccontextmanager
async def worker_and_bus(
    postgres_url: str,
    heard: list[dict[str, Any]],
    sender: int,
    web: list[int] | None = None,
    dead_ms: int = 600_000,
    **settings: Any,
) -> AsyncIterator[tuple[int, Bus]]:
    """One worker of ``serve --workers`` in this process (its port) and a bus (its id
    ``sender``, every message it hears in ``heard``) on which the test plays the
    other worker. ``web``: the web face is served too, its port appended there.
    ``dead_ms``: the worker's server_dead_ms; ``settings``: its others."""
    config = make_config(
        postgres_url,
        server_dead_ms=dead_ms,
        shutdown_grace_ms=0,
        http_port=None if web is None else 0,
        **settings,
    )
    bus = Bus(postgres_url, sender, heard.append)
    bus.open()
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bus.run)
            port = await nursery.start(
                lambda task_status: serve(
                    config,
                    worker=WorkerPlace(0, 2),
                    task_status=task_status,
                    http_bound=None if web is None else web.append,
                )
            )
            yield port, bus
            nursery.cancel_scope.cancel()
    finally:
        bus.close()


@asynccontextmanager
async def played_bus(
    postgres_url: str, sender: int, heard: list[dict[str, Any]] | None = None
) -> AsyncIterator[Bus]:
    """The bus of another worker the test plays, running: every message on the lobby
    and on channel ``sender`` appended to ``heard`` (none: it hears nothing)."""
    bus = Bus(postgres_url, sender, (lambda _: None) if heard is None else heard.append)
    bus.open()
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bus.run)
            yield bus
            nursery.cancel_scope.cancel()
    finally:
        bus.close()


def told_table(table_id: int, seats: list[str | None]) -> dict[str, Any]:
    """A waiting two-seat table of a worker a test plays, as a worker tells it."""
    return {
        "id": table_id, "players": 2, "variant": "moscow", "options": [], "seats": seats,
        "state": "waiting", "observers": 0, "private": False, "invited": [],
        "reserved": None, "board": None, "match": None, "away": [],
    }  # fmt: skip


async def heard_one(heard: list[dict[str, Any]], **want: Any) -> dict[str, Any]:
    """The first message the test's bus heard with these fields (waiting for it)."""
    with trio.fail_after(30):
        while True:
            for message in heard:
                if all(message.get(k) == v for k, v in want.items()):
                    return message
            await trio.sleep(0.01)


def database_away(url: str, away: bool) -> None:
    """``url``'s database refuses new connections (and drops its own), or takes them
    again: as a PostgreSQL stopped and started again, for this database alone."""
    with psycopg.connect(url, dbname="postgres", autocommit=True) as db:
        name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
        assert isinstance(name, str)
        allow = "false" if away else "true"
        db.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {allow}')
        if away:
            db.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )


def settings_file(tmp_path: Path, settings: str = SETTINGS) -> Path:
    path = tmp_path / "server.toml"
    path.write_text(settings)
    return path


async def until_listed(client: LineClient, command: str, want: str, present: bool = True) -> str:
    """Ask ``command`` until its answer has (or, not ``present``, lacks) ``want``."""
    with trio.fail_after(30):
        while True:
            await client.send(command)
            line = await client.read_until(lambda x: fields(x)[0] in ("who", "tables"))
            if fields(line)[0] == "tables":  # a line per table follows
                for _ in range(int(fields(line)[1]["count"])):
                    line += "\n" + await client.read_until(lambda x: fields(x)[0] == "table")
            if (want in line) == present:
                return line
            await trio.sleep(0.1)


async def across_with_a_house_bot(
    workers: Cluster, opened: list[LineClient], bob_at: int, suffix: str = ""
) -> tuple[LineClient, LineClient]:
    """bob (worker ``bob_at``) opens a three-seat table, ann (the other worker) sits, bob
    seats a house bot at the last: the match starts. ann's client and bob's (their
    names with ``suffix``)."""
    bob = await workers.connect(bob_at, "bob" + suffix)
    ann = await workers.connect(1 - bob_at, "ann" + suffix)
    opened += [ann, bob]
    await bob.send("new 3")
    table = (await bob.expect("ok", cmd="sit"))["table"]
    await until_listed(ann, "tables", f"id={table} ")
    await ann.send(f"sit {table}")
    await ann.expect("ok", cmd="sit", timeout=30)
    await bob.send("bot random")
    await bob.expect("ok", cmd="bot", timeout=30)
    await ann.read_until(lambda x: is_event(x, "start"), 30)
    return ann, bob


async def playing_across(opener: LineClient, joiner: LineClient) -> str:
    """A two-player match of ``opener``'s table (``new 2``) that ``joiner``, on another
    worker, sits at once its copy is listed there: started. Its table id."""
    await opener.send("new 2")
    table: str = (await opener.expect("ok", cmd="sit"))["table"]
    await until_listed(joiner, "tables", f"id={table} ")
    await joiner.send(f"sit {table}")
    await joiner.read_until(lambda x: is_event(x, "start"))
    return table


# ann, a guest of a worker the test plays, at a table of the real worker (her token,
# and how her sit and back name her: a machine-style guest in English)
ANN_TOKEN = "annstoken1"
ANN_WHO = ["ann", True, "machine", "en", "rank", None, "all"]


async def ann_plays_from(
    port: int, heard: list[dict[str, Any]], other: Bus, session: int, hello_as: str | None = None
) -> tuple[LineClient, int, int]:
    """bob at the real worker opens a two-seat table; ann, a guest of ``other`` (its
    session ``session``; its ``hello`` first, as ``hello_as``, if given), sits there:
    the match starts. bob's client, the table's id, and the real worker's bus id."""
    bob = await log_in_machine(await LineClient.connect(port), "bob")
    await bob.send("new 2")
    table = int((await bob.expect("ok", cmd="sit"))["table"])
    here = (await heard_one(heard, k="in", name="bob"))["w"]
    if hello_as is not None:
        # its answer (bob's 'in' again) heard now: heard late, after a test cleared what
        # it heard, it was taken for the answer to a later hello (a replacement's), and
        # the test went on before the worker had read that one (a run under load)
        heard.clear()
        other.publish(LOBBY, {"k": "hello", "as": hello_as})
        await heard_one(heard, k="in", name="bob")
    claim = {"k": "in", "name": "ann", "guest": True, "token": ANN_TOKEN, "fresh": True}
    other.publish(LOBBY, claim | {"at": time.time(), "s": session})
    sit = {"k": "post", "table": table, "req": True, "r": 1, "m": "sit", "seat": None}
    other.publish(channel(here), sit | {"seeking": None, "s": session, "who": ANN_WHO})
    await bob.read_until(lambda x: is_event(x, "start"))
    return bob, table, here


async def ann_back(port: int) -> LineClient:
    """ann logs in again at the real worker, with her token."""
    return await log_in_machine(await LineClient.connect(port), "ann", token=ANN_TOKEN)


async def ann_back_at(
    where: str, port: int, third: Bus, table: int, here: int, over: list[int]
) -> LineClient | None:
    """ann logs in again with her token: at the table's owner (``where`` 'here': her
    client), or at a third worker the test plays ('third': its claim of her name over
    ``over``, the worker and session she was on, and its Back at her table; None)."""
    if where == "here":
        return await ann_back(port)
    claim = {"k": "in", "name": "ann", "guest": True, "token": ANN_TOKEN}
    third.publish(LOBBY, claim | {"at": time.time(), "s": 2, "over": over})
    back = {"k": "post", "table": table, "req": True, "r": 1, "m": "back"}
    third.publish(channel(here), back | {"s": 2, "who": ANN_WHO})
    return None


async def ann_away_at_table(bob: LineClient, table: int, said: str) -> tuple[bool, str]:
    """Whether bob was told ann went away since his last read, up to his own table
    'say' of ``said`` (his table tells its events in order: an away already posted to
    it comes first); and his table's line in 'tables' then."""
    await bob.send(f"say {said}")
    line = await bob.read_until(
        lambda x: (
            (is_event(x, "away") and "name=ann" in x)
            or (fields(x)[0] == "say" and fields(x)[1].get("text") == said)
        )
    )
    if is_event(line, "away"):
        return True, line
    await bob.send("tables")
    while True:
        line = await bob.read_until(lambda x: fields(x)[0] == "table")
        if fields(line)[1].get("id") == str(table):
            return False, line


def deal_stored(url: str, match: str) -> bool:
    """Whether a deal of ``match`` is on disk (a match without one is not listed)."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT 1 FROM deals WHERE match_id = %s", (match,)).fetchone()
    return row is not None


def listed_lost(url: str, match: str) -> bool:
    """Whether ``match`` is listed server-lost (its server's silence judged a death)."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT reason FROM matches WHERE id = %s", (match,)).fetchone()
    return row is not None and row[0] == "server-lost"


async def until_stored(check: Callable[[str, str], bool], url: str, match: str) -> None:
    """Poll the database until ``check`` holds of ``match`` (30 s at most)."""
    with trio.fail_after(30):
        while not await trio.to_thread.run_sync(check, url, match):
            await trio.sleep(0.05)


async def cut_off_notice(client: LineClient, within: float = 3) -> str | None:
    """The cut-off notice of ``client``'s login, if one comes within ``within`` seconds
    (it is sent after the login's ``ok``, once the store is read: no round trip follows
    it). (The read's own limit is past ``within``: a loaded machine's window, five times
    a slow notice's time, ran past a fixed 10 s, and the read failed instead.)"""
    with trio.move_on_after(within):
        return await client.read_until(lambda x: x.startswith("info cut_off="), within + 10)
    return None
