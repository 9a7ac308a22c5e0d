"""A table whose whole life fell between two of its worker's looks at its tables
(server/cluster/node.py, SNAPSHOT_S) was never told gone to the worker of a player it
seated from there: that worker listed it ever after, 'waiting' with both players, and
answered 'there is no table' to a 'sit' at it (a tryout, s29: a bot's one-match
seek across workers, played out in 160 ms)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import SETTINGS, served_workers, settings_file, until_listed

TRIES = 3  # quick tables, each seated across and over at once


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_table_over_between_two_looks_is_not_listed_by_the_other_worker(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            try:
                for n in range(TRIES):
                    ann = await workers.connect(0, f"ann{n}")
                    bob = await workers.connect(1, f"bob{n}")
                    opened += [ann, bob]
                    await ann.send("seek 2 short")
                    await ann.expect("ok", cmd="seek")
                    await bob.send("seek 2 short")  # (to worker 0, where ann waits)
                    start = await bob.read_until(lambda x: is_event(x, "start"), 20)
                    table = fields(start)[1]["table"]
                    await bob.send("leave!")  # a forfeit: the match, and its table, over
                    await bob.read_until(lambda x: is_event(x, "match-end"), 30)
                    await ann.read_until(lambda x: is_event(x, "match-end"), 30)
                    for client in (ann, bob):  # neither worker lists it once it is gone
                        await until_listed(client, "tables", f"id={table} ", present=False)
                    for client in (ann, bob):
                        opened.remove(client)
                        await client.aclose()
            finally:
                await close_all(opened)
