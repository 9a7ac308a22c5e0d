"""``serve --workers 2``: a guest of a worker that dies (SIGKILL) keeps his seat at the
other worker's table for his token, as a guest gone from that worker would
(docs/scaling.md)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, is_event

from .workers import SETTINGS, playing_across, served_workers, settings_file

# a minute of silence before a worker is taken for dead: within the test, only its
# replacement's hello makes the other forget it
SLOW_TO_FORGET = SETTINGS.replace("server_dead_ms = 10000", "server_dead_ms = 60000")


@pytest.mark.timeout(160)  # its fail_after(120), then its clean-up
async def test_a_dead_workers_guest_keeps_his_seat_elsewhere_for_his_token(
    postgres_url: str, tmp_path: Path
) -> None:
    # a tryout's note ('given a new token'): once worker 1 was forgotten, its guest's
    # name was anyone's at worker 0, whose table held his seat: 'login gus' there, no
    # token, took the name and the seat, and gus with his token was refused
    opened: list[LineClient] = []
    with trio.fail_after(120):
        async with served_workers(postgres_url, settings_file(tmp_path, SLOW_TO_FORGET)) as workers:
            try:
                dora = await workers.connect(0, "dora")  # the table's owner
                gus = await workers.connect(1, "gus")
                opened += [dora, gus]
                token = gus.token
                await playing_across(dora, gus)
                killed = workers.pids[1]
                os.kill(killed, signal.SIGKILL)
                # started again by the parent, the new worker 1 says hello as worker 1:
                # the old one is forgotten at once, not after server_dead_ms (in that
                # while the new one knew nobody of the old one's: his name was anyone's)
                await dora.read_until(lambda x: is_event(x, "away"), 20)
                with trio.fail_after(30):  # (its listening line may come to the log later)
                    while workers.pids[1] == killed:
                        await trio.sleep(0.05)
                for worker in (0, 1):  # the name is his at either, not the first comer's
                    thief = await workers.reach(worker, "thief")
                    opened.append(thief)
                    await thief.send("style machine")
                    with trio.fail_after(30):  # (worker 1 hears what worker 0 holds first)
                        while True:
                            await thief.send("login gus")
                            refused = await thief.read_until(
                                lambda x: x.startswith(("ok cmd=login", "error "))
                            )
                            if "code=name-in-use" in refused or worker == 0:
                                break
                            await trio.sleep(0.1)
                    assert "code=name-in-use" in refused, (worker, refused)
                back = await workers.reach(0, "back")
                opened.append(back)
                await back.send("style machine")
                await back.send(f"login gus token={token}")
                welcome = await back.expect("ok", cmd="login")
                assert welcome["token"] == token  # his, for as long as the name is his
                await back.read_until(lambda x: is_event(x, "back"), 30)  # at his seat
            finally:
                await close_all(opened)
