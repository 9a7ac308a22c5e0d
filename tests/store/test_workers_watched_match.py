"""A kibitzer on one worker watching a match at another worker's table (``serve
--workers``): after its end, at no table, his 'sheet' tells that match, as a kibitzer's
on one server does (docs/protocol.md §5.12; tests/server/test_silent_observer.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import trio

from tests.server.client import close_all, fields, is_event, play_machine

from .workers import SETTINGS, served_workers, settings_file, until_listed


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_kibitzer_on_another_worker_is_told_the_match_he_watched(
    postgres_url: str, tmp_path: Path
) -> None:
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            ann = await workers.connect(0, "ann")
            bob = await workers.connect(0, "bob")
            kib = await workers.connect(1, "kib")  # the table is worker 0's
            opened = [ann, bob, kib]
            try:
                await ann.send("new 2 short")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await until_listed(kib, "tables", f"id={table} ")
                await kib.send(f"observe {table}")
                await kib.expect("ok", cmd="observe", table=table)
                await bob.send(f"sit {table}")
                await bob.expect("ok", cmd="sit")
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play_machine, ann, random.Random(1))
                    nursery.start_soon(play_machine, bob, random.Random(2))
                await kib.read_until(lambda x: is_event(x, "match-end"))
                deals = [fields(x)[1] for x in kib.lines if is_event(x, "deal-end")]
                await until_listed(kib, "tables", f"id={table} ", present=False)
                await kib.send("sheet")
                line = await kib.read_until(lambda x: fields(x)[0] in ("sheet", "error"))
                assert fields(line)[0] == "sheet", line
                assert fields(line)[1]["table"] == table
                assert fields(line)[1]["deals"] == str(len(deals))
            finally:
                await close_all(opened)
