"""A ladder's bot is given up when it keeps exiting: more than 20 restarts within 10
minutes (docs/bots.md, "Bots"), a rate, not a run's total. Counted over the whole run,
a long run with a bot that crashed now and then was stopped at its 21st crash, hours
in. On trio's virtual clock: an in-process copy whose connection fails after a while
(``Supervisor.connect``) is a crash that many seconds into each life."""

from __future__ import annotations

import trio
import trio.testing

from deberc_net.ladder import supervisor as supervising
from deberc_net.ladder.schedule import ScheduleError
from deberc_net.ladder.supervisor import BotSpec, Supervisor

RANDOM = BotSpec("rnd", "py:clients.random_bot")


def _keeper(fails_after_s: float, given: list[ScheduleError]) -> Supervisor:
    """A supervisor whose in-process copies' every connection fails ``fails_after_s``
    seconds in: a copy's life is its reconnects' tries and waits (some 5 s more)."""

    async def connect() -> trio.abc.Stream:
        await trio.sleep(fails_after_s)
        raise OSError("no server here")

    keeper = Supervisor("127.0.0.1", 1)
    keeper.connect = connect
    keeper.logged_in = True  # every copy started: an exit is a crash
    keeper.on_give_up = given.append
    return keeper


async def test_a_bot_that_crashes_now_and_then_is_restarted_however_long_the_run(
    autojump_clock: trio.testing.MockClock,
) -> None:
    given: list[ScheduleError] = []
    keeper = _keeper(10.0, given)  # a life of some 65 s: 9 or 10 restarts in 10 min
    async with trio.open_nursery() as nursery:
        nursery.start_soon(keeper.keep_running, RANDOM, "rnd-1")
        with trio.fail_after(4 * 3600):
            while keeper.crashes["rnd"] <= 3 * supervising.MAX_RESTARTS and not given:
                await trio.sleep(60)
        keeper.stop()
        nursery.cancel_scope.cancel()
    assert given == []  # 60 crashes over an hour and more: still running


async def test_a_bot_that_keeps_crashing_is_given_up_after_20_restarts_in_10_minutes(
    autojump_clock: trio.testing.MockClock,
) -> None:
    given: list[ScheduleError] = []
    keeper = _keeper(0.0, given)  # a life of some 5 s
    start = trio.current_time()
    with trio.fail_after(3600):
        await keeper.keep_running(RANDOM, "rnd-1")
    assert keeper.crashes["rnd"] == supervising.MAX_RESTARTS + 1 == 21
    assert trio.current_time() - start < supervising.RESTART_WINDOW_S == 600
    [error] = given
    assert str(error).startswith("bot 'rnd' keeps failing; its last words: OSError")
