"""``serve --workers 2``: a worker stalled past server_dead_ms (SIGSTOP) is taken for
dead by the other, which tells its player seated at the stalled worker's table that the
table closed (``its server was lost``: the words of a death), and keeps his seat in case
it lives. Killed while stopped (SIGKILL), it never tells the table again: that first
notice was the word of its loss, said once (not again as its replacement starts, nor at
his next login, the match listed server-lost), and the seat held for it is let go. The
table's owner's player, whose connection died with it, is told at her login. A Russian
watcher is told live, and the owner's player at her login in Russian, in the one wording
of a lost server, «его сервер потерян» (docs/protocol.md §12, docs/scaling.md)."""

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
    Workers,
    cut_off_notice,
    deal_stored,
    listed_lost,
    playing_across,
    quick_death,
    served_workers,
    settings_file,
    until_listed,
    until_stored,
)

LOST_RU = "его сервер потерян"


async def _human_ru(workers: Workers, worker: int, login: str) -> LineClient:
    """A connection to ``worker`` in the human style, in Russian, logged in (``login``:
    the words after 'login'), its greeting read."""
    client = await workers.reach(worker, login.split()[0])
    await client.send(f"login {login} lang=ru")
    await client.read_until(lambda x: x.startswith("Здравствуйте"), 30)
    return client


@pytest.mark.timeout(160)  # its fail_after(120), then its clean-up
async def test_a_stalled_then_killed_workers_player_is_told_its_loss_once(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(120):
        # (a stall taken for a death after 1.5 s, not 3: how long is not what it checks)
        settings = settings_file(tmp_path, quick_death(SETTINGS))
        async with served_workers(postgres_url, settings) as workers:
            try:
                dora = await workers.connect(1, "dora", "pw-dora-1")  # the table's owner
                cal = await workers.connect(0, "cal", "pw-cal-1")
                opened += [dora, cal]
                table = await playing_across(dora, cal)
                deal_over = lambda x: is_event(x, "deal-end")  # noqa: E731  (one deal stored)
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play_machine, cal, random.Random(1), deal_over)
                    nursery.start_soon(play_machine, dora, random.Random(2), deal_over)
                vera = await _human_ru(workers, 0, "vera")  # watches it, in Russian
                opened.append(vera)
                await vera.send(f"observe {table}")
                await vera.read_until(lambda x: "dora" in x, 30)
                match = fields(next(x for x in cal.lines if is_event(x, "start")))[1]["match"]
                await until_stored(deal_stored, postgres_url, match)  # its deal on disk
                # and cal's worker told of its match (what it tells him was lost, kept as
                # told to him): else told again at his login (test_workers_cut_off_told_once)
                await until_listed(cal, "tables", "state=playing")
                stalled_pid = workers.pids[1]
                os.kill(stalled_pid, signal.SIGSTOP)
                try:
                    closed = await cal.read_until(lambda x: x.startswith("info closed="), 20)
                finally:
                    os.kill(stalled_pid, signal.SIGKILL)  # dead while stopped
                    os.kill(stalled_pid, signal.SIGCONT)  # (so that it is reaped)
                assert fields(closed)[1] == {
                    "closed": table,
                    "text": f"Table {table} closes: its server was lost.",
                }, closed
                said = await vera.read_until(lambda x: "закрывается" in x, 30)
                assert said.endswith(f"Стол {table} закрывается: {LOST_RU}."), said
                with trio.fail_after(30):  # its replacement started, and heard at worker 0
                    while workers.pids.get(1) == stalled_pid:
                        await trio.sleep(0.1)
                    await until_stored(listed_lost, postgres_url, match)
                # the seat held for the stalled worker let go: he may sit anew at once
                await cal.send("new 2")
                await cal.expect("ok", cmd="sit", timeout=20)
                # the owner's player, told nothing yet, is told at her login; how long her
                # notice took to come, five times over (a second at least), is how long
                # each wait below for a word that must not come lasts (3 s each, fixed,
                # were most of the test's time)
                asked = trio.current_time()
                back = await _human_ru(workers, 0, "dora pw-dora-1")
                opened.append(back)
                notice = await back.read_until(lambda x: "прервана" in x, 30)
                assert f"Ваша последняя партия {match} за столом {table} прервана: {LOST_RU} (" in (
                    notice
                ), notice
                window = max(1.0, 5 * (trio.current_time() - asked))
                # after the replacement: told once (no 'plays on after all', no second
                # word as the dead worker was replaced)
                await cal.drain(window)
                told = [x for x in cal.lines if x.startswith(("info closed=", "info cut_off="))]
                assert told == [closed]
                assert not any("plays on after all" in x for x in cal.lines)
                for worker in (0, 1):  # told live: not again at a login, on either worker
                    again = await workers.connect(worker, "cal", "pw-cal-1")
                    opened.append(again)
                    assert await cut_off_notice(again, window) is None
            finally:
                await close_all(opened)
