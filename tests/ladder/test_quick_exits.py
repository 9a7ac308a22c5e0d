"""Which exits give a ladder's bot up at once (docs/bots.md, "Bots"): three quick ones
while the ladder starts (its command cannot run), but never once every copy has logged
in: a bot that played a few calls and crashed, each life shorter than two seconds, was
given up as one that could not start. It is restarted as any crash is (20 at most
within 10 minutes: test_restart_rate.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import trio

from deberc_net.ladder import supervisor as supervising
from deberc_net.ladder.schedule import ScheduleError
from deberc_net.ladder.supervisor import BotSpec, Supervisor
from tests.ladder.helpers import EAGER, games_in, ladder, script, summary

EXITS = BotSpec("exits", f"{sys.executable} -c 'import sys; sys.exit(1)'")


async def _given_up(logged_in: bool) -> tuple[int, str]:
    """How many times a bot that exits at once is restarted before it is given up, and
    why, with every copy logged in or not yet."""
    given: list[ScheduleError] = []
    keeper = Supervisor("127.0.0.1", 1)  # (it never connects)
    keeper.logged_in = logged_in
    keeper.on_give_up = given.append
    with trio.fail_after(30):
        await keeper.keep_running(EXITS, "exits-1")
    keeper.close()
    [error] = given
    return keeper.crashes["exits"], str(error)


async def test_quick_exits_give_a_bot_up_only_while_the_ladder_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    crashes, why = await _given_up(logged_in=False)
    assert crashes == supervising.QUICK_EXITS == 3  # its command cannot run
    assert why.startswith("bot 'exits' keeps exiting (code 1)")
    monkeypatch.setattr(supervising, "MAX_RESTARTS", 5)  # (20: the test's time)
    crashes, why = await _given_up(logged_in=True)
    assert crashes == 6 and why.startswith("bot 'exits' keeps exiting (code 1)")


# plays a call, then dies at the next, its first three lives (a second or so each)
CRASHES_THRICE = """\
import os, random, sys
from pathlib import Path
from clients.client import bot_arguments, run_bot
args = bot_arguments("dies three times, mid-game").parse_args()
marker = Path(sys.argv[0]).with_name("lives-" + args.name)
lives = int(marker.read_text()) if marker.exists() else 0
rng = random.Random(lives)
asks = []
def choose(view):
    asks.append(view)
    if lives < 3 and len(asks) == 2:  # one call played this life
        marker.write_text(str(lives + 1))
        os._exit(3)  # no goodbye: the connection just drops
    return rng.choice(view.legal)
run_bot(choose, args)
"""


def test_a_bot_that_crashes_after_playing_is_restarted_not_given_up(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    crash = script(tmp_path, "crash", CRASHES_THRICE)
    eager = script(tmp_path, "eager", EAGER)
    args = ("--bot", eager, "--bot", crash, "--deals", "1", "--concurrency", "1")
    # a restart (a Python start-up) may take more than the default 5 s away when loaded
    data = summary(ladder(tmp_path, *args, "--away-ms", "60000", "--json", db=db))
    assert (tmp_path / "lives-crash-1").read_text() == "3"
    assert data["crashes"] == {"crash": 3} and data["forfeits"] == {}
    assert data["games"] == 2 and [g["reason"] for g in games_in(db)] == ["deals"] * 2
