"""A drain (docs/protocol.md §11.4a): SIGUSR1 to ``deberc-net serve`` closes the
tables waiting for players, refuses new ones, lets the running matches play to their
end, then stops as SIGTERM does; a SIGTERM meanwhile stops at once."""

from __future__ import annotations

import functools
import json
import random
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import trio

from deberc_net.protocol.events import TableState
from deberc_net.server.app import serve
from deberc_net.server.cluster.node import Node
from deberc_net.server.cluster.remote import RemoteTable
from deberc_net.server.lobby import Lobby
from deberc_net.server.running import LocalLink
from deberc_net.server.store import open_store
from deberc_net.testing import build_ruleset, rule_book

from .client import LineClient, close_all, is_event, log_in_machine, machine_client, play_machine
from .conftest import make_config
from .process import start_server_process

RESTARTS = "the server restarts once the running matches are over"
TOLD = f"info server=draining text={RESTARTS.capitalize()}: no new game starts until then."
REFUSED = {"code": "shutting-down", "text": f"{RESTARTS}: no new game starts now"}


async def _health(said: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    """The web face's /api/health (docs/web.md, "Health"): its status and what it says."""
    [web] = [line for line in said if line["event"] == "http_listening"]
    url = f"http://127.0.0.1:{web['port']}/api/health"

    def fetch() -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(url, timeout=30) as reply:
                return reply.status, reply.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    status, body = await trio.to_thread.run_sync(fetch)
    return status, json.loads(body)


def _run_then_exits_cleanly(
    proc: subprocess.Popen[str], main: Callable[[], Awaitable[None]]
) -> None:
    """Run ``main`` against the server process, which must then exit with status 0
    (killed at the end if it still runs)."""
    try:
        trio.run(main)
        status = proc.wait(timeout=20)
        assert proc.stderr is not None
        assert status == 0, proc.stderr.read()[-4000:]  # (its log says why)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _log(proc: subprocess.Popen[str], read: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """The lines the process logged (it has ended): ``read`` (by ``_logged``), then the rest."""
    assert proc.stderr is not None
    return [*read, *(json.loads(line) for line in proc.stderr.read().splitlines() if line)]


async def _logged(proc: subprocess.Popen[str], event: str, read: list[dict[str, Any]]) -> None:
    """Read the process's log (into ``read``) until it says ``event``."""
    assert proc.stderr is not None
    stderr = proc.stderr

    def until() -> None:
        while line := stderr.readline():
            read.append(json.loads(line))
            if read[-1]["event"] == event:
                return
        raise AssertionError(f"the log ended with no {event}: {read}")

    with trio.fail_after(20):  # (a thread blocked in its read is left to the end of the pipe)
        await trio.to_thread.run_sync(until, abandon_on_cancel=True)


async def _a_running_match(port: int) -> tuple[LineClient, LineClient, str]:
    """ann and bob at a short match just started; its table."""
    ann = await machine_client(port, "ann")
    bob = await machine_client(port, "bob")
    await ann.send("new 2 short")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await ann.read_until(lambda line: is_event(line, "start"))
    return ann, bob, table


def test_sigusr1_lets_the_running_match_end_then_stops(tmp_path: Path) -> None:
    said: list[dict[str, Any]] = []
    proc, port = start_server_process(
        tmp_path / "s.sqlite3", "shutdown_grace_ms = 100", said=said, web=True
    )

    async def main() -> None:
        ann, bob, table = await _a_running_match(port)
        carl = await machine_client(port, "carl")
        await carl.send("new 2")  # a table waiting for players
        waiting = (await carl.expect("ok", cmd="sit"))["table"]
        dave = await machine_client(port, "dave")
        try:
            assert await _health(said) == (200, {"status": "serving", "players": 4, "playing": 1})
            proc.send_signal(signal.SIGUSR1)
            closes = (
                f"info closed={waiting} text=Table {waiting} closes: {RESTARTS}"
                " (its game had not started)."
            )
            await carl.read_until(lambda line: line == closes)
            assert carl.lines.count(TOLD) == 1  # (before the table's line)
            await dave.read_until(lambda line: line == TOLD)
            # a load balancer's check sends new players elsewhere; the match plays on
            assert await _health(said) == (503, {"status": "draining", "players": 4, "playing": 1})
            proc.send_signal(signal.SIGUSR1)  # a second: ignored (logged)
            for command in ("new 2", f"sit {waiting}", "seek 2"):
                await dave.send(command)
                assert await dave.expect("error") == REFUSED, command
            await carl.send("tables")  # the waiting table is gone; the match plays on
            assert (await carl.expect("tables"))["count"] == "1"
            assert (await carl.expect("table"))["id"] == table
            with trio.fail_after(60):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play_machine, ann, random.Random(1))
                    nursery.start_soon(play_machine, bob, random.Random(2))
            assert TOLD in ann.lines and TOLD in bob.lines  # told mid-match, once
            assert ann.lines.count(TOLD) == 1
            stop = (
                "info server=stopping text=The server is shutting down: the running matches"
                " are over."
            )
            for client in (ann, bob, carl, dave):
                await client.read_until(lambda line: line == stop)
        finally:
            await close_all([ann, bob, carl, dave])

    _run_then_exits_cleanly(proc, main)
    lines = _log(proc)
    events = [line["event"] for line in lines]
    [drain] = [line for line in lines if line["event"] == "drain"]
    assert drain["signal"] == "SIGUSR1" and len(drain["matches"]) == 1
    assert events.count("drain_ignored") == 1
    assert events.index("match_end") < events.index("drained") < events.index("shutdown")
    assert "matches_stopped" not in events and events[-1] == "stopped"


def test_a_sigterm_during_a_drain_stops_at_once(tmp_path: Path) -> None:
    proc, port = start_server_process(tmp_path / "s.sqlite3", "shutdown_grace_ms = 100")

    async def main() -> None:
        ann, bob, _ = await _a_running_match(port)
        try:
            proc.send_signal(signal.SIGUSR1)
            await ann.read_until(lambda line: line == TOLD)
            proc.send_signal(signal.SIGTERM)
            stop = "info server=stopping text=The server is shutting down: SIGTERM received."
            await ann.read_until(lambda line: line == stop)
        finally:
            await close_all([ann, bob])

    _run_then_exits_cleanly(proc, main)
    events = [line["event"] for line in _log(proc)]
    assert events.index("drain") < events.index("shutdown") < events.index("matches_stopped")
    assert "drained" not in events and events.count("shutdown") == 1
    assert events[-1] == "stopped"


def test_a_drain_stops_at_its_limit_cutting_what_still_plays(tmp_path: Path) -> None:
    """drain_limit_ms (docs/settings.md): a drain waits so long at most, then stops as
    SIGTERM does; before it, a drain had no end but its longest match's."""
    proc, port = start_server_process(
        tmp_path / "s.sqlite3", "shutdown_grace_ms = 100\ndrain_limit_ms = 800"
    )

    async def main() -> None:
        ann, bob, table = await _a_running_match(port)
        try:
            proc.send_signal(signal.SIGUSR1)
            await ann.read_until(lambda line: line == TOLD)
            why = "the wait for the running matches is over"
            with trio.fail_after(30):  # nobody plays: the limit ends it
                await ann.read_until(
                    lambda line: (
                        line == f"info server=stopping text=The server is shutting down: {why}."
                    )
                )
                closes = await bob.read_until(lambda line: f"Table {table} closes: {why}." in line)
            assert "stops here: nobody wins or loses" in closes
            assert not any(is_event(line, "trick") for line in ann.lines)  # (nothing played)
        finally:
            await close_all([ann, bob])

    _run_then_exits_cleanly(proc, main)
    lines = _log(proc)
    events = [line["event"] for line in lines]
    assert events.index("drain") < events.index("drain_limit") < events.index("shutdown")
    [limit] = [line for line in lines if line["event"] == "drain_limit"]
    [shutdown] = [line for line in lines if line["event"] == "shutdown"]
    assert len(limit["matches"]) == 1 and shutdown["reason"] == "drain-limit"
    assert events.index("shutdown") < events.index("matches_stopped")
    assert "drained" not in events and events[-1] == "stopped"


def test_a_sigusr1_during_a_stop_is_logged_and_changes_nothing(tmp_path: Path) -> None:
    # docs/settings.md, "Logs": drain_ignored, SIGUSR1 "during a drain (or during a stop)"
    proc, port = start_server_process(tmp_path / "s.sqlite3", "shutdown_grace_ms = 60000")
    read: list[dict[str, Any]] = []

    async def main() -> None:
        stayer = await machine_client(port, "stayer")  # the grace waits for him
        try:
            proc.send_signal(signal.SIGTERM)
            stop = "info server=stopping text=The server is shutting down: SIGTERM received."
            await stayer.read_until(lambda line: line == stop)
            proc.send_signal(signal.SIGUSR1)
            await _logged(proc, "drain_ignored", read)  # the server has had it
            await stayer.send("ping")  # (a round trip: a drain's word would come before)
            await stayer.expect("ok", cmd="ping")
            assert TOLD not in stayer.lines
            await stayer.send("quit")
        finally:
            await close_all([stayer])

    _run_then_exits_cleanly(proc, main)
    events = [line["event"] for line in _log(proc, read)]
    assert "drain" not in events and events.count("shutdown") == 1
    assert events.index("shutdown") < events.index("drain_ignored") < events.index("stopped")
    assert events[-1] == "stopped"


async def _served(nursery: trio.Nursery, db: Path) -> tuple[int, LocalLink]:
    links: list[LocalLink] = []
    port = await nursery.start(
        functools.partial(
            serve, make_config(db, admins=["boss"]), rules=rule_book(), local_bound=links.append
        )
    )
    return port, links[0]


async def test_a_drain_refuses_every_way_to_a_new_table(
    nursery: trio.Nursery, tmp_path: Path, jump_when_idle: None
) -> None:
    port, link = await _served(nursery, tmp_path / "d.sqlite3")
    lobby = link.server.lobby
    link.trust("boss", "s3cret")
    boss = await log_in_machine(await LineClient.over(await link.connect()), "boss", "s3cret")
    eve = await machine_client(port, "eve")
    await eve.send("seek 3")  # waits for two more: its wait ends with the drain
    await eve.expect("ok", cmd="seek")
    assert lobby.drain.begin() and not lobby.drain.begin()  # once
    await eve.read_until(lambda line: line == TOLD)
    assert await eve.expect("error") == REFUSED
    await boss.send("reserve 2 seats=pa,pb deals=1")
    assert await boss.expect("error") == REFUSED
    await eve.send("rematch")
    assert await eve.expect("error") == REFUSED
    late = await machine_client(port, "late")  # a login during the drain is told too
    assert late.lines[-1] == TOLD
    await late.send("new 2 private")
    assert await late.expect("error") == REFUSED
    assert not lobby.tables and lobby.drain.over()
    await close_all([boss, eve, late])


async def _told(client: LineClient, words: str) -> None:
    """Until the human style's lines (wrapped to the terminal's width) have said ``words``."""

    def said(_: str) -> bool:
        return words in " ".join(line.strip() for line in client.lines)

    await client.read_until(said)


async def test_a_drain_in_russian(nursery: trio.Nursery, tmp_path: Path) -> None:
    port, link = await _served(nursery, tmp_path / "d.sqlite3")
    ivan = await LineClient.connect(port)
    await ivan.send("login ivan lang=ru")
    await ivan.send("new 2")
    await _told(ivan, "Вы за столом 1")
    assert link.server.lobby.drain.begin()
    await _told(
        ivan,
        "Сервер перезапустится, когда закончатся идущие партии: до тех пор новые партии не"
        " начинаются.",
    )
    await _told(
        ivan,
        "Стол 1 закрывается: сервер перезапустится, когда закончатся идущие партии (партия"
        " за ним не начиналась).",
    )
    await ivan.send("new 2")
    await _told(ivan, "новые партии сейчас не начинаются")
    await ivan.aclose()


def test_health_says_stopping_through_a_stops_grace(tmp_path: Path) -> None:
    said: list[dict[str, Any]] = []
    proc, port = start_server_process(
        tmp_path / "s.sqlite3", "shutdown_grace_ms = 60000", said=said, web=True
    )

    async def main() -> None:
        stayer = await machine_client(port, "stayer")  # the grace waits for him
        try:
            proc.send_signal(signal.SIGTERM)
            await stayer.read_until(lambda line: "shutting down" in line)
            assert await _health(said) == (503, {"status": "stopping", "players": 1, "playing": 0})
            await stayer.send("quit")
        finally:
            await close_all([stayer])

    _run_then_exits_cleanly(proc, main)


async def test_a_seat_at_another_workers_waiting_table_does_not_hold_a_drain(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A drain of one worker (its pid, docs/scaling.md): a player of its own seated at
    another worker's table that still waits for players is no match to wait for; the
    drain waited as long as that table did (for ever, if nobody else came)."""
    config = make_config(tmp_path / "d.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        there = RemoteTable(9, build_ruleset(4, "moscow", ()), lobby, config, 0, owner=1)
        there.state = TableState.WAITING
        lobby.tables[9] = there
        lobby.online["ann"] = cast(Any, SimpleNamespace(table=there, send=lambda _: None))
        assert lobby.drain.begin()
        assert lobby.drain.over()
        there.state = TableState.PLAYING  # a match there: waited for
        assert not lobby.drain.over()
    finally:
        store.close()


async def test_a_stranger_counts_only_the_other_workers_matches_anyone_may_see(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """/api/health's ``playing`` (Drain.running(listed=True)) counts another worker's
    match at a private table or a ladder's board no more than its own (docs/web.md,
    "Health"); the drain counts them all. Node.others_playing, as the bus told them."""
    config = make_config(tmp_path / "d.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        for number, private, board in ((9, False, None), (10, True, None), (11, False, "b")):
            there = RemoteTable(number, build_ruleset(2, "moscow", ()), lobby, config, 0, owner=1)
            there.state, there.private, there.board = TableState.PLAYING, private, board
            lobby.tables[number] = there
        node = SimpleNamespace(lobby=lobby, same_parent=lambda owner: owner == 1)
        assert Node.others_playing(cast(Any, node)) == 3
        assert Node.others_playing(cast(Any, node), listed=True) == 1
        lobby.node = cast(Any, node)
        node.others_playing = functools.partial(Node.others_playing, cast(Any, node))
        assert (lobby.drain.running(), lobby.drain.running(listed=True)) == (3, 1)
    finally:
        store.close()


async def test_a_drain_calls_off_a_rematch_asked_for(
    nursery: trio.Nursery, tmp_path: Path, jump_when_idle: None
) -> None:
    """A rematch asked before the drain would be refused now: its askers are told it is
    off (failed before: anna heard nothing till its 60 s ran out)."""
    port, link = await _served(nursery, tmp_path / "d.sqlite3")
    ann, bob, table = await _a_running_match(port)
    async with trio.open_nursery() as players:
        players.start_soon(play_machine, ann, random.Random(1))
        players.start_soon(play_machine, bob, random.Random(2))
    await ann.send("rematch")
    await ann.expect("ok", cmd="rematch")
    await bob.expect("rematch", asked="ann")
    assert link.server.lobby.drain.begin()
    for client in (ann, bob):
        off = await client.expect("rematch", off="drain")
        assert off["text"] == f"The rematch of table {table} is off: {RESTARTS}."
    await close_all([ann, bob])


async def test_an_admin_told_only_the_ends_hears_a_drain_close_its_reserved_table(
    nursery: trio.Nursery, tmp_path: Path, jump_when_idle: None
) -> None:
    """A ladder's board reserved with ``watch=ends`` and still waiting for a bot as the
    drain begins closes as any waiting table: its admin is told so (``info closed=T``,
    docs/protocol.md §5.5a), as its seats are. He was told nothing: a ladder counted
    that game as still running till the server's stop, then as cut by it (a CI run)."""
    port, link = await _served(nursery, tmp_path / "d.sqlite3")
    link.trust("boss", "s3cret")
    boss = await log_in_machine(await LineClient.over(await link.connect()), "boss", "s3cret")
    pa = await machine_client(port, "pa")
    await pa.send("seek reserved")
    await pa.expect("ok", cmd="seek")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=k1 watch=ends")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    await pa.expect("ok", cmd="sit", table=table)  # pb never comes: the table waits
    assert link.server.lobby.drain.begin()
    said = f"Table {table} closes: {RESTARTS} (its game had not started)."
    closes = f"info closed={table} text={said}"
    for client in (pa, boss):
        await client.read_until(lambda line: line == closes)
    assert not any(is_event(line, "match-end") for line in boss.lines)  # none to come
    await close_all([boss, pa])


async def test_an_admin_told_only_the_ends_hears_a_stop_cut_its_boards_match(
    nursery: trio.Nursery, tmp_path: Path, jump_when_idle: None
) -> None:
    """A stop cuts a ``watch=ends`` board's match: no ``match-end`` comes, and its admin
    is told the table's close as its players are (``info closed=T … Match M stops
    here``, docs/protocol.md §11.4), after the stop's own line."""
    port, link = await _served(nursery, tmp_path / "d.sqlite3")
    link.trust("boss", "s3cret")
    boss = await log_in_machine(await LineClient.over(await link.connect()), "boss", "s3cret")
    players = [await machine_client(port, name) for name in ("pa", "pb")]
    for player in players:
        await player.send("seek reserved")
        await player.expect("ok", cmd="seek")
    await boss.send("reserve 2 seats=pa,pb seed=s deals=1 board=k1 watch=ends")
    table = (await boss.expect("ok", cmd="reserve"))["table"]
    match = (await boss.expect("event", kind="start", table=table))["match"]
    link.server.lobby.shutdown("SIGTERM received")
    await boss.expect("info", server="stopping")
    closed = await boss.expect("info", closed=table)
    assert closed["text"].startswith(f"Table {table} closes: SIGTERM received. Match {match}")
    assert not any(is_event(line, "match-end") for line in boss.lines)
    await close_all([boss, *players])
