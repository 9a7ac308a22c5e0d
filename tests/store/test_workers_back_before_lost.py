"""``serve --workers``: a player of a worker that died, back at his seat (logged in
again, here or at another living worker) before the table's owner forgets the dead
worker, is not marked away by that forgetting (docs/scaling.md, "A worker's death").
``serve --workers 2`` with a worker SIGKILLed; and a real worker in this process on
PostgreSQL owning the table, the test playing the dead worker, its replacement and a
third worker on the real bus, sending what a worker sends."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, Bus
from tests.server.client import LineClient, close_all, is_event

from .workers import (
    OTHER,
    SETTINGS,
    Workers,
    ann_away_at_table,
    ann_back,
    ann_back_at,
    ann_plays_from,
    heard_one,
    played_bus,
    playing_across,
    served_workers,
    settings_file,
    worker_and_bus,
)

THIRD = 900002  # a living worker the test plays
REPLACEMENT = 900003  # the one its parent starts in the dead OTHER's place
AS = "elsewhere/4242/0"  # OTHER's name in hello, and its replacement's
# a killed worker's replacement 2 s later and its start after that (its player logs in
# again meanwhile: a fraction of a second), and a minute of silence before a worker is
# taken for dead: only the replacement's hello makes the other forget it
LATE_REPLACEMENT = SETTINGS.replace("worker_restart_ms = 50", "worker_restart_ms = 2000").replace(
    "server_dead_ms = 10000", "server_dead_ms = 60000"
)


async def _other_replaced(heard: list[dict[str, Any]], replacement: Bus) -> None:
    """OTHER's replacement says hello in its place: this worker forgets OTHER at once,
    then tells the newcomer who is here (its 'in' of bob, heard: the forgetting done)."""
    heard.clear()
    replacement.publish(LOBBY, {"k": "hello", "as": AS})
    await heard_one(heard, k="in", name="bob")


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
@pytest.mark.parametrize("where", ["here", "third"])
async def test_a_player_back_before_his_dead_worker_is_forgotten_is_not_marked_away(
    postgres_url: str, where: str
) -> None:
    # a hostile tryout: ann's worker SIGKILLed, she logged in again with her token and
    # was back at her seat; then its replacement said hello, the table's owner forgot
    # the dead worker and marked her away by name, connected and playing: the away
    # limit forfeited her match (failed before)
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with (
            worker_and_bus(postgres_url, heard, OTHER) as (port, other),
            played_bus(postgres_url, THIRD) as third,
            played_bus(postgres_url, REPLACEMENT) as replacement,
        ):
            try:
                bob, table, here = await ann_plays_from(port, heard, other, 1, hello_as=AS)
                opened.append(bob)
                # at the table's owner, or at a third worker, living, which asks the
                # owner for her seat
                ann = await ann_back_at(where, port, third, table, here, [OTHER, 1])
                opened += [ann] if ann is not None else []
                await bob.read_until(lambda x: is_event(x, "back") and "name=ann" in x)
                await _other_replaced(heard, replacement)
                away, listed = await ann_away_at_table(bob, table, "after")
                assert not away, listed
                assert "away" not in listed, listed
            finally:
                await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_player_of_a_forgotten_worker_is_away_till_he_comes_back(
    postgres_url: str,
) -> None:
    # the other orders: not back when his worker is forgotten, he is away (his seat's
    # clock runs: the away limit); his login after it takes his seat back
    heard: list[dict[str, Any]] = []
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with (
            worker_and_bus(postgres_url, heard, OTHER) as (port, other),
            played_bus(postgres_url, REPLACEMENT) as replacement,
        ):
            try:
                bob, table, _ = await ann_plays_from(port, heard, other, 1, hello_as=AS)
                opened.append(bob)
                await _other_replaced(heard, replacement)
                away, listed = await ann_away_at_table(bob, table, "forgotten")
                assert away, listed
                ann = await ann_back(port)
                opened.append(ann)
                await bob.read_until(lambda x: is_event(x, "back") and "name=ann" in x)
                away, listed = await ann_away_at_table(bob, table, "back")
                assert not away and "away" not in listed, listed
            finally:
                await close_all(opened)


def _lost(workers: Workers) -> bool:
    return any(e.get("event") == "worker_lost" for e in workers.events)


@pytest.mark.timeout(160)  # its fail_after(120), then its clean-up
async def test_a_player_back_before_his_killed_worker_is_replaced_plays_on(
    postgres_url: str, tmp_path: Path
) -> None:
    # the tryout itself: ann (worker 0) at bob's table (worker 1); worker 0 SIGKILLed,
    # ann back at her seat on worker 1 with her token; the replacement's hello then
    # made worker 1 forget worker 0 and mark her away (failed before)
    opened: list[LineClient] = []
    with trio.fail_after(120):
        async with served_workers(
            postgres_url, settings_file(tmp_path, LATE_REPLACEMENT)
        ) as workers:
            try:
                bob = await workers.connect(1, "bob")  # the table's owner
                ann = await workers.connect(0, "ann")
                opened += [bob, ann]
                table = int(await playing_across(bob, ann))
                killed = workers.pids[0]
                os.kill(killed, signal.SIGKILL)
                with trio.fail_after(15):  # (till then a connection may land on its port)
                    while not any(e.get("event") == "worker_died" for e in workers.events):
                        await trio.sleep(0.05)
                back = await workers.connect(1, "ann", token=ann.token)
                opened.append(back)
                await bob.read_until(lambda x: is_event(x, "back") and "name=ann" in x, 30)
                assert not _lost(workers), "worker 0 forgotten before ann was back"
                with trio.fail_after(30):  # its replacement says hello: worker 0 forgotten
                    while workers.pids[0] == killed or not _lost(workers):
                        await trio.sleep(0.05)
                away, listed = await ann_away_at_table(bob, table, "after")
                assert not away, listed
                assert "away" not in listed, listed
            finally:
                await close_all(opened)
