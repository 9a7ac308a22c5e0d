"""``serve --workers 2`` stopped whole (the parent's SIGTERM): a player of worker 0 seated
at worker 1's table is not told his seat is kept on another server, however late worker
1's word of that table's closing comes over the bus: it closes with the server, and his
own worker tells him so (docs/protocol.md §11.4). (A rolling restart's player is told:
test_workers_stopping.py.)"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, is_event

from .workers import served_workers, until_listed

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 200\nheartbeat_ms = 500\nserver_dead_ms = 60000\n"
)
KEPT = "is kept on another server"


@pytest.mark.timeout(120)  # its fail_after(80), then its clean-up
async def test_a_whole_servers_stop_tells_nobody_his_seat_at_its_other_worker_is_kept(
    postgres_url: str, tmp_path: Path
) -> None:
    """Worker 1 held up (SIGSTOP) as the parent's SIGTERM comes: worker 0 hears nothing of
    its table's closing before its own grace is over. Before, bob was told his seat there
    was kept: worker 0 took the table for one that plays on until the bus said it closed
    (a loaded machine's bus, later than the 200 ms grace, did so in a run of the suite:
    --deal-seed=06a77b57, test_workers_two_hosts_stop.py)."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    opened: list[LineClient] = []
    with trio.fail_after(80):
        async with served_workers(postgres_url, settings) as workers:
            held: int | None = None
            try:
                ann = await workers.connect(1, "ann")
                bob = await workers.connect(0, "bob")
                opened += [ann, bob]
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await until_listed(bob, "tables", f"id={table} ")
                await bob.send(f"sit {table}")
                await bob.expect("ok", cmd="sit", timeout=30)
                await bob.read_until(lambda x: is_event(x, "start"), 30)
                held = workers.pids[1]
                os.kill(held, signal.SIGSTOP)
                workers.process.send_signal(signal.SIGTERM)
                await bob.wait_closed(20)
                bobs = bob.lines[bob.pos :]
                told = "info server=stopping text=The server is shutting down: SIGTERM received."
                assert told in bobs, bobs
                assert not [x for x in bobs if KEPT in x], bobs
                # his table closes with the server, and he is told so by his own worker
                closes = f"info closed={table} text=Table {table} closes: SIGTERM received."
                assert closes in bobs, bobs
            finally:
                if held is not None:
                    os.kill(held, signal.SIGCONT)  # (it stops as the parent said)
                await close_all(opened)
