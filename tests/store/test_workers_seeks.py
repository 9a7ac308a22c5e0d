"""The games waited for on a worker of ``serve --workers`` (docs/scaling.md), told to the
others on a real PostgreSQL bus: however many, in messages that each fit."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import trio

from tests.server.client import FOUR_PLAYER_OPTIONS, LineClient, log_in_machine

from .workers import OTHER, worker_and_bus

SEEKERS = 40


def _latest_seeks(heard: list[dict[str, Any]]) -> set[tuple[str, ...]] | None:
    """The options of every game the worker's latest whole list of seeks told."""
    seeks = [m for m in heard if m.get("k") == "seeks"]
    starts = [n for n, m in enumerate(seeks) if m["part"] == 0]
    if len(starts) < 2:  # the latest list may still be coming: the one before it is whole
        return None
    whole = seeks[starts[-2] : starts[-1]]
    return {tuple(told[2]) for m in whole for told in m["seeks"]}


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_forty_seeks_of_different_games_leave_the_worker_heard(postgres_url: str) -> None:
    # a tryout: 40 connections of one address, each seeking a 4-player game with other
    # options; the list, told whole in every 'tables' message, passed the bus's 8000
    # bytes, the bus dropped them all (the heartbeat's too), and 6 s later the other
    # worker took this one for dead and closed its tables, a match of its players lost
    heard: list[dict[str, Any]] = []
    wanted = list(itertools.islice(itertools.combinations(FOUR_PLAYER_OPTIONS, 14), SEEKERS))
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER, heartbeat_ms=200) as (port, _):
            seekers = []
            for n, options in enumerate(wanted):
                seeker = await log_in_machine(await LineClient.connect(port), f"seeker{n}")
                await seeker.send(f"seek 4 moscow {' '.join(options)}")
                await seeker.expect("ok", cmd="seek")
                seekers.append(seeker)
            since = len(heard)  # the heartbeat goes on: 'tables' every 200 ms
            while not [m for m in heard[since:] if m.get("k") == "tables"]:
                await trio.sleep(0.05)
            while (told := _latest_seeks(heard)) is None or len(told) < SEEKERS:
                await trio.sleep(0.05)
            assert told == set(wanted)
            for seeker in seekers:
                await seeker.aclose()
