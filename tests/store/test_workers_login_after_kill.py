"""``serve --workers 2``: a player whose table's worker was SIGKILLed logs in again on
the living worker at once, before that worker heard of the death (its replacement's
hello, or server_dead_ms of silence). He is not told he is back at his seat there:
the living worker sees the dead one's process has ended, forgets it then and there,
and greets him in the lobby, his table closed (docs/scaling.md, "A worker's death")."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import SETTINGS, playing_across, served_workers, settings_file

# the killed worker's replacement 4 s later, and a minute of silence before a worker
# is taken for dead: the living worker is told nothing of the death meanwhile (before
# the fix its login said 'back at your seat' all that time)
LATE_REPLACEMENT = SETTINGS.replace("worker_restart_ms = 50", "worker_restart_ms = 4000").replace(
    "server_dead_ms = 10000", "server_dead_ms = 60000"
)


def _ended(pid: int) -> bool:
    """Whether process ``pid`` is dead to the kernel, its files closed (its listening
    socket: a connection now reaches the living worker): every thread of it a zombie
    not reaped yet, or gone. (Its first thread is a zombie at once, as the others
    still close its files.)"""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return True
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/stat", "rb") as fh:
                if fh.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X"):
                    return False
        except FileNotFoundError:
            continue
    return True


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_login_is_not_told_it_is_back_at_a_seat_whose_worker_is_dead(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(
            postgres_url, settings_file(tmp_path, LATE_REPLACEMENT)
        ) as workers:
            try:
                bob = await workers.connect(1, "bob")  # the table's owner, to be killed
                ann = await workers.connect(0, "ann")
                opened += [bob, ann]
                table = await playing_across(bob, ann)
                killed = workers.pids[1]
                os.kill(killed, signal.SIGKILL)
                with trio.fail_after(30):  # (the kernel's doing: milliseconds)
                    while not _ended(killed):
                        await trio.sleep(0.01)
                # at once: its listening socket is closed, so the living worker has him
                back = await workers.connect(0, "bob", token=bob.token)
                opened.append(back)
                login = next(x for x in back.lines if x.startswith("ok cmd=login"))
                assert "You are back at your seat" not in login, login
                assert "'new'" in fields(login)[1]["text"], login  # the lobby's greeting
                closes = f"info closed={table} text=Table {table} closes: its server was lost"
                told = await back.read_until(lambda x: x.startswith("info closed="), 30)
                assert told.startswith(closes), told
                # ann, seated there from the living worker, is told with him, not 4 s on
                told = await ann.read_until(lambda x: x.startswith("info closed="), 2)
                assert told.startswith(closes), told
                # his login answered in the lobby: he can open a table of his own at once
                await back.send("new 2")
                await back.expect("ok", cmd="sit", timeout=30)
                assert not [x for x in back.lines if is_event(x, "back")], back.lines
            finally:
                await close_all(opened)
