"""``serve --workers 2``: a worker stalled past server_dead_ms is taken for dead by the
other, which tells its players there that their table closed; the stalled worker lives
on, and its match with them. Once it tells the table again they are seated again
(docs/scaling.md)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import (
    QUICK_DEAD_MS,
    SETTINGS,
    playing_across,
    quick_death,
    served_workers,
    settings_file,
)

DEAD_S = QUICK_DEAD_MS / 1000  # its server_dead_ms


@pytest.mark.timeout(160)  # its fail_after(120), then its clean-up
async def test_a_player_told_his_table_closed_by_a_stall_takes_his_seat_back(
    postgres_url: str, tmp_path: Path
) -> None:
    # a tryout: told 'table N closes: its server was lost', cal still sat in the match
    # that played on at worker 1; each call of his was refused here ('you sit at no
    # table') and the match was lost by his timeouts
    opened: list[LineClient] = []
    with trio.fail_after(120):
        async with served_workers(
            postgres_url, settings_file(tmp_path, quick_death(SETTINGS))
        ) as workers:
            try:
                dora = await workers.connect(1, "dora")  # at the table's owner
                cal = await workers.connect(0, "cal")
                opened += [dora, cal]
                table = await playing_across(dora, cal)
                stopped = trio.current_time()
                os.kill(workers.pids[1], signal.SIGSTOP)
                try:
                    closed = await cal.read_until(lambda x: "closes: its server was lost" in x, 20)
                    assert f"Table {table} closes" in fields(closed)[1]["text"]
                    await trio.sleep_until(stopped + DEAD_S + 0.2)
                finally:
                    os.kill(workers.pids[1], signal.SIGCONT)
                # told again, it lives: he is seated again at once, before any call
                back = await cal.read_until(lambda x: "plays on after all" in x, 20)
                assert fields(back)[1]["text"] == (
                    f"Table {table} plays on after all: its server answers again, and your"
                    " seat is still yours."
                ), back
                state = await cal.read_until(lambda x: x.startswith(("state ", "ask ")), 30)
                assert fields(state)[1]["table"] == table
                await cal.send("pas")  # his first line: a table call, the table's now
                answer = await cal.read_until(
                    lambda x: x.startswith("error ") or is_event(x, "call"), 30
                )
                assert "you sit at no table" not in answer, answer
            finally:
                await close_all(opened)
