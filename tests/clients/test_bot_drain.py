"""The client library's bots through a server's drain (docs/protocol.md §11.4a,
docs/bots.md "Drops"): they pass the server's word of it on (their standard error),
take the `seek` refused `shutting-down` for "not till the restart", wait for the close,
connect again and seek again on the server started anew; a server that does not come
back ends them in a line that says what it last said. Before, they said nothing and
ended with `connection to HOST:PORT lost: all attempts to connect … failed`, the reader
left to guess why (s46)."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import trio

from clients.client import Bot, ServerNotBack
from clients.protocol import Event, EventKind, Record, View
from deberc_net.protocol.messages import MESSAGES
from deberc_net.server.app import serve
from deberc_net.testing import rule_book
from tests.server.client import LineClient
from tests.server.conftest import Connector, make_config

ROOT = Path(__file__).resolve().parents[2]
RESTARTS = "The server restarts once the running matches are over: no new game starts until then."
REFUSED = "the server restarts once the running matches are over: no new game starts now"
DRAINED = "The server is shutting down: the running matches are over."


async def _serving(nursery: trio.Nursery, db: Path, stopped: trio.Event, port: int = 0) -> int:
    """A server with the admin boss (on ``port``, 0: a free one), ``stopped`` set once
    it has stopped by itself (its drain over); its port."""
    config = make_config(db, admins=["boss"], port=port, shutdown_grace_ms=100)

    async def run(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        await serve(config, rules=rule_book(), task_status=task_status)
        stopped.set()

    served: int = await nursery.start(run)
    return served


async def _a_match_then_drain(port: int, connect: Connector) -> LineClient:
    """ann and bob at a match, then boss's drain: the server stops once ann gives the
    match up. ann, to give it up."""
    boss = await connect.machine(port, "boss", "owners")
    ann = await connect.machine(port, "ann")
    bob = await connect.machine(port, "bob")
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.expect("event", kind="start")
    await boss.send("drain")
    await boss.expect("ok", cmd="drain")
    return ann


class Said:
    """A bot process's standard error, a line at a time, each within a hard limit."""

    def __init__(self, proc: trio.Process) -> None:
        assert proc.stderr is not None
        self.stderr = proc.stderr
        self.data = bytearray()
        self.lines: list[str] = []

    async def next(self) -> str:
        with trio.fail_after(20):
            while b"\n" not in self.data:
                chunk = await self.stderr.receive_some(4096)
                if not chunk:
                    raise AssertionError(f"no more lines; said: {self.lines}")
                self.data.extend(chunk)
        line, _, rest = bytes(self.data).partition(b"\n")
        self.data[:] = rest
        self.lines.append(line.decode())
        return self.lines[-1]


def _reference_bot(port: int) -> list[str]:
    return [sys.executable, "-m", "clients.random_bot", "--port", str(port), "--name", "r1"]


async def _seeking_bot(port: int, *args: str) -> trio.Process:
    """The reference bot seeking a 2-player game, its standard error read by the test."""
    return await trio.lowlevel.open_process(
        [*_reference_bot(port), "--seek", "2", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


@pytest.mark.timeout(90)
async def test_a_reference_bot_says_the_drain_waits_for_the_restart_and_seeks_again(
    db_path: Path, connect: Connector, register: Any
) -> None:
    await register("boss", "owners")
    async with trio.open_nursery() as nursery:
        stopped = trio.Event()
        port = await _serving(nursery, db_path, stopped)
        ann = await _a_match_then_drain(port, connect)
        bot = await _seeking_bot(port)
        try:
            said = Said(bot)
            # logged in during the drain: told it, its seek refused, and it waits
            assert await said.next() == f"r1: the server says: {RESTARTS}"
            assert await said.next() == (
                f"r1: seek put off till the server's restart: {REFUSED}; waiting for it"
                " to close the connection, then connecting again"
            )
            await ann.send("leave!")  # the last match over: the server stops
            assert await said.next() == f"r1: the server says: {DRAINED}"
            assert await said.next() == (
                "r1: the server closed the connection: connecting again, 5 tries at most"
                " in some 5 s"
            )
            with trio.fail_after(20):
                await stopped.wait()
            # its restart, on the same port: the bot is back and seeks its game again
            again = trio.Event()
            assert await _serving(nursery, db_path, again, port) == port
            assert await said.next() == "r1: connected again; seeking again ('seek 2')"
            other = await connect.machine(port, "other")
            await other.send("seek 2")
            seated = await other.expect("ok", cmd="sit", timeout=20)
            if "r1" not in seated["seats"].split(","):  # the bot's seek, said as sent, came
                # second (a loaded machine): it joins other's table
                await other.expect("event", kind="seated", name="r1", timeout=20)
        finally:
            bot.kill()
            await bot.wait()
        nursery.cancel_scope.cancel()


@pytest.mark.timeout(90)
async def test_a_reference_bot_whose_server_does_not_come_back_says_its_last_word(
    db_path: Path, connect: Connector, register: Any
) -> None:
    await register("boss", "owners")
    async with trio.open_nursery() as nursery:
        stopped = trio.Event()
        port = await _serving(nursery, db_path, stopped)
        ann = await _a_match_then_drain(port, connect)
        bot = await _seeking_bot(port, "--reconnects", "1")
        try:
            said = Said(bot)
            assert await said.next() == f"r1: the server says: {RESTARTS}"
            await said.next()  # the seek put off till the restart
            await ann.send("leave!")
            with trio.fail_after(20):
                await stopped.wait()
            with trio.fail_after(30):
                status = await bot.wait()
            assert bot.stderr is not None
            rest = bytes(said.data) + await bot.stderr.receive_some(65536)
            said.lines.extend(rest.decode().splitlines())
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        nursery.cancel_scope.cancel()
    assert status == 2, said.lines
    where = f"127.0.0.1:{port}"
    assert said.lines[-3:-1] == [
        f"r1: the server says: {DRAINED}",
        "r1: the server closed the connection: connecting again, 1 try at most in some 1 s",
    ], said.lines
    # (why the try failed is the system's: refused, or reset by a server closing)
    end = said.lines[-1]
    assert end.startswith(f"r1: connection to {where} lost: "), said.lines
    assert end.endswith(
        f"; the server did not come back (1 try to connect again) since it said: {DRAINED}"
    ), said.lines
    assert not any("Traceback" in line for line in said.lines)


@pytest.mark.timeout(120)
async def test_library_bots_play_their_match_out_through_a_drain_and_the_rest_after_the_restart(
    db_path: Path, connect: Connector, register: Any
) -> None:
    """Two library bots (``Bot.run`` in this process, over TCP) at a match when the
    drain begins: they play it out, are refused their next seek, and play their second
    game on the server started anew."""
    await register("boss", "owners")
    told: dict[str, list[str]] = {"ada": [], "bea": []}
    started = trio.Event()
    drained = threading.Event()  # the first call waits for it: the match outlasts its start

    def watch(item: Event | View | Record) -> None:
        if isinstance(item, Event) and item.kind == EventKind.START:
            started.set()

    def bot(name: str) -> Bot:
        rng = random.Random(name)

        def choose(view: View) -> str:
            drained.wait(20)
            return rng.choice(view.legal)

        return Bot(
            choose,
            name,
            seek="2 short",
            games=2,
            tell=told[name].append,
            on_event=watch,
        )

    bots = {name: bot(name) for name in told}
    async with trio.open_nursery() as nursery:
        stopped = trio.Event()
        port = await _serving(nursery, db_path, stopped)
        done = trio.Event()
        ended: list[str] = []

        async def play(name: str) -> None:
            bots[name].port = port
            await bots[name].run()
            ended.append(name)
            if len(ended) == 2:
                done.set()

        for name in bots:
            nursery.start_soon(play, name)
        with trio.fail_after(30):
            await started.wait()
        boss = await connect.machine(port, "boss", "owners")
        await boss.send("drain")
        await boss.expect("ok", cmd="drain")
        drained.set()
        with trio.fail_after(60):
            await stopped.wait()
        again = trio.Event()
        assert await _serving(nursery, db_path, again, port) == port
        with trio.fail_after(60):
            await done.wait()
        nursery.cancel_scope.cancel()
    for name, lines in told.items():
        assert bots[name].stats.games == 2, lines
        assert lines[0] == f"the server says: {RESTARTS}", lines
        assert lines[1].endswith("; seeking again ('seek 2 short')"), lines  # the first match
        assert lines[2:6] == [
            f"seek put off till the server's restart: {REFUSED}; waiting for it to close the"
            " connection, then connecting again",
            f"the server says: {DRAINED}",
            "the server closed the connection: connecting again, 5 tries at most in some 5 s",
            "connected again; seeking again ('seek 2 short')",
        ], lines


async def _drained_while_seeking(
    db_path: Path, connect: Connector, register: Any
) -> tuple[list[str], list[ServerNotBack]]:
    """A library bot (no reconnects) seeks; an admin drains the server, which, with no
    match to wait for, stops: what the bot told, and the ``ServerNotBack`` it ended with."""
    await register("boss", "owners")
    told: list[str] = []
    seeking = trio.Event()

    def watch(item: Event | View | Record) -> None:
        if isinstance(item, Event) and item.tag == "ok" and item.get_str("cmd") == "seek":
            seeking.set()

    bot = Bot(lambda view: view.legal[0], "cleo", reconnects=0, tell=told.append, on_event=watch)
    async with trio.open_nursery() as nursery:
        stopped = trio.Event()
        bot.port = await _serving(nursery, db_path, stopped)
        ended: list[ServerNotBack] = []

        async def play() -> None:
            try:
                await bot.run()
            except ServerNotBack as exc:
                ended.append(exc)

        nursery.start_soon(play)
        with trio.fail_after(20):
            await seeking.wait()
        boss = await connect.machine(bot.port, "boss", "owners")
        await boss.send("drain")
        with trio.fail_after(20):
            await stopped.wait()
        nursery.cancel_scope.deadline = trio.current_time() + 20  # (the bot's end)
    return told, ended


@pytest.mark.timeout(60)
async def test_a_library_bot_waiting_in_its_seek_as_the_drain_begins_says_so_and_ends_said(
    db_path: Path, connect: Connector, register: Any
) -> None:
    """The seek waiting as the drain begins is refused unasked (docs/protocol.md
    §11.4a); the server, with no match to wait for, stops; the bot, its reconnects
    none, ends with ``ServerNotBack``, the server's last word in it."""
    told, ended = await _drained_while_seeking(db_path, connect, register)
    assert told == [
        f"the server says: {RESTARTS}",
        f"seek put off till the server's restart: {REFUSED}; waiting for it to close the"
        " connection, then connecting again",
        f"the server says: {DRAINED}",
    ], told
    [end] = ended
    assert end.said == DRAINED
    assert str(end) == (
        "the server closed the connection; the server did not come back (0 tries to connect"
        f" again) since it said: {DRAINED}"
    )


# a server's drain said in Russian (its catalogue's own Russian, deberc_net/protocol/messages.py)
RU_RESTARTS = (
    "Сервер перезапустится, когда закончатся идущие партии: до тех пор новые партии не начинаются."
)
RU_REFUSED = (
    "сервер перезапустится, когда закончатся идущие партии: новые партии сейчас не начинаются"
)
RU_DRAINED = "Сервер останавливается: идущие партии закончились."


@pytest.mark.timeout(60)
async def test_a_library_bot_knows_the_drain_of_a_server_that_says_it_in_another_language(
    db_path: Path, connect: Connector, register: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server whose machine lines are Russian (its catalogue's English replaced by its
    Russian: a server in another language, or one that words its notices otherwise;
    ``lang ru`` alone changes no machine line, docs/protocol.md §4.3c): the bot knows
    its drain and its stop by their fields (``info server=draining``, ``info
    server=stopping``, docs/protocol.md §11.4a), passes its words on and ends with its
    last one. Failed before: the bots matched the English sentences, so neither was
    said, and the end named the seek's refusal, not the stop."""
    for key, (_, russian) in list(MESSAGES.items()):
        monkeypatch.setitem(MESSAGES, key, (russian, russian))
    told, ended = await _drained_while_seeking(db_path, connect, register)
    assert told == [
        f"the server says: {RU_RESTARTS}",
        f"seek put off till the server's restart: {RU_REFUSED}; waiting for it to close the"
        " connection, then connecting again",
        f"the server says: {RU_DRAINED}",
    ], told
    [end] = ended
    assert end.said == RU_DRAINED
