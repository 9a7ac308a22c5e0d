"""The releases' connection of a ladder on its own server (runner.py ``Releases``):
silent between boards, which may take longer than the server's idle limit, it stays
open (docs/bots.md)."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from deberc_net.ladder.admin import AdminClient
from deberc_net.ladder.parallel import Part
from deberc_net.ladder.ratings import Ratings
from deberc_net.ladder.runner import (
    INTERRUPTED,
    RELEASE_AT_STOP_S,
    Ladder,
    LadderOptions,
    Releases,
)
from deberc_net.ladder.schedule import ScheduleError, schedule
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.server.app import serve
from deberc_net.server.running import LocalLink
from deberc_net.testing import rule_book
from tests.server.conftest import make_config

from .helpers import RAND, RAND2, withheld


async def test_the_releases_connection_outlives_the_servers_idle_limit(
    nursery: trio.Nursery, tmp_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """Logged in, then nothing to release for five idle limits (a board of 336 seatings
    played by slow bots): a release then is answered. Failed before: the server closed
    the silent connection at its idle limit, and the ladder stopped ('the server closed
    the ladder's connection') with every game played since then lost."""
    db = tmp_path / "d.sqlite3"
    links: list[LocalLink] = []
    config = make_config(db, admins=["rel"], idle_timeout_ms=60_000)
    await nursery.start(
        functools.partial(serve, config, rules=rule_book(), local_bound=links.append)
    )
    links[0].trust("rel", "s3cret")
    admin = await AdminClient.connect("127.0.0.1", 0, "s3cret", links[0].connect, name="rel")
    ladder = Ladder(
        LadderOptions(bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)], db=str(db), progress=False),
        Ratings(["rand", "rand2"]),
    )
    releases = Releases(admin)
    nursery.start_soon(releases.read, ladder)
    nursery.start_soon(admin.keep_open, config.idle_timeout_ms / 1000 / 3)
    await trio.sleep(5 * 60)
    await releases.send(7, "0123456789abcdef")
    with trio.fail_after(5):
        await releases.all_answered()
    assert ladder.released == {7}
    await admin.aclose()


async def test_a_stop_as_a_reserve_is_sent_waits_for_no_answer_to_it(
    tmp_path: Path, virtual_clock: MockClock, jump_when_idle: None
) -> None:
    """A --processes part whose pipe up breaks (its ladder gone) stops in the game it
    reported: the next reserve's send, cancelled by that stop, writes nothing, and the
    stop waits for no answer to it; the boards it started are released. Failed before:
    the stop waited RELEASE_AT_STOP_S for an answer that never came."""
    db = tmp_path / "d.sqlite3"
    options = LadderOptions(
        bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)], deals=3, seed="c1", db=str(db)
    )
    options.progress = False
    games = list(schedule(["rand", "rand2"], 2, 3, "c1", options.mode))
    gone, up = os.pipe()
    os.close(gone)
    part = Part(options, games, list(range(len(games))), up, more=False)
    began = trio.current_time()
    try:
        with pytest.raises(ScheduleError, match=INTERRUPTED):
            await part.run()
    finally:
        os.close(up)
    assert trio.current_time() - began < RELEASE_AT_STOP_S
    assert withheld(db) == []
