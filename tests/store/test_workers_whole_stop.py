"""``serve --workers 2`` stopped whole (the parent's SIGTERM): a player of worker 0 seated
at worker 1's table is not told his seat is kept on another server, however late worker
1's word of that table's closing comes over the bus: it closes with the server, and his
own worker tells him so (docs/protocol.md §11.4), in the words worker 1 tells its own
players, and so is one of worker 0 who watches it. (A rolling restart's player is told:
test_workers_stopping.py.)"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import served_workers, until_listed

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 200\nheartbeat_ms = 500\nserver_dead_ms = 60000\n"
)
KEPT = "is kept on another server"


@pytest.mark.timeout(120)  # its fail_after(80), then its clean-up
async def test_a_whole_servers_stop_tells_bob_and_a_watcher_its_other_workers_table_closes(
    postgres_url: str, tmp_path: Path
) -> None:
    """Worker 1 held up (SIGSTOP) as the parent's SIGTERM comes: worker 0 hears nothing of
    its table's closing before its own grace is over. Before, bob was told his seat there
    was kept: worker 0 took the table for one that plays on until the bus said it closed
    (a loaded machine's bus, later than the 200 ms grace, did so in a run of the suite:
    --deal-seed=06a77b57, test_workers_two_hosts_stop.py); then (s50) he was told it
    closed without his match's fate, which worker 1's players are told, and cat, who
    watched it from worker 0, was told nothing of it."""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    opened: list[LineClient] = []
    with trio.fail_after(80):
        async with served_workers(postgres_url, settings) as workers:
            held: int | None = None
            try:
                ann = await workers.connect(1, "ann")
                bob = await workers.connect(0, "bob")
                cat = await workers.connect(0, "cat")
                opened += [ann, bob, cat]
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await until_listed(bob, "tables", f"id={table} ")
                await bob.send(f"sit {table}")
                await bob.expect("ok", cmd="sit", timeout=30)
                start = await bob.read_until(lambda x: is_event(x, "start"), 30)
                match = fields(start)[1]["match"]
                await cat.send(f"observe {table}")
                await cat.expect("ok", cmd="observe", timeout=30)
                # worker 0's copy of the table says its match is on (told within 0.25 s)
                await until_listed(cat, "tables", "state=playing")
                held = workers.pids[1]
                os.kill(held, signal.SIGSTOP)
                workers.process.send_signal(signal.SIGTERM)
                told = "info server=stopping text=The server is shutting down: SIGTERM received."
                # his table closes with the server, and he is told so by his own worker,
                # as ann would be by hers; so is cat
                closes = (
                    f"info closed={table} text=Table {table} closes: SIGTERM received."
                    f" Match {match} stops here: nobody wins or loses, and it is not rated."
                )
                for client in (bob, cat):
                    await client.wait_closed(20)
                    said = client.lines[client.pos :]
                    assert told in said, (client.label, said)
                    assert not [x for x in said if KEPT in x], said
                    assert said.count(closes) == 1, (client.label, said)
            finally:
                if held is not None:
                    os.kill(held, signal.SIGCONT)  # (it stops as the parent said)
                await close_all(opened)
