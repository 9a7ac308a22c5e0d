"""``serve --workers``: a person at one worker who watches a running match at another,
a player there away, is told who is away after the view, as on one server
(docs/protocol.md §12): the table's worker renders his view through his stand-in
(``Session.send_watched``), a path that returned before the players-away line (a
read-back, s46); one who sits at a table of his own worker too reads it after
``[table N]``, as the watched table's other lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all

from .workers import SETTINGS, served_workers, settings_file, until_listed

AWAY = r"Disconnected, the seat held and the clock running: bob \(\d+ s left\)\."


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_watcher_at_another_worker_is_told_who_is_away(
    postgres_url: str, tmp_path: Path
) -> None:
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            opened: list[LineClient] = []
            try:
                ann = await workers.connect(0, "ann")
                bob = await workers.connect(0, "bob")
                opened += [ann, bob]
                await ann.send("clock human")  # (a program's 10 s: three could end it)
                await ann.expect("ok", cmd="clock")
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await bob.send(f"sit {table}")
                await bob.expect("ok", cmd="sit", timeout=30)
                await ann.expect("event", kind="start", timeout=30)
                await bob.aclose()
                await ann.expect("event", kind="away", name="bob", timeout=30)
                eve = await workers.reach(1, "eve")  # watching that table only
                cat = await workers.reach(1, "cat")  # seated at a table of worker 1 too
                opened += [eve, cat]
                for person in (eve, cat):
                    await person.send(f"login {person.label}")
                    await person.take(lambda x: x.startswith("Hello, "))
                await cat.send("new 2")
                await cat.take(lambda x: x.startswith("You sit at table"))
                spy = await workers.connect(1, "spy")  # (reads worker 1's list of tables)
                opened.append(spy)
                await until_listed(spy, "tables", f"id={table} ")
                for person, tag in ((eve, ""), (cat, rf"\[table {table}\] ")):
                    await person.send(f"observe {table}")
                    said = await person.read_until(lambda x: "Disconnected" in x, 30)
                    assert re.fullmatch(tag + AWAY, said), said
            finally:
                await close_all(opened)
