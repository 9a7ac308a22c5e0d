"""SIGTERM, SIGINT, SIGHUP: refuse newcomers in one line, tell everyone, keep what is
stored, exit 0."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import random
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.cli import build_parser, serve_config
from deberc_net.server import running
from tests.hangup import as_from_a_terminal

from .client import fields, infos_so_far, is_event, play_machine, seat_pair
from .conftest import Connector, make_config, running_server
from .process import read_until, start_server_process


@contextlib.contextmanager
def _serving(
    db: Path, grace_ms: int, nohup: bool = False
) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``deberc-net serve`` as a process with ``shutdown_grace_ms`` (``nohup``: SIGHUP
    ignored, as under it): it and its port; killed at the end if it still runs."""
    proc, port = start_server_process(db, f"shutdown_grace_ms = {grace_ms}", nohup)
    try:
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _events(proc: subprocess.Popen[str]) -> list[str]:
    """The events the process logged (it has ended)."""
    assert proc.stderr is not None
    return [json.loads(line)["event"] for line in proc.stderr.read().splitlines() if line]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_signal_stops_cleanly_and_tells_everyone(tmp_path: Path, signum: int) -> None:
    # the grace before connections close is test_attacks' (calls answered meanwhile)
    with (
        _serving(tmp_path / "s.sqlite3", 100) as (proc, port),
        socket.create_connection(("127.0.0.1", port), timeout=30) as client,
        socket.create_connection(("127.0.0.1", port), timeout=30) as newcomer,
    ):
        client.sendall(b"style machine\nlogin waiter\n")
        read_until(client, b"cmd=login")
        newcomer.sendall(b"style machine\n")
        read_until(newcomer, b"cmd=style")
        proc.send_signal(signum)
        name = signal.Signals(signum).name
        told = f"info server=stopping text=The server is shutting down: {name} received."
        said = read_until(client, b"shutting down")
        assert told.encode() in said
        rest = read_until(client, b"\xff")  # until the server closes the connection
        assert b"error" not in rest
        # one not logged in is told the same (it got only the close: failed before)
        said = read_until(newcomer, b"\xff")
        assert told.encode() in said and b"error" not in said, said
        assert proc.wait(timeout=20) == 0
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    events = _events(proc)
    assert "shutdown" in events and events[-1] == "stopped"


def test_a_server_started_under_nohup_plays_on_through_a_hangup(tmp_path: Path) -> None:
    """SIGHUP ignored (``nohup``) stays ignored: the server was asked to outlive its
    terminal, and SIGTERM still stops it."""
    with _serving(tmp_path / "s.sqlite3", 0, nohup=True) as (proc, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"style machine\nlogin stayer\n")
            read_until(client, b"cmd=login")
            proc.send_signal(signal.SIGHUP)
            client.sendall(b"who\n")  # answered after the hangup: nothing stopped
            said = read_until(client, b"names=")
            assert b"who count=1 names=stayer" in said and b"shutting down" not in said, said
            assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    assert "shutdown" in _events(proc)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_second_signal_during_the_stop_changes_nothing(tmp_path: Path, signum: int) -> None:
    """A server stops once (docs/protocol.md §11.4): a second SIGHUP (a shell sends its
    jobs one beside the kernel's) or SIGTERM during the grace, handed back by trio as
    the stop ended, killed it before its last writes (status -1, no 'stopped')."""
    with (
        _serving(tmp_path / "s.sqlite3", 1000) as (proc, port),
        socket.create_connection(("127.0.0.1", port), timeout=30) as client,
    ):
        client.sendall(b"style machine\nlogin waiter\n")
        read_until(client, b"cmd=login")
        proc.send_signal(signum)
        read_until(client, b"shutting down")
        proc.send_signal(signum)
        assert proc.wait(timeout=20) == 0
    events = _events(proc)
    assert events.count("shutdown") == 1 and events[-1] == "stopped"


def test_a_closed_terminal_stops_the_server_cleanly(tmp_path: Path) -> None:
    """The server in a terminal of its own (a pty: its controlling terminal, its
    standard streams), the terminal closed: the kernel's SIGHUP stops it as SIGTERM
    does. Its log lines, written to the hung-up terminal, raised EIO and ended it with
    status 1, nobody told (a review's)."""
    with socket.socket() as probe:  # a free port (the log on a terminal is not JSON)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # a grace of 0.1 s, not the default 2 s that ann, online, kept waited in full
    settings = tmp_path / "server.toml"
    settings.write_text("[server]\nshutdown_grace_ms = 100\n")
    command = [sys.executable, "-m", "deberc_net", "serve", "--port", str(port)]
    command += ["--http-port", "off", "--db", str(tmp_path / "s.sqlite3")]
    command += ["--config", str(settings)]
    master, slave = pty.openpty()

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        as_from_a_terminal(command),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        preexec_fn=own_terminal,
    )
    os.close(slave)
    try:
        said = b""
        deadline = time.monotonic() + 20
        while b"listening" not in said and time.monotonic() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                said += os.read(master, 65536)
        assert b"listening" in said, said
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"style machine\nlogin ann\n")
            read_until(client, b"cmd=login")
            os.close(master)  # the terminal is gone
            master = -1
            told = read_until(client, b"\xff")  # until the server closes it
            stop = b"info server=stopping text=The server is shutting down: SIGHUP received."
            assert stop in told, told
        assert proc.wait(timeout=20) == 0
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# A server whose 'listening' line is answered at once, in that very call, by SIGTERM: the
# signal must already be the server's to handle (a supervisor may signal the moment it
# reads the line)
_SIGNALLED_AT_LISTENING = """
import os, signal, sys
import trio
from deberc_net.server import app, running
from deberc_net.server.config import Config
from deberc_net.server.logs import configure_logging

configure_logging("info", json_output=True)
said = running.lifecycle_log  # the running server's listening (server/running.py)

class SignalledAtListening:
    def __getattr__(self, name):
        return getattr(said, name)

    def info(self, event, **fields):
        said.info(event, **fields)
        if event == "listening":
            os.kill(os.getpid(), signal.SIGTERM)

running.lifecycle_log = SignalledAtListening()
config = Config(port=0, db=sys.argv[1], shutdown_grace_ms=0)
trio.run(lambda: app.serve(config, handle_signals=True))
"""


def test_a_signal_the_moment_listening_is_logged_stops_the_server_cleanly(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SIGNALLED_AT_LISTENING, str(tmp_path / "s.sqlite3")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr)
    events = [json.loads(line)["event"] for line in done.stderr.splitlines() if line]
    assert events.index("listening") < events.index("shutdown") and events[-1] == "stopped"


def test_a_stop_names_the_matches_it_ends_and_tells_their_players_in_their_language(
    tmp_path: Path,
) -> None:
    """SIGTERM mid-match: the log names the match it cut (tryout-s15 #7: no line said
    which), and each player is told his match stops unrated, in his language (club
    tryout, s23: only "Table 34 closes: SIGINT received.", half English on a Russian
    screen, and nothing of the match). One server for both: each is what that one stop
    does."""
    proc, port = start_server_process(tmp_path / "s.sqlite3", "shutdown_grace_ms = 100")
    try:
        with (
            socket.create_connection(("127.0.0.1", port), timeout=30) as ann,
            socket.create_connection(("127.0.0.1", port), timeout=30) as гена,
        ):
            ann.sendall(b"style machine\nlogin ann\nnew 2\n")
            table = read_until(ann, b"cmd=sit").split(b"table=")[1].split()[0].decode()
            гена.sendall(f"login Гена lang=ru\nsit {table}\n".encode())
            match = read_until(ann, b"kind=start").split(b"match=")[1].split()[0].decode()
            proc.send_signal(signal.SIGTERM)
            machine = read_until(ann, b"\xff").decode()
            # (a person's long line goes on indented: one line again here)
            russian = read_until(гена, b"\xff").decode().replace("\r\n  ", " ")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    lines = [json.loads(line) for line in proc.stderr.read().splitlines() if line]
    [started] = [x["match"] for x in lines if x["event"] == "match_start"]
    [stopped] = [x for x in lines if x["event"] == "matches_stopped"]
    assert started == match
    assert stopped["matches"] == [started] and stopped["level"] == "warning"
    assert (
        f"info closed={table} text=Table {table} closes: SIGTERM received. Match {match} stops"
        " here: nobody wins or loses, and it is not rated." in machine
    ), machine
    assert "Сервер останавливается: получен сигнал SIGTERM." in russian, russian
    assert (
        f"Стол {table} закрывается: получен сигнал SIGTERM. Партия {match} прервана: без"
        " победителя, в рейтинг не идёт." in russian
    ), russian


class _Listening:
    """The server's lifecycle log, the ``listening`` lines' fields kept aside."""

    def __init__(self, log: Any) -> None:
        self.log, self.said = log, list[dict[str, object]]()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.log, name)

    def info(self, event: str, **fields: object) -> None:
        if event == "listening":
            self.said.append(fields)
        self.log.info(event, **fields)


async def test_listening_says_when_there_is_no_web_face(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # club tryout (s23): '--port 0 --http-port 0' (now 'off') lost the web face with no word of it
    # ('serve''s flags and file read as the command reads them; the servers in this
    # process: what the line says is the server's, not its process's)
    listening = _Listening(running.lifecycle_log)
    monkeypatch.setattr(running, "lifecycle_log", listening)
    (tmp_path / "web.toml").write_text("[server]\nhttp_port = 0\n")  # (0: a free port)
    for web, flags in ((False, ["--http-port", "off"]), (True, ["--config", "web.toml"])):
        argv = ["serve", "--port", "0", "--db", str(tmp_path / f"{web}.sqlite3"), *flags]
        with contextlib.chdir(tmp_path):
            config = serve_config(build_parser().parse_args(argv))
        async with running_server(config):
            pass
        [said] = listening.said
        assert said.get("web") == (None if web else "off"), said
        listening.said.clear()


def test_a_server_with_nobody_online_stops_at_once_whatever_its_grace(tmp_path: Path) -> None:
    # failed before: the grace (a minute here, 2 s by default) was waited in full, with
    # nobody to flush anything to
    with _serving(tmp_path / "s.sqlite3", 60000) as (proc, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"style machine\nlogin passer\nquit\n")
            read_until(client, b"\xff")  # logged in, and gone
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0  # not the minute
    events = _events(proc)
    assert "shutdown" in events and events[-1] == "stopped"


def test_the_grace_is_waited_while_a_player_is_online_and_ends_when_he_goes(
    tmp_path: Path,
) -> None:
    with _serving(tmp_path / "s.sqlite3", 500) as (proc, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"style machine\nlogin stayer\n")
            read_until(client, b"cmd=login")
            signalled = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            assert b"shutting down" in read_until(client, b"shutting down")
            read_until(client, b"\xff")  # the server closes the connection: its grace over
            assert time.monotonic() - signalled >= 0.5
        assert proc.wait(timeout=20) == 0
    # a player who goes once told: nobody is left, the stop does not wait out the minute
    with _serving(tmp_path / "s.sqlite3", 60000) as (proc, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"style machine\nlogin leaver\n")
            read_until(client, b"cmd=login")
            proc.send_signal(signal.SIGTERM)
            assert b"shutting down" in read_until(client, b"shutting down")
        assert proc.wait(timeout=20) == 0  # not the minute


def test_a_connection_during_the_grace_is_told_why_in_one_line(tmp_path: Path) -> None:
    # failed before: the stop stopped accepting but kept the port listening, so a
    # connection in the grace was taken by the kernel and got nothing, not even the
    # banner, for the whole grace (here a minute: the test's 10 s ran out)
    with _serving(tmp_path / "s.sqlite3", 60000) as (proc, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"style machine\nlogin stayer\n")
            read_until(client, b"cmd=login")
            proc.send_signal(signal.SIGTERM)
            assert b"shutting down" in read_until(client, b"shutting down")
            with socket.create_connection(("127.0.0.1", port), timeout=30) as late:
                said = read_until(late, b"\xff", 10)  # to the server's close
            # (docs/protocol.md §1: while the server shuts down, the newcomer's one line)
            assert said == b"error code=busy text=the server is shutting down\r\n", said
            client.sendall(b"quit\n")  # nobody left: the stop ends
        assert proc.wait(timeout=20) == 0
        assert proc.stderr is not None
        lines = [json.loads(line) for line in proc.stderr.read().splitlines() if line]
        [refused] = [line for line in lines if line["event"] == "refused"]
        assert refused["reason"] == "shutting-down" and refused["level"] == "warning"


@pytest.mark.production_password_cost  # (the passwords hashed by the first, a process)
async def test_after_a_restart_a_registered_player_is_told_his_match_was_cut_off(
    tmp_path: Path, connect: Connector
) -> None:
    # club tryout (s23): back after a restart, nothing said the match had been cut off
    db = tmp_path / "s.sqlite3"
    proc, port = start_server_process(db, "shutdown_grace_ms = 100")
    try:
        ann = await connect.machine(port, "ann", "pw-ann-1")  # registered by this login
        bob = await connect.machine(port, "bob", "pw-bob-1")
        await seat_pair(ann, bob)
        deal_over = lambda x: is_event(x, "deal-end")  # noqa: E731  (one deal stored)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(1), deal_over)
            nursery.start_soon(play_machine, bob, random.Random(2), deal_over)
        match = fields(next(x for x in ann.lines if is_event(x, "start")))[1]["match"]
        table = fields(next(x for x in ann.lines if is_event(x, "start")))[1]["table"]
        proc.send_signal(signal.SIGTERM)
        assert await trio.to_thread.run_sync(proc.wait, 20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # the restarts: servers in this process on the same file, one after the other (the
    # stop by a signal is the first's; two Python start-ups less)
    async with running_server(make_config(db, shutdown_grace_ms=100)) as port:
        again = await connect.machine(port, "ann", "pw-ann-1")
        said = (await again.expect("info"))["text"]
        assert re.fullmatch(
            rf"Your last match, {match} at table {table}, was cut off when the server stopped"
            r" \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): nobody won or lost, and it was not"
            r" rated\. 'games' lists it\.",
            said,
        ), said
        once_more = await connect.machine(port, "ann", "pw-ann-1")  # told once
        assert not [x for x in await infos_so_far(once_more) if "cut off" in x]
        guest = await connect.machine(port, "cat")  # a guest's name proves nothing
        assert await infos_so_far(guest) == []
    # once for good: a restart again that day does not tell it again (it did, told
    # once a server run), while bob, not told yet, is told after it
    async with running_server(make_config(db, shutdown_grace_ms=100)) as port:
        third = await connect.machine(port, "ann", "pw-ann-1")
        # bob's notice, asked after hers, is a barrier (not a strict one: the two look-ups
        # run in threads; tests/store/test_cut_offs_told.py holds the once strictly)
        bob = await connect.machine(port, "bob", "pw-bob-1")
        assert f"Your last match, {match} at table {table}" in (await bob.expect("info"))["text"]
        assert not [x for x in await infos_so_far(third) if "cut off" in x]


def _deal_stored(db: Path, match: str) -> None:
    """Wait till the store writer has committed a deal of ``match`` (a kill waits for
    nothing of the server's own)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.closing(sqlite3.connect(db)) as con:
            if con.execute("SELECT 1 FROM deals WHERE match_id = ?", (match,)).fetchone():
                return
        time.sleep(0.02)
    raise AssertionError(f"no deal of {match} stored")


@pytest.mark.production_password_cost  # (the passwords hashed by the first, a process)
async def test_after_a_kill_9_a_registered_player_is_told_at_once_his_match_was_lost(
    tmp_path: Path, connect: Connector
) -> None:
    # operator evening (s41): kill -9 mid-match, restart, log in again: the greeting
    # only, the match still running in the store till server_dead_ms had passed
    db = tmp_path / "s.sqlite3"
    proc, port = start_server_process(db)
    try:
        ann = await connect.machine(port, "ann", "pw-ann-1")
        bob = await connect.machine(port, "bob", "pw-bob-1")
        await seat_pair(ann, bob)
        deal_over = lambda x: is_event(x, "deal-end")  # noqa: E731  (one deal stored)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_machine, ann, random.Random(1), deal_over)
            nursery.start_soon(play_machine, bob, random.Random(2), deal_over)
        start = fields(next(x for x in ann.lines if is_event(x, "start")))[1]
        await trio.to_thread.run_sync(_deal_stored, db, start["match"])
    finally:
        proc.kill()  # SIGKILL: nothing of its own runs
        proc.wait()
    # the restart: a server in this process on the same file (a Python start-up less)
    async with running_server(make_config(db)) as port:
        again = await connect.machine(port, "ann", "pw-ann-1")
        told = await again.expect("info", cut_off=start["match"])
        assert (told["table"], told["reason"]) == (start["table"], "server-lost")
        assert told["text"].startswith(
            f"Your last match, {start['match']} at table {start['table']}, was cut off"
            " when its server was lost ("
        ), told
        assert "listed as server-lost" in told["text"]
        once_more = await connect.machine(port, "ann", "pw-ann-1")  # told once
        assert not [x for x in await infos_so_far(once_more) if "cut off" in x]
