"""``serve --workers 2``: a registered player told live that his table closed, its
worker killed (``info closed=T text=Table T closes: its server was lost``), is not told
it again at his next login once the match is listed ``server-lost`` (server/cut_off.py:
the live telling is kept as told, migration 14's ``cut_offs_told``). His opponent, who
was on the killed worker and told nothing, is told at his login, once
(docs/protocol.md §12)."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event, play_machine

from .workers import (
    SETTINGS,
    cut_off_notice,
    deal_stored,
    listed_lost,
    quick_death,
    served_workers,
    settings_file,
    until_listed,
    until_stored,
)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
@pytest.mark.parametrize("private", [False, True])
async def test_a_player_told_live_of_a_lost_match_is_not_told_it_again_at_login(
    postgres_url: str, tmp_path: Path, private: bool
) -> None:
    """``private``: at a private table, whose match the others' copies of it do not
    show (the web face's): told again at the next login, before (s50)."""
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(
            postgres_url, settings_file(tmp_path, quick_death(SETTINGS))
        ) as workers:
            try:
                bob = await workers.connect(1, "bob", "pw-bob-1")  # the table's owner
                ann = await workers.connect(0, "ann", "pw-ann-1")
                opened += [bob, ann]
                await bob.send("new 2 to-301" + (" private" if private else ""))
                table = (await bob.expect("ok", cmd="sit"))["table"]
                if private:  # (bob's worker told of ann first: the bus's, not at once)
                    await until_listed(bob, "who", "ann")
                    await bob.send("invite ann")
                    await bob.expect("ok", cmd="invite")
                await until_listed(ann, "tables", f"id={table} ")
                await ann.send(f"sit {table}")
                deal_over = lambda x: is_event(x, "deal-end")  # noqa: E731  (one deal)
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play_machine, ann, random.Random(1), deal_over)
                    nursery.start_soon(play_machine, bob, random.Random(2), deal_over)
                match = fields(next(x for x in ann.lines if is_event(x, "start")))[1]["match"]
                # its deal on disk (a match without one is not listed), and ann's worker
                # told of its match (what it tells her was lost, kept as told to her)
                await until_stored(deal_stored, postgres_url, match)
                await until_listed(ann, "tables", "state=playing")
                os.kill(workers.pids[1], signal.SIGKILL)
                closes = f"info closed={table} text=Table {table} closes: its server was lost"
                told = await ann.read_until(lambda x: x.startswith("info closed="), 30)
                assert told.startswith(closes), told
                # listed once its silence passed server_dead_ms
                await until_stored(listed_lost, postgres_url, match)

                async def ann_not_told(worker: int, window: float) -> None:  # told live
                    again = await workers.connect(worker, "ann", "pw-ann-1")
                    opened.append(again)
                    assert await cut_off_notice(again, window) is None  # not again

                async def bob_told_once(worker: int, window: float) -> None:  # at his first
                    back = await workers.connect(worker, "bob", "pw-bob-1")  # login alone
                    opened.append(back)
                    if worker == 0:  # told nothing yet
                        notice = await back.expect("info", cut_off=match, timeout=30)
                        assert notice["reason"] == "server-lost", notice
                    else:
                        assert await cut_off_notice(back, window) is None

                # how long bob's notice took to come at worker 0, five times over (a
                # second at least), is how long each wait below for a notice that must
                # not come lasts (3 s each, fixed, were half the test's time); each
                # name's logins in turn, worker 0 then 1 (ann's second would replace her
                # first)
                asked = trio.current_time()
                await bob_told_once(0, 0)
                window = max(1.0, 5 * (trio.current_time() - asked))
                await ann_not_told(0, window)
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(ann_not_told, 1, window)
                    nursery.start_soon(bob_told_once, 1, window)
            finally:
                await close_all(opened)
