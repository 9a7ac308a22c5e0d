"""``serve --workers 2`` stopped whole past server_dead_ms (its job stopped with Ctrl-Z
and resumed, a paused machine): neither worker takes the other for dead as they run
again, each having been silent only while it was stopped itself (docs/scaling.md,
"What differs from one worker")."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all

from .workers import QUICK_DEAD_MS, SETTINGS, quick_death, served_workers, settings_file

DEAD_S = QUICK_DEAD_MS / 1000  # its server_dead_ms


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_workers_stopped_together_past_the_silence_limit_take_none_for_dead(
    postgres_url: str, tmp_path: Path
) -> None:
    # a CI run: the machine stalled some seconds during a drain; as they ran again both
    # workers took each other for dead at once (worker_lost how=silent, 25 ms apart),
    # though neither had missed a beat the other sent: neither had sent one
    opened: list[LineClient] = []
    settings = settings_file(tmp_path, quick_death(SETTINGS))
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings, own_group=True) as workers:
            try:
                dora = await workers.connect(1, "dora")
                cal = await workers.connect(0, "cal")
                opened += [dora, cal]
                await dora.send("new 3")  # (waiting for a third: no match, no store end)
                table = (await dora.expect("ok", cmd="sit"))["table"]
                with trio.fail_after(10):  # cal, at worker 0, sits at worker 1's table
                    while True:
                        await cal.send(f"sit {table}")
                        said = await cal.read_until(lambda x: x.startswith(("ok ", "error ")))
                        if said.startswith("ok "):
                            break
                        await trio.sleep(0.1)
                heard = len(workers.events)
                os.killpg(workers.process.pid, signal.SIGSTOP)  # the parent and its workers
                try:
                    await trio.sleep(DEAD_S + 1)
                finally:
                    os.killpg(workers.process.pid, signal.SIGCONT)
                # each watches the living every DEAD_S / 4: a judgement on waking is made
                # well within this, and one of a later beat's silence would come after
                await trio.sleep(DEAD_S)
                await cal.send("ping")
                await cal.expect("ok", cmd="ping")
                after = workers.events[heard:]
                assert not [e for e in after if e.get("event") == "worker_lost"], after
                assert not [x for x in cal.lines if "its server was lost" in x], cal.lines
            finally:
                await close_all(opened)
