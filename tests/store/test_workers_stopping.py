"""One worker of ``serve --workers 2`` stopping (SIGTERM or SIGHUP to it alone, as a
rolling restart does) while the other plays on: what players on either worker see
during its grace and after; and a terminal's hangup of them all (docs/scaling.md,
docs/protocol.md §11.4)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import Workers, served_workers, until_listed

# a long grace (its players online keep it to the end): what arrives meanwhile is seen
# (a rematch asked over the bus, its refusal back: milliseconds, a few tenths loaded)
GRACE_MS = 2000
# the grace of a stop where nothing is sent during it: what its players are told comes
# at its start and at its end, and the long one was waited in full (4 s a stop)
SHORT_GRACE_MS = 200
SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = {grace}\nheartbeat_ms = 500\n"
    "server_dead_ms = 10000\nworker_restart_ms = 50\n"  # (no death by silence tested)
)


def _settings(tmp_path: Path, grace_ms: int = GRACE_MS) -> Path:
    path = tmp_path / "server.toml"
    path.write_text(SETTINGS.format(grace=grace_ms))
    return path


async def _lost_hows(workers: Workers, worker: int) -> list[tuple[str, str]]:
    """Each line ``worker`` logged of another worker gone (its event and level: a
    ``worker_lost``'s with its 'how'), once it has logged one."""
    with trio.fail_after(20):
        while True:
            hows = [
                (f"{e['event']} {e.get('how', '')}".strip(), str(e.get("level")))
                for e in workers.events
                if e.get("event") in ("worker_lost", "worker_left") and e.get("worker") == worker
            ]
            if hows:
                return hows
            await trio.sleep(0.05)


async def _a_match_over_at_worker_0(workers: Workers, opened: list[LineClient]) -> str:
    """ann (worker 0) and bob (worker 1) at worker 0's table, the match over (bob
    forfeits): a rematch is on offer there. The table's id."""
    ann = await workers.connect(0, "ann")
    bob = await workers.connect(1, "bob")
    opened += [ann, bob]
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await until_listed(bob, "tables", f"id={table} ")
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit", timeout=30)
    await bob.read_until(lambda x: is_event(x, "start"), 30)
    await bob.send("leave!")
    for client in (ann, bob):
        await client.read_until(lambda x: is_event(x, "match-end"), 30)
    return table


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_rematch_asked_of_a_stopping_worker_is_refused(
    postgres_url: str, tmp_path: Path
) -> None:
    """Before the fix the stopping worker took bob's rematch up and opened the new
    table there, moments before it went (and bob was seated at a table never played)."""
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, _settings(tmp_path)) as workers:
            try:
                table = await _a_match_over_at_worker_0(workers, opened)
                ann, bob = opened
                await ann.send("rematch")
                assert (await ann.expect("ok", cmd="rematch"))["waiting"] == "bob"
                await bob.expect("rematch", table=table, timeout=30)
                os.kill(workers.pids[0], signal.SIGTERM)
                await ann.read_until(lambda x: "shutting down" in x, 30)
                await bob.send("rematch")  # asked of worker 0, in its grace
                answer = await bob.read_until(lambda x: fields(x)[0] in ("ok", "error"), 30)
                assert fields(answer) == (
                    "error",
                    {"code": "shutting-down", "text": "the server is shutting down"},
                ), answer
                # no table opened for them: ann saw one match start, to her stop's end
                await ann.wait_closed(GRACE_MS / 1000 + 10)
                assert sum(is_event(x, "start") for x in ann.lines) == 1, ann.lines
            finally:
                await close_all(opened)


KEPT = "is kept on another server"


async def _rest(client: LineClient, within: float) -> list[str]:
    """Every line until the server closes the connection."""
    await client.wait_closed(within)
    return client.lines[client.pos :]


@pytest.mark.timeout(150)  # its fail_after(110), then its clean-up
async def test_a_rolling_restart_of_one_worker_keeps_its_players_seats_elsewhere(
    postgres_url: str, tmp_path: Path
) -> None:
    """SIGTERM to worker 0 alone, as an operator restarting the workers one by one:
    its player at worker 1's table is told his seat is kept there and takes it back
    with his token on the restarted worker 0; its own table closes, saying so; the
    parent starts worker 0 again and the other worker's match plays on."""
    opened: list[LineClient] = []
    with trio.fail_after(110):
        async with served_workers(postgres_url, _settings(tmp_path, SHORT_GRACE_MS)) as workers:
            try:
                ann = await workers.connect(0, "ann")  # at carl's table, on worker 1
                carl = await workers.connect(1, "carl")
                dan = await workers.connect(0, "dan")  # at eve's table, on worker 0
                eve = await workers.connect(0, "eve")
                opened += [ann, carl, dan, eve]
                await carl.send("new 2")
                carls = (await carl.expect("ok", cmd="sit"))["table"]
                await until_listed(ann, "tables", f"id={carls} ")
                await ann.send(f"sit {carls}")
                await ann.expect("ok", cmd="sit", timeout=30)
                await eve.send("new 2")
                eves = (await eve.expect("ok", cmd="sit"))["table"]
                await dan.send(f"sit {eves}")
                await dan.expect("ok", cmd="sit")
                for client in (ann, dan):
                    await client.read_until(lambda x: is_event(x, "start"), 30)
                login = next(x for x in ann.lines if x.startswith("ok cmd=login"))
                token = fields(login)[1]["token"]
                first_pid = workers.pids[0]
                os.kill(first_pid, signal.SIGTERM)
                anns, dans = await _rest(ann, 20), await _rest(dan, 20)
                told = "info server=stopping text=The server is shutting down: SIGTERM received."
                assert told in anns and told in dans, (anns, dans)
                assert [x for x in anns if KEPT in x] == [
                    f"info kept={carls} text=Your seat at table {carls} is kept on another server:"
                    " log in again (a guest with his token) to take it back."
                ], anns
                closes = f"info closed={eves} text=Table {eves} closes: SIGTERM received. Match m"
                assert any(x.startswith(closes) and "not rated" in x for x in dans), dans
                assert not [x for x in dans if KEPT in x], dans
                # carl's match waits for ann, away: not ended, not closed
                away = await carl.read_until(lambda x: is_event(x, "away"), 30)
                assert fields(away)[1]["name"] == "ann", away
                # worker 1 logs worker 0 as stopped as asked, not as a silent (dead) one:
                # an owner tells a rolling restart or a drain's end from a crash, and
                # the line is no warning: an operator alerting on those is not paged
                assert await _lost_hows(workers, 1) == [("worker_left", "info")]
                # the parent starts worker 0 again; ann takes her seat back there
                with trio.fail_after(40):
                    while workers.pids[0] == first_pid:
                        await trio.sleep(0.1)
                back = await workers.connect(0, "ann", token=token)
                opened.append(back)
                await back.read_until(lambda x: is_event(x, "back") and "name=ann" in x, 30)
                await back.read_until(lambda x: fields(x)[0] in ("ask", "state"), 30)
                await carl.read_until(lambda x: is_event(x, "back") and "name=ann" in x, 30)
                # a planned stop, not a death to alert on (before: worker_died, warning)
                assert not [e for e in workers.events if e.get("event") == "worker_died"]
                stopped = [e for e in workers.events if e.get("event") == "worker_stopped"]
                assert [(e["worker"], e["pid"], e["status"], e["level"]) for e in stopped] == [
                    (0, first_pid, 0, "info")
                ], stopped
            finally:
                await close_all(opened)


@pytest.mark.timeout(120)  # its fail_after(80), then its clean-up
async def test_sighup_to_a_worker_stops_it_as_sigterm_and_the_parent_starts_it_again(
    postgres_url: str, tmp_path: Path
) -> None:
    """What docs/scaling.md says of SIGHUP: a stop, as SIGTERM (a terminal's hangup must
    not end a worker as a crash, its players told nothing); the parent then starts it
    again, as after a rolling restart's SIGTERM."""
    opened: list[LineClient] = []
    with trio.fail_after(80):
        async with served_workers(postgres_url, _settings(tmp_path, SHORT_GRACE_MS)) as workers:
            try:
                ann = await workers.connect(0, "ann")
                opened.append(ann)
                first_pid = workers.pids[0]
                os.kill(first_pid, signal.SIGHUP)
                rest = await _rest(ann, GRACE_MS / 1000 + 10)
                stop = "info server=stopping text=The server is shutting down: SIGHUP received."
                assert stop in rest, rest
                with trio.fail_after(40):
                    while workers.pids[0] == first_pid:
                        await trio.sleep(0.1)
                assert not [e for e in workers.events if e.get("event") == "worker_died"]
                stopped = [e for e in workers.events if e.get("event") == "worker_stopped"]
                assert [(e["pid"], e["status"], e["level"]) for e in stopped] == [
                    (first_pid, 0, "info")
                ], stopped
            finally:
                await close_all(opened)


@pytest.mark.timeout(120)  # its fail_after(80), then its clean-up
async def test_a_terminals_hangup_stops_the_parent_and_every_worker_cleanly(
    postgres_url: str, tmp_path: Path
) -> None:
    """SIGHUP to the whole foreground job, as a closed terminal sends it: every worker
    tells its players why and says 'stopped', the parent exits 0 (before, each process
    died of the signal and nobody was told)."""
    opened: list[LineClient] = []
    with trio.fail_after(80):
        async with served_workers(
            postgres_url, _settings(tmp_path, SHORT_GRACE_MS), own_group=True
        ) as workers:
            try:
                players = [await workers.connect(worker, f"hup{worker}") for worker in (0, 1)]
                opened += players
                os.killpg(workers.process.pid, signal.SIGHUP)
                for player in players:
                    rest = await _rest(player, GRACE_MS / 1000 + 10)
                    told = "info server=stopping text=The server is shutting down: SIGHUP received."
                    assert told in rest, rest
                with trio.fail_after(30):
                    await workers.process.wait()
            finally:
                await close_all(opened)
    assert workers.process.returncode == 0
    ended = [e.get("worker") for e in workers.events if e.get("event") == "stopped"]
    assert sorted(ended, key=str) == [0, 1, None], workers.events[-20:]  # (None: the parent)
    assert not [e for e in workers.events if e.get("event") == "worker_died"]


@pytest.mark.timeout(120)  # its fail_after(80), then its clean-up
async def test_a_worker_stopped_as_it_starts_is_stopped_not_dead_and_started_again(
    postgres_url: str, tmp_path: Path
) -> None:
    """SIGTERM to worker 1 the moment it is started (before it serves, when the signal
    ends it as its default would: status -15), first as the whole server starts, then
    as it starts again after a rolling restart's SIGTERM: each is a stop asked for,
    `worker_stopped` at info, and the parent starts it again. Before the fix the first
    was `worker_failed_to_start` (the whole server ended, status 1), the second
    `worker_died`, the warning a crash is."""
    starts: list[int] = []  # worker 1's pids, as it is started

    def stop_at_start(entry: dict[str, object]) -> None:
        if entry.get("event") == "worker_started" and entry.get("worker") == 1:
            pid = int(str(entry["pid"]))
            starts.append(pid)
            if len(starts) in (1, 3):  # the server's start-up; the restart's
                os.kill(pid, signal.SIGTERM)

    settings = _settings(tmp_path, SHORT_GRACE_MS)
    with trio.fail_after(80):
        async with served_workers(postgres_url, settings, heard=stop_at_start) as workers:
            assert len(starts) == 2 and workers.pids[1] == starts[1], (starts, workers.pids)
            os.kill(starts[1], signal.SIGTERM)  # a rolling restart's, once it serves
            with trio.fail_after(40):
                while len(starts) < 4 or workers.pids[1] != starts[3]:
                    await trio.sleep(0.05)
            stopped = [e for e in workers.events if e.get("event") == "worker_stopped"]
            assert [(e["worker"], e["pid"], e["status"], e["level"]) for e in stopped] == [
                (1, starts[0], -signal.SIGTERM, "info"),
                (1, starts[1], 0, "info"),
                (1, starts[2], -signal.SIGTERM, "info"),
            ], stopped
            alarms = {"worker_died", "worker_failed_to_start"}
            assert not [e for e in workers.events if e.get("event") in alarms]
