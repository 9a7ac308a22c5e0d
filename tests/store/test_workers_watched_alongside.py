"""``serve --workers``: a person who watches another worker's table while he sits at a
table of his own worker hears each line of the watched one after ``[table N]``, as on
one server (docs/protocol.md §5.7). The watched table's worker knows only its own
tables: its stand-in of him sat nowhere and watched that one table, so his lines of it
came untagged (a review, s44), its 'Waiting for …' read as his own table's."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from tests.server.client import (
    LineClient,
    close_all,
    is_event,
    play_machine,
    second_deal_first_trick,
)

from .workers import SETTINGS, served_workers, settings_file, until_listed


async def _told_to_deal_2s_first_trick(person: LineClient, start: int) -> list[str]:
    """What ``person`` was told from line ``start`` up to the first trick of deal 2 taken
    (over the bus from the table's worker: a ping his own worker answers is no mark),
    but for news of who came to watch."""
    await person.read_until(lambda x: "Deal 2." in x, 30)
    await person.read_until(lambda x: " takes " in x, 30)
    # cut at that line (and its wrapped rest): lines read in the same chunk after it
    # are the next trick's, there for one watcher and not yet for the other (v4, s45)
    told = person.lines[start:]
    deal = next(i for i, x in enumerate(told) if "Deal 2." in x)
    end = next(i for i in range(deal, len(told)) if " takes " in told[i]) + 1
    while end < len(told) and told[end].startswith("  "):
        end += 1
    return [x for x in told[:end] if "watches the table" not in x]


def _next_trick() -> Callable[[str], bool]:
    """A stop for play_machine: the next trick taken."""
    return lambda line: is_event(line, "trick")


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_table_of_another_worker_watched_alongside_ones_own_names_itself(
    postgres_url: str, tmp_path: Path
) -> None:
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            opened: list[LineClient] = []
            try:
                ann = await workers.connect(0, "ann")
                bob = await workers.connect(0, "bob")
                opened += [ann, bob]
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]
                cat = await workers.reach(1, "cat")  # a person, seated at worker 1
                opened.append(cat)
                await cat.send("login cat")
                await cat.take(lambda x: x.startswith("Hello, cat"))
                await cat.send("new 2")
                await cat.take(lambda x: x.startswith("You sit at table"))
                eve = await workers.reach(1, "eve")  # a person watching that table only
                opened.append(eve)
                await eve.send("login eve")
                await eve.take(lambda x: x.startswith("Hello, eve"))
                spy = await workers.connect(1, "spy")  # (reads worker 1's list of tables)
                opened.append(spy)
                await until_listed(spy, "tables", f"id={table} ")
                starts = []
                for person in (cat, eve):
                    await person.send(f"observe {table}")
                    await person.read_until(lambda x: x == f"You observe table {table}.")
                    starts.append(person.pos)
                await bob.send(f"sit {table}")
                await bob.expect("ok", cmd="sit", timeout=30)
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(
                        play_machine, ann, random.Random(1), second_deal_first_trick()
                    )
                    nursery.start_soon(
                        play_machine, bob, random.Random(2), second_deal_first_trick()
                    )
                cat_told = await _told_to_deal_2s_first_trick(cat, starts[0])
                eve_told = await _told_to_deal_2s_first_trick(eve, starts[1])
                await cat.send("leave")  # his own table: he watches that one alone now
                await cat.read_until(lambda x: x.startswith("You leave table"))
                # (from the line after it: lines read with it may follow it unread)
                alone = cat.pos
                async with trio.open_nursery() as nursery:  # the next trick
                    for client, seed in ((ann, 3), (bob, 4)):
                        stop = _next_trick()
                        nursery.start_soon(play_machine, client, random.Random(seed), stop)
                # that trick's card, then its taking: a line of the table's come late
                # over the bus is no mark (a CI run read only such a one, 'takes')
                await cat.read_until(lambda x: " plays " in x, 30)
                await cat.read_until(lambda x: " takes " in x, 30)
                cat_alone = cat.lines[alone:]
            finally:
                await close_all(opened)
    tag = f"[table {table}] "
    assert any(" plays " in x for x in cat_told), "\n".join(cat_told)
    # every line of the watched table says so (a wrapped one goes on indented), as on
    # one server; 'Table N waits for players' names it already
    assert cat_told[0] == f"Table {table} waits for players: ann, (free)", cat_told
    assert all(x.startswith(tag) or x.startswith("  ") for x in cat_told[1:]), cat_told
    # the same story, however wrapped, as one who watches that table only is told
    assert " ".join(x.removeprefix(tag) for x in cat_told).split() == " ".join(eve_told).split()
    # his own table left, he hears it as one who watches it only: his worker asks
    # where he is as each line comes
    assert any(" plays " in x for x in cat_alone), cat_alone
    assert not any(x.startswith("[table") for x in cat_alone), cat_alone
    # one who watches that table only hears it as before
    assert eve_told and not any(x.startswith("[table") for x in eve_told), eve_told
