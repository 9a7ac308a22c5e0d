"""Two ladder runs with one ``--seed`` deal the same boards, each board's matches of
the same seed (docs/bots.md, "A bot's timeouts"): the clock's calls of one are never
counted as the other's, whether both played on one server (its matches numbered apart)
or a ``--server`` run's numbers are those of an earlier run in its ``--db``."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from .helpers import EAGER, clean_server_run_after_a_late_one, ladder, script, summary
from .late_bot import ONCE_LATE

SEED = "same1"


async def test_a_server_run_is_not_counted_from_an_earlier_runs_same_seed_and_numbers(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    eager = script(tmp_path, "eager", EAGER)
    await clean_server_run_after_a_late_one(
        tmp_path, start_server, register, eager, "1000", "--seed", SEED
    )


async def test_two_runs_of_one_seed_on_one_server_count_their_own_clocks_calls(
    tmp_path: Path,
    db_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    """Both runs' `--db` is the server's own store (the way a `--server` run counts the
    clock's calls at all): the server numbers their matches apart, so each run counts
    its own bot's one call, not the other's as well. The server's clock plays, not
    --clock-ms, which only the ladder's own server takes: a run given it is warned so
    on stderr (it said nothing, the bots on a 10 s clock), one not given it is not."""
    late, eager = script(tmp_path, "late", ONCE_LATE), script(tmp_path, "eager", EAGER)
    # (the server's clock: a --server run's --clock-ms is its own server's only)
    port = await start_server(admins=["ladder-admin"], bot_clock_ms=500, human_clock_ms=500)
    await register("ladder-admin", "pw-1")
    firsts = []
    warned = "warning: --clock-ms sets the ladder's own server's clock, not --server's"
    for clock in (("--clock-ms", "1000"), ()):
        done = await trio.to_thread.run_sync(
            functools.partial(
                ladder,
                tmp_path,
                *("--server", f"127.0.0.1:{port}", "--admin-password", "pw-1"),
                *("--bot", eager, "--bot", late, "--deals", "1", *clock),
                *("--concurrency", "1", "--json", "--seed", SEED),
                db=db_path,  # the server's store
            )
        )
        assert (warned in done.stderr) == bool(clock), done.stderr
        data = summary(done)
        assert data["clock_calls"] == {"late": 1}
        firsts.append(data["first_clock_calls"]["late"].split(" deal ")[0])
    assert firsts[0] != firsts[1]  # each its own match, 'match m1' then 'match m3'
