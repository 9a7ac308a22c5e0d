"""``serve --workers 2`` stopped whole (SIGSTOP, as a job stopped with Ctrl-Z) for
longer than the away limit: what counts time for its players counts none of it
(docs/scaling.md, "A worker's own stall"). A player who dropped just before
and is back on a new connection made during the stall keeps his seat; one gone for
good still forfeits within the away limit of the workers running again."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event
from tests.stall_meter import stall_meter

from .workers import SETTINGS, playing_across, quick_death, served_workers, settings_file

AWAY_S = 2.0  # the away limit here
STOPPED_S = AWAY_S + 1.5  # the stall: past it (and past server_dead_ms)


def _token(client: LineClient) -> str:
    login = next(x for x in client.lines if fields(x)[0] == "ok" and "cmd=login" in x)
    return fields(login)[1]["token"]


def _forfeit(line: str) -> bool:
    return is_event(line, "match-end")


@pytest.mark.timeout(160)  # its fail_after(120), then its clean-up
async def test_a_stall_past_the_away_limit_forfeits_only_the_player_really_gone(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    away_ms = f"away_limit_ms = {int(AWAY_S * 1000)}\n"
    settings = settings_file(tmp_path, quick_death(SETTINGS) + away_ms)
    with trio.fail_after(120):
        async with served_workers(postgres_url, settings, own_group=True) as workers:
            try:
                gus = await workers.connect(0, "gus")
                hal = await workers.connect(1, "hal")
                eve = await workers.connect(0, "eve")
                finn = await workers.connect(1, "finn")
                opened += [gus, hal, eve, finn]
                await playing_across(gus, hal)  # worker 0's table, hal from worker 1
                await playing_across(eve, finn)
                token = _token(gus)
                # both drop; each table holds the seat, its partner told he is away
                await gus.aclose()
                await finn.aclose()
                await hal.read_until(lambda x: is_event(x, "away") and "name=gus" in x)
                await eve.read_until(lambda x: is_event(x, "away") and "name=finn" in x)
                heard = len(workers.events)
                os.killpg(workers.process.pid, signal.SIGSTOP)  # the parent and its workers
                try:
                    # gus comes back meanwhile: the kernel takes his connection, and his
                    # lines wait for a worker to run again
                    stream = await trio.open_tcp_stream("127.0.0.1", workers.port)
                    await stream.send_all(f"style machine\nlogin gus token={token}\n".encode())
                    await trio.sleep(STOPPED_S)
                finally:
                    os.killpg(workers.process.pid, signal.SIGCONT)
                with stall_meter() as meter:  # (a stall of the machine's, unasked)
                    resumed = time.monotonic()
                    back = await LineClient.over(stream, "gus again")
                    opened.append(back)
                    await back.expect("ok", cmd="login", name="gus")
                    await back.read_until(lambda x: is_event(x, "back") and "name=gus" in x)
                    # finn, gone for good, forfeits once the workers have run for the away
                    # limit: not at once (the stall counts none of it), nor much later
                    ended = await eve.read_until(_forfeit)
                    waited = meter.ran_s(resumed, time.monotonic())
                assert "reason=away" in ended or "finn" in ended, ended
                assert waited <= AWAY_S + 1.5, waited
                # gus's match plays on: hal is told no end of it
                await hal.send("ping")
                await hal.expect("ok", cmd="ping")
                assert not [x for x in hal.lines if _forfeit(x)], hal.lines
                stalled = [e for e in workers.events[heard:] if e.get("event") == "worker_stalled"]
                assert len({e.get("worker") for e in stalled}) == 2, stalled
            finally:
                await close_all(opened)
