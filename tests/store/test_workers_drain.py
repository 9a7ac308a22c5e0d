"""SIGUSR1 to the parent of ``serve --workers 2`` drains every worker (docs/scaling.md,
docs/protocol.md §11.4a): a waiting table closes, no new one opens, the match played
across the two workers goes on to its end, then each worker stops and the parent with
them, none started again. An admin's 'drain' on one worker does the same: his worker
signals the parent."""

from __future__ import annotations

import json
import os
import random
import signal
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store
from tests.server.client import LineClient, close_all, fields, is_event, play_machine

from .workers import Workers, quick_death, served_workers, until_listed

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 200\nheartbeat_ms = 500\n"
    "server_dead_ms = 10000\nworker_restart_ms = 50\n"  # (no death by silence tested)
)
TOLD = (
    "info server=draining text=The server restarts once the running matches are over: no new"
    " game starts until then."
)


async def _sit_once_heard(client: LineClient, table: str) -> None:
    """``client`` (at worker 1) sits at worker 0's ``table`` once worker 1 has heard of it."""
    with trio.fail_after(30):
        while True:
            await client.send(f"sit {table}")
            said = await client.read_until(lambda x: x.startswith(("ok ", "error ")))
            if said.startswith("ok "):
                return
            await trio.sleep(0.1)


@pytest.mark.timeout(150)  # its fail_after(110), then its clean-up
async def test_sigusr1_to_the_parent_drains_every_worker(postgres_url: str, tmp_path: Path) -> None:
    settings = tmp_path / "server.toml"
    # (SETTINGS' 10 s: at 3 s, worker 1 stalled in a loaded run, ci49c: 2.3 s, then
    # 2.7 s, was taken for dead and bob's match stopped)
    settings.write_text(SETTINGS)
    opened: list[LineClient] = []
    with trio.fail_after(110):
        async with served_workers(postgres_url, settings) as workers:
            try:
                ann = await workers.connect(0, "ann")  # ann's table is worker 0's
                bob = await workers.connect(1, "bob")  # bob sits at it from worker 1
                carl = await workers.connect(1, "carl")
                opened += [ann, bob, carl]
                await ann.send("new 2 short")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await _sit_once_heard(bob, table)
                await ann.read_until(lambda x: is_event(x, "start"), 30)
                await carl.send("new 2")
                waiting = (await carl.expect("ok", cmd="sit"))["table"]
                await until_listed(carl, "tables", "state=playing")  # (worker 1 heard it start)
                workers.process.send_signal(signal.SIGUSR1)
                await carl.read_until(
                    lambda x: x.startswith(f"info closed={waiting} text=Table {waiting} closes"), 30
                )
                await carl.send("new 2")
                assert (await carl.expect("error", timeout=30))["code"] == "shutting-down"
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play_machine, ann, random.Random(3), None, 60)
                    nursery.start_soon(play_machine, bob, random.Random(4), None, 60)
                assert TOLD in ann.lines and TOLD in bob.lines
                for client in (ann, bob, carl):
                    await client.wait_closed(20)
                with trio.fail_after(30):
                    await workers.process.wait()
            finally:
                await close_all(opened)
    assert workers.process.returncode == 0
    events = [e.get("event") for e in workers.events]
    assert events.count("drain") == 3  # the parent's, each worker's
    [parents] = [e for e in workers.events if e.get("event") == "drain" and "workers" in e]
    assert (parents["signal"], parents.get("admin")) == ("SIGUSR1", None)
    # each worker's line lists what it waits for: worker 0 its match, worker 1 (none of
    # its own) bob's there, not an empty list as if it had nothing to wait for
    drains = {e["worker"]: e for e in workers.events if e.get("event") == "drain" and "worker" in e}
    [match] = drains[0]["matches"]
    assert (drains[0]["elsewhere"], drains[1]["matches"], drains[1]["elsewhere"]) == (
        [],
        [],
        [match],
    )
    assert events.count("worker_drained") == 2 and "worker_started" not in events[-10:]
    assert events[-1] == "stopped"


@pytest.mark.timeout(150)  # its fail_after(110), then its clean-up
@pytest.mark.production_password_cost  # the workers check the admin's password at it
async def test_an_admins_drain_on_one_worker_drains_every_worker(
    postgres_url: str, tmp_path: Path
) -> None:
    """boss, on worker 1, says 'drain': worker 0 drains too (its waiting table closes,
    its match plays on to its end), as by SIGUSR1 to the parent, which his worker sent."""
    store = open_store(postgres_url)
    set_password(store, "boss", "boss-secret-1")
    store.close()
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS + 'admins = ["boss"]\n')
    opened: list[LineClient] = []
    with trio.fail_after(110):
        async with served_workers(postgres_url, settings) as workers:
            try:
                ann = await workers.connect(0, "ann")  # ann's table is worker 0's
                bob = await workers.connect(1, "bob")  # bob sits at it from worker 1
                carl = await workers.connect(0, "carl")
                boss = await workers.connect(1, "boss", "boss-secret-1")
                opened += [ann, bob, carl, boss]
                await ann.send("new 2 short")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await _sit_once_heard(bob, table)
                await ann.read_until(lambda x: is_event(x, "start"), 30)
                await carl.send("new 2")
                waiting = (await carl.expect("ok", cmd="sit"))["table"]
                await until_listed(boss, "tables", f"id={waiting} ")  # (worker 1 heard both)
                await until_listed(boss, "tables", "state=playing")
                await boss.send("drain")
                assert await boss.expect("ok", cmd="drain", timeout=30) == {
                    "cmd": "drain",
                    "matches": "1",  # worker 0's, where his worker has none
                    "already": "0",
                    "text": "Draining: the server stops once its running matches are over"
                    " (playing now: 1); no new game starts meanwhile.",
                }
                # worker 0, not his, closes its waiting table: the whole server drains
                await carl.read_until(
                    lambda x: x.startswith(f"info closed={waiting} text=Table {waiting} closes"), 30
                )
                await carl.send("new 2")
                assert (await carl.expect("error", timeout=30))["code"] == "shutting-down"
                await boss.read_until(lambda x: x == TOLD, 30)  # his own worker drains too
                await boss.send("drain")  # a second: nothing changes
                again = await boss.expect("ok", cmd="drain", timeout=30)
                assert again["already"] == "1", again
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play_machine, ann, random.Random(3), None, 60)
                    nursery.start_soon(play_machine, bob, random.Random(4), None, 60)
                assert TOLD in ann.lines and TOLD in bob.lines
                for client in (ann, bob, carl, boss):
                    await client.wait_closed(20)
                with trio.fail_after(30):
                    await workers.process.wait()
            finally:
                await close_all(opened)
    assert workers.process.returncode == 0
    events = [e.get("event") for e in workers.events]
    [asked] = [e for e in workers.events if e.get("event") == "moderation"]
    assert (asked["action"], asked["admin"], asked["worker"]) == ("drain", "boss", 1)
    assert events.count("drain") == 3  # the parent's (its signal: boss's worker's), each worker's
    # the parent's says who asked, where: not a SIGUSR1 as if sent by hand
    [parents] = [e for e in workers.events if e.get("event") == "drain" and "workers" in e]
    assert (parents.get("admin"), parents.get("worker"), parents.get("signal")) == ("boss", 1, None)
    assert events.count("drain_ignored") == 1  # boss's second, on his worker
    assert events.count("worker_drained") == 2 and "worker_started" not in events[-10:]
    assert events[-1] == "stopped"


@pytest.mark.timeout(150)  # its fail_after(110), then its clean-up
@pytest.mark.production_password_cost  # the workers check the admin's password at it
async def test_an_admins_drain_finds_the_parents_drain_begun_a_worker_dead(
    postgres_url: str, tmp_path: Path
) -> None:
    """Worker 0 is dead (not started again yet), then SIGUSR1 to the parent drains
    worker 1, where boss says 'drain' the moment he is told: the drain is on already
    (already=1) and the parent is not signalled again. Before, his worker asked whether
    every other worker's 'tables' said it drains, which a dead one's never does (nor a
    living one's the moment after the signal): already=0, and a second SIGUSR1 to the
    parent (its drain_ignored)."""
    store = open_store(postgres_url)
    set_password(store, "boss", "boss-secret-1")
    store.close()
    settings = tmp_path / "server.toml"
    kept_dead = SETTINGS.replace("worker_restart_ms = 50", "worker_restart_ms = 600000")
    # (a second's limit: boss's 'drain' is answered in a round trip, ann's match on)
    settings.write_text(kept_dead + 'admins = ["boss"]\ndrain_limit_ms = 1000\n')
    opened: list[LineClient] = []
    with trio.fail_after(110):
        async with served_workers(postgres_url, settings) as workers:
            try:
                ann, bob = await _playing_at_worker_1(workers, opened, "new 2")
                boss = await workers.connect(1, "boss", "boss-secret-1")
                opened.append(boss)
                os.kill(workers.pids[0], signal.SIGKILL)
                with trio.fail_after(30):
                    while not any(e.get("event") == "worker_died" for e in workers.events):
                        await trio.sleep(0.05)
                workers.process.send_signal(signal.SIGUSR1)
                await boss.read_until(lambda x: x == TOLD, 30)  # his worker drains
                await boss.send("drain")
                answer = await boss.expect("ok", cmd="drain", timeout=30)
                assert answer == {
                    "cmd": "drain",
                    "matches": "1",
                    "already": "1",
                    "text": "The server drains already (playing now: 1): nothing changes.",
                }
                for client in (ann, bob, boss):  # drain_limit_ms cuts ann's match
                    await client.wait_closed(20)
                with trio.fail_after(30):
                    await workers.process.wait()
            finally:
                await close_all(opened)
    assert workers.process.returncode == 0
    ignored = [e for e in workers.events if e.get("event") == "drain_ignored"]
    assert [(e.get("admin"), e.get("worker")) for e in ignored] == [("boss", 1)], ignored
    assert not any(e.get("event") == "moderation" for e in workers.events)
    assert [e.get("event") for e in workers.events].count("drain") == 2  # the parent's, 1's


@pytest.mark.timeout(110)  # its fail_after(60), then its clean-up
async def test_a_worker_killed_during_a_drain_is_logged_dead_not_drained(
    postgres_url: str, tmp_path: Path
) -> None:
    """An operator's drain, worker 1 SIGKILLed before its match was over: the parent
    logged `worker_drained` at info ("its matches over"), so an alert on `worker_died`
    never heard of the players cut off. It is `worker_died`, at warning, with
    `draining`; not started again, and the drain ends as the others have drained
    (worker 0's once it has taken worker 1 for dead: quick_death's 1.5 s)."""
    settings = tmp_path / "server.toml"
    settings.write_text(quick_death(SETTINGS))
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings) as workers:
            try:
                ann, _ = await _playing_at_worker_1(workers, opened, "new 2")
                killed = workers.pids[1]
                workers.process.send_signal(signal.SIGUSR1)
                await ann.read_until(lambda x: x == TOLD, 30)
                os.kill(killed, signal.SIGKILL)
                with trio.fail_after(30):
                    await workers.process.wait()
            finally:
                await close_all(opened)
    assert workers.process.returncode == 0
    ends = [
        (e["event"], e["level"], e["worker"], e["status"])
        for e in workers.events
        if e.get("event") in ("worker_drained", "worker_died")
    ]
    assert sorted(ends) == [("worker_died", "warning", 1, -9), ("worker_drained", "info", 0, 0)]
    [died] = [e for e in workers.events if e.get("event") == "worker_died"]
    assert (died["pid"], died["draining"]) == (killed, True)
    assert "worker_started" not in [e.get("event") for e in workers.events][-6:]


def _with_web(tmp_path: Path) -> Path:
    """The settings, the web face on (worker 0's) on a free port."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS + "http_port = 0\n")
    return settings


async def _playing_at_worker_1(
    workers: Workers, opened: list[LineClient], new: str
) -> tuple[LineClient, LineClient]:
    """ann and bob, both on worker 1, playing a match of ann's ``new``: started."""
    ann = await workers.connect(1, "ann")
    bob = await workers.connect(1, "bob")
    opened += [ann, bob]
    await ann.send(new)
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await ann.read_until(lambda x: is_event(x, "start"), 30)
    return ann, bob


async def _health(http_port: int) -> tuple[int, str] | None:
    """/api/health's status and body; None while nothing answers on the port."""

    def fetch() -> tuple[int, str] | None:
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{http_port}/api/health", timeout=30
            ) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()
        except (urllib.error.URLError, ConnectionError):
            return None

    return await trio.to_thread.run_sync(fetch)


@pytest.mark.timeout(150)  # its fail_after(110), then its clean-up
async def test_the_web_face_says_draining_till_the_last_worker_has_drained(
    postgres_url: str, tmp_path: Path
) -> None:
    # a README tryout: worker 0, which serves the web face, had no match of its own and
    # stopped at once, so /api/health was refused while worker 1's match played on (a
    # load balancer's check then saw a dead host, not a draining one)
    opened: list[LineClient] = []
    with trio.fail_after(110):
        async with served_workers(postgres_url, _with_web(tmp_path)) as workers:
            try:
                ann, bob = await _playing_at_worker_1(workers, opened, "new 2 short")
                web = next(e["port"] for e in workers.events if e.get("event") == "http_listening")
                assert isinstance(web, int)
                workers.process.send_signal(signal.SIGUSR1)
                await ann.read_until(lambda x: x == TOLD, 30)
                for _ in range(8):  # three beats (0.5 s) and more of worker 1's match
                    await trio.sleep(0.2)
                    answer = await _health(web)
                    assert answer is not None, "the web face stopped while worker 1 drains"
                    status, body = answer
                    said = json.loads(body)
                    assert (status, said["status"]) == (503, "draining"), answer
                    # worker 1's match, not worker 0's own tables only (it said 0)
                    assert said["playing"] == 1, answer
                await bob.send("leave!")  # worker 1's match ends (played out: ~10 s more)
                await ann.read_until(lambda x: is_event(x, "match-end"), 30)
                with trio.fail_after(30):
                    await workers.process.wait()
                assert await _health(web) is None  # all stopped at the end
            finally:
                await close_all(opened)
    assert workers.process.returncode == 0
    assert [e.get("event") for e in workers.events][-1] == "stopped"


@pytest.mark.timeout(110)  # its fail_after(60), then its clean-up
async def test_worker_0_drained_alone_stops_though_the_others_play_on(
    postgres_url: str, tmp_path: Path
) -> None:
    """A drain of worker 0 by its pid: the web face waits for the workers that drain with
    it, and worker 1 does not (its match plays on), so worker 0 stops within a beat."""
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, _with_web(tmp_path)) as workers:
            try:
                ann, _ = await _playing_at_worker_1(workers, opened, "new 2")
                os.kill(workers.pids[0], signal.SIGUSR1)
                with trio.fail_after(30):  # a beat is 0.5 s here
                    while not any(e.get("event") == "drained" for e in workers.events):
                        await trio.sleep(0.05)
                assert TOLD not in ann.lines  # worker 1 takes new games still
                with trio.fail_after(30):  # its drain was asked for: a stop, not a death
                    while not any(e.get("event") == "worker_stopped" for e in workers.events):
                        await trio.sleep(0.05)
                assert not any(e.get("event") == "worker_died" for e in workers.events)
            finally:
                await close_all(opened)


@pytest.mark.timeout(110)  # its fail_after(60), then its clean-up
async def test_a_seat_at_a_match_just_started_elsewhere_is_one_its_worker_waits_for(
    postgres_url: str, tmp_path: Path
) -> None:
    """bob's worker looked at his seat as the drain began, before worker 0 had told it
    the match started (within SNAPSHOT_S): the seat looked waiting, so the drain was
    over, and bob's worker stopped at once, telling him 'this worker's matches are over'
    and his seat kept elsewhere while his match played on. drain_limit_ms ends it."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS + "drain_limit_ms = 1500\n")
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings) as workers:
            try:
                ann = await workers.connect(0, "ann")  # ann's table is worker 0's
                bob = await workers.connect(1, "bob")
                opened += [ann, bob]
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await _sit_once_heard(bob, table)
                await ann.read_until(lambda x: is_event(x, "start"), 30)
                workers.process.send_signal(signal.SIGUSR1)  # at once
                for client in (ann, bob):
                    await client.wait_closed(20)
                with trio.fail_after(30):
                    await workers.process.wait()
            finally:
                await close_all(opened)
    why = "the wait for the running matches is over"
    for client in (ann, bob):
        assert any(f"Table {table} closes: {why}." in line for line in client.lines)
    stopped = f"info server=stopping text=The server is shutting down: {why}."
    assert stopped in ann.lines, ann.lines[-8:]
    # bob's worker stops at its own limit, or, if worker 0's came a moment first and
    # closed his table, as its running matches are over: both workers' limits end
    # together, in either order (a fresh-clone run, s29)
    stops = [stopped, "info server=stopping text=The server is shutting down: this worker's"
             " matches are over."]  # fmt: skip
    assert any(stop in bob.lines for stop in stops), bob.lines[-8:]
    assert not any("kept on another server" in line for line in bob.lines), bob.lines
    assert workers.process.returncode == 0


@pytest.mark.timeout(110)  # its fail_after(60), then its clean-up
async def test_a_drain_limit_that_ends_bobs_worker_first_keeps_no_seat_of_his(
    postgres_url: str, tmp_path: Path
) -> None:
    """The order a loaded machine made once (s49): bob's worker reaches its drain_limit_ms
    while worker 0, whose table he sits at, is held up (SIGSTOP as the parent's SIGUSR1
    comes), so its word of the table's closing comes after bob's worker has closed him.
    Worker 0 stops at its own limit a moment later: the whole server stops, his seat is
    not kept anywhere, and he is told his table closes (by his worker, as it stops), not
    that his seat is kept (docs/protocol.md §11.4). Before, he was told it was kept, and
    not that it closed: the assertion test_a_seat_at_a_match_just_started_elsewhere_is_\
    one_its_worker_waits_for failed on, once, in a loaded run of the suite. He is told
    it in the words ann is told, his match's fate too, and so is cat, who watches it from
    bob's worker (s50: bob's line lacked his match's fate, and cat was told nothing)."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS + "drain_limit_ms = 1500\n")
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings) as workers:
            held: int | None = None
            try:
                ann = await workers.connect(0, "ann")  # ann's table is worker 0's
                bob = await workers.connect(1, "bob")
                cat = await workers.connect(1, "cat")
                opened += [ann, bob, cat]
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await _sit_once_heard(bob, table)
                start = await ann.read_until(lambda x: is_event(x, "start"), 30)
                await cat.send(f"observe {table}")
                await cat.expect("ok", cmd="observe", timeout=30)
                await until_listed(bob, "tables", "state=playing")  # (worker 1 heard it start)
                held = workers.pids[0]
                os.kill(held, signal.SIGSTOP)
                workers.process.send_signal(signal.SIGUSR1)
                await bob.wait_closed(20)  # worker 1's limit (1.5 s: worker 0 is not dead)
                await cat.wait_closed(20)
                os.kill(held, signal.SIGCONT)
                held = None
                await ann.wait_closed(20)  # worker 0's limit, as it drains then
                with trio.fail_after(30):
                    await workers.process.wait()
            finally:
                if held is not None:
                    os.kill(held, signal.SIGCONT)
                await close_all(opened)
    why = "the wait for the running matches is over"
    stopped = f"info server=stopping text=The server is shutting down: {why}."
    assert stopped in bob.lines, bob.lines[-8:]
    assert not any("kept on another server" in line for line in bob.lines), bob.lines[-8:]
    match = fields(start)[1]["match"]
    closes = (
        f"info closed={table} text=Table {table} closes: {why}. Match {match} stops here:"
        " nobody wins or loses, and it is not rated."
    )
    assert closes in ann.lines, ann.lines[-8:]
    for client in (bob, cat):
        assert client.lines.count(closes) == 1, (client.label, client.lines[-8:])
    assert workers.process.returncode == 0


@pytest.mark.timeout(110)  # its fail_after(60), then its clean-up
async def test_a_worker_drained_while_another_plays_says_its_own_matches_are_over(
    postgres_url: str, tmp_path: Path
) -> None:
    """Worker 1, no match of its own, stops at once while worker 0's match plays on: its
    players are told this worker's matches are over, not 'the running matches', which
    were not (docs/protocol.md §11.4a)."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings) as workers:
            try:
                ann = await workers.connect(0, "ann")  # ann and bob play at worker 0
                bob = await workers.connect(0, "bob")
                carl = await workers.connect(1, "carl")  # carl only watches the lobby
                opened += [ann, bob, carl]
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await bob.send(f"sit {table}")
                await ann.read_until(lambda x: is_event(x, "start"), 30)
                workers.process.send_signal(signal.SIGUSR1)
                await carl.wait_closed(20)
                await ann.send("ping")  # their worker plays on
                await ann.expect("ok", cmd="ping")
                assert not any("shutting down" in x for x in ann.lines)
            finally:
                await close_all(opened)
    said = "info server=stopping text=The server is shutting down: this worker's matches are over."
    assert said in carl.lines, carl.lines[-6:]
    assert not any("the running matches are over." in x for x in carl.lines if "down" in x)
