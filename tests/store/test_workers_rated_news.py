"""Whether a waiting table's match will be rated, told under ``serve --workers 2``
(docs/protocol.md §5.18, docs/scaling.md): the table's owner renders the line for
players of the other worker, in their language, and tells a guest from there as a
guest (his stand-in's; the guest himself 'you are a guest'), a registered player from
there who sits down where the match will not be rated too."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all

from .workers import served_workers, settings_file, until_listed


@pytest.mark.timeout(130)
async def test_a_guest_of_another_worker_unrates_the_match_and_its_players_are_told(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path)) as workers:
            try:
                ann = await workers.connect(0, "ann", "pw-ann-1")  # registers the name
                gus = await workers.connect(1, "gus")  # a guest
                bob = await workers.connect(1, "bob", "pw-bob-1")
                opened += [ann, gus, bob]
                await ann.send("new 3")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                await until_listed(gus, "tables", f"id={table} ")
                await gus.send(f"sit {table}")
                unrated = f"Table {table}'s match will not be rated: gus is a guest."
                yours = f"Table {table}'s match will not be rated: you are a guest."
                for told, text in ((ann, unrated), (gus, yours)):  # (gus: of himself)
                    said = await told.expect("info", table=table, timeout=30)
                    assert (said["rated"], said["text"]) == ("0", text)
                await bob.send("style human")  # (a machine's text= is English)
                await bob.send("lang ru")
                await bob.read_until(lambda x: x == "Язык: русский.", 30)
                await bob.send(f"sit {table}")  # the last seat: the match starts
                await bob.read_until(
                    lambda x: x == f"Партия за столом {table} не пойдёт в рейтинг: gus — гость.",
                    30,
                )
                await ann.expect("event", kind="start", timeout=30)
                assert len([x for x in ann.lines if x.startswith("info ")]) == 1
            finally:
                await close_all(opened)
