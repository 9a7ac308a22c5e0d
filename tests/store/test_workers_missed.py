"""What a player away missed (docs/protocol.md §12, server/missed.py) under ``serve
--workers 2``: kept by every worker, so his login at either is told, and told once."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, infos_so_far

from .workers import served_workers, settings_file, until_listed

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 100\nheartbeat_ms = 500\n"
    "server_dead_ms = 60000\nworker_restart_ms = 50\nempty_table_ms = 1000\n"
)


async def _listed_at(client: LineClient, count: str) -> None:
    """Until ``client``'s worker lists ``count`` tables."""
    while True:
        await client.send("tables")
        if (await client.expect("tables"))["count"] == count:
            return
        await trio.sleep(0.1)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_login_at_the_other_worker_is_told_what_was_missed_once(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = settings_file(tmp_path, SETTINGS)
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings) as workers:
            try:
                gleb = await workers.connect(0, "gleb")
                eve = await workers.connect(1, "eve")
                opened += [gleb, eve]
                await gleb.send("new 2")
                table = (await gleb.expect("ok", cmd="sit"))["table"]
                # worker 1 lists the table first (its news crosses the bus), then not
                await _listed_at(eve, "1")
                await gleb.aclose()  # alone: the table closes 1 s later, at worker 0
                await _listed_at(eve, "0")  # (its notice crossed the bus before)
                back = await workers.connect(1, "gleb", token=gleb.token)
                opened.append(back)
                assert await infos_so_far(back) == [
                    f"While you were away, table {table} closed: nobody was left at it for 1 s."
                ]
                # its 'told' crosses the bus: worker 1 tells it between gleb's login and
                # his quit, and worker 0 hears a worker's messages in order, so once it
                # has listed him and then not, it has heard that too
                watcher = await workers.connect(0, "watcher")
                opened.append(watcher)
                await until_listed(watcher, "who", "gleb")
                await back.send("quit")
                await back.wait_closed()
                await until_listed(watcher, "who", "gleb", present=False)
                again = await workers.connect(0, "gleb", token=gleb.token)
                opened.append(again)
                assert await infos_so_far(again) == []  # told once, at either worker
            finally:
                await close_all(opened)
