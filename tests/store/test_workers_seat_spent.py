"""A running match left by one's own 'leave!' spends a seat of the seat allowance
(docs/security.md §6); under ``serve --workers`` the table's worker charged it where the
leaver was not checked: his own worker, where his next 'seek' is asked for, now is."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, is_event

from .workers import SETTINGS, playing_across, served_workers, settings_file, until_listed

# one seat at once, then none for 1,000 s
STINGY = SETTINGS + "seat_churn_burst = 1\nseat_churn_per_s = 0.001\n"


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_match_left_at_another_workers_table_spends_the_leavers_seat(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings_file(tmp_path, STINGY)) as workers:
            try:
                ann = await workers.connect(0, "ann")
                bob = await workers.connect(1, "bob")
                opened += [ann, bob]
                table = await playing_across(ann, bob)  # worker 0's, bob from worker 1
                # its copy on worker 1 told playing (a seat left at a waiting table is
                # charged there: not the case here)
                await until_listed(bob, "tables", f"id={table} players=2")
                await until_listed(bob, "tables", "state=playing")
                await bob.send("leave!")
                await bob.expect("ok", cmd="leave")
                await bob.read_until(lambda x: is_event(x, "match-end"), 30)
                await bob.send("seek 2")
                refused = await bob.expect("error")
                assert refused["code"] == "slow-down", refused
                await ann.send("seek 2")  # the one left is not charged
                await ann.expect("ok", cmd="seek")
            finally:
                await close_all(opened)
