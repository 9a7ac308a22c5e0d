"""``serve --workers``: a player's change of style or language reaches the stand-in of
him that holds his seat at another worker's table at once (a ``who`` on the bus), so
what the table tells him next, another player's doing, is in the new style and
language; before (s46) the stand-in took it only with his own next line there
(docs/scaling.md, "Playing across workers"). Real worker processes on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, is_event

from .workers import served_workers, settings_file, until_listed


async def _sit(client: LineClient, table: str) -> None:
    """``client`` (on worker 1) sits at worker 0's ``table`` once its copy is listed."""
    await until_listed(client, "tables", f"id={table} ")
    await client.send(f"sit {table}")
    await client.expect("ok", cmd="sit", timeout=30)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_style_or_language_change_reaches_the_table_of_another_worker_at_once(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings_file(tmp_path)) as workers:
            try:
                ann = await workers.connect(0, "ann")  # the table is worker 0's
                bob = await workers.connect(1, "bob")  # both sit there from worker 1,
                carl = await workers.connect(1, "carl")  # through one bus, in order
                opened += [ann, bob, carl]
                await ann.send("new 4")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await _sit(bob, table)
                await _sit(carl, table)
                # carl's seat told to bob (from worker 0, in the machine style)
                await bob.read_until(lambda x: is_event(x, "seated") and "name=carl" in x)

                await bob.send("style human")
                await bob.read_until(lambda x: x == "Style human.")
                await carl.send("say hello there")
                # failed before: 'say from=carl table=… text=hello there', as machine
                told = await bob.read_until(lambda x: x != "", 30)
                assert told == f"[table {table}] carl says: hello there", bob.lines[-5:]

                await bob.send("lang ru")
                await bob.read_until(lambda x: x == "Язык: русский.")
                await carl.send("say once more")
                told = await bob.read_until(lambda x: x != "", 30)
                assert told == f"[стол {table}] carl: once more", bob.lines[-5:]

                await bob.send("style machine")
                await bob.expect("ok", cmd="style")
                await carl.send("say last")
                told = await bob.read_until(lambda x: x != "", 30)
                assert told == f"say from=carl table={table} text=last", bob.lines[-5:]
            finally:
                await close_all(opened)
