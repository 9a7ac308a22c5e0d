"""``serve --workers 2`` stopped whole past server_dead_ms (its job stopped with Ctrl-Z
and resumed, a paused machine): neither worker takes the other for dead as they run
again, each having been silent only while it was stopped itself, neither on the bus nor
in the store (the first to beat ended the other's running matches: listed server-lost),
and play goes on (docs/scaling.md, "What differs from one worker")."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event, play_machine

from .workers import (
    QUICK_DEAD_MS,
    SETTINGS,
    deal_stored,
    listed_lost,
    playing_across,
    quick_death,
    served_workers,
    settings_file,
    until_stored,
)

DEAD_S = QUICK_DEAD_MS / 1000  # its server_dead_ms


def _deal_over(line: str) -> bool:
    return is_event(line, "deal-end")


async def _one_deal_each(pairs: list[tuple[LineClient, LineClient]]) -> None:
    """Each pair's next deal played to its end (random legal calls)."""
    async with trio.open_nursery() as nursery:
        for n, client in enumerate(c for pair in pairs for c in pair):
            nursery.start_soon(play_machine, client, random.Random(n), _deal_over)


def _match_of(client: LineClient) -> str:
    match: str = fields(next(x for x in client.lines if is_event(x, "start")))[1]["match"]
    return match


@pytest.mark.timeout(160)  # its fail_after(120), then its clean-up
async def test_workers_stopped_together_past_the_silence_limit_take_none_for_dead(
    postgres_url: str, tmp_path: Path
) -> None:
    # a CI run: the machine stalled some seconds during a drain; as they ran again both
    # workers took each other for dead at once (worker_lost how=silent, 25 ms apart),
    # though neither had missed a beat the other sent: neither had sent one. And the
    # first to beat in the store ended the other's matches, stalled with it
    opened: list[LineClient] = []
    settings = settings_file(tmp_path, quick_death(SETTINGS))
    with trio.fail_after(120):
        async with served_workers(postgres_url, settings, own_group=True) as workers:
            try:
                # a match at each worker's table, a player of the other worker at each:
                # whichever worker beats first would end the other's
                dora = await workers.connect(1, "dora")
                cal = await workers.connect(0, "cal")
                eve = await workers.connect(0, "eve")
                finn = await workers.connect(1, "finn")
                opened += [dora, cal, eve, finn]
                await playing_across(dora, cal)
                await playing_across(eve, finn)
                pairs = [(dora, cal), (eve, finn)]
                matches = [_match_of(cal), _match_of(finn)]
                await _one_deal_each(pairs)
                for match in matches:  # a deal of each on disk: each would be listed
                    await until_stored(deal_stored, postgres_url, match)
                heard = len(workers.events)
                os.killpg(workers.process.pid, signal.SIGSTOP)  # the parent and its workers
                try:
                    await trio.sleep(DEAD_S + 1)
                finally:
                    os.killpg(workers.process.pid, signal.SIGCONT)
                # each watches the living every DEAD_S / 4, and beats every 0.3 s: a
                # judgement on waking is made well within this, and one of a later
                # beat's silence would come after
                await trio.sleep(DEAD_S)
                for match in matches:  # (before a deal of it withholds it again)
                    assert not await trio.to_thread.run_sync(listed_lost, postgres_url, match)
                await _one_deal_each(pairs)  # and play goes on at both tables
                after = workers.events[heard:]
                assert not [e for e in after if e.get("event") == "worker_lost"], after
                ended = [e for e in after if e.get("event") == "dead_servers_matches_ended"]
                assert not ended, after
                for client in opened:
                    assert not [x for x in client.lines if "its server was lost" in x], client.label
            finally:
                await close_all(opened)
