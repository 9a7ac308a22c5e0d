"""A ``ladder run --server`` whose server drains for a restart (docs/protocol.md §11.4a,
docs/bots.md "A server that drains or stops"): the server refuses the ladder's next table
(``shutting-down``), plays its running seatings out and stops. The ladder stops there
with a line that says so, every board it started released on that server (nothing
kept withheld for a release that would never come), and its run stored as failed, not
left as one being played. In the drains that play a game out, the ladder and its bots
reach the server through a relay (relay.py) that drains it at a set point of the run
and gives the ladder the server's lines in the order a test needs: their outcome is the
same at every run."""

from __future__ import annotations

import re
import sqlite3
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio

from tests.server.conftest import Connector

from .helpers import LONG, kept_seatings, one_board_on, unlisted, withheld
from .relay import Relay

# the stopped server's grace (docs/settings.md, ``shutdown_grace_ms``): it closes the
# ladder's connection no sooner. Its 2 s were too short on a loaded host for the ladder
# to read the stop and have its releases answered (a loop of these tests, load 15: the
# line said its boards withheld); the test ends as the ladder does, the grace unspent
GRACE_MS = 30_000


async def _drained_under_a_ladder(
    port: int,
    tmp_path: Path,
    db_path: Path,
    register: Callable[[str, str], Awaitable[None]],
    connect: Connector,
    relay: Relay | None = None,
) -> tuple[subprocess.CompletedProcess[bytes], str]:
    """A one-board ladder runs on the server at ``port``; once it has three seatings
    kept, an admin drains the server: the ladder's process ended, and its stderr.
    Through ``relay`` (one game at a time), the admin drains as the relay says (its
    ``paused``, or ``reserved`` with ``hold_seeks``), then lets the bots' lines go."""
    await register("ladder-admin", "pw-1")
    await register("boss", "owners")
    ended: list[subprocess.CompletedProcess[bytes]] = []

    async def ladder(task_status: trio.TaskStatus[trio.Process]) -> None:
        through = port if relay is None else relay.port
        more = () if relay is None else ("--concurrency", "1")
        ended.append(
            await one_board_on(through, tmp_path, "--deals", LONG, *more, task_status=task_status)
        )
        nursery.cancel_scope.cancel()  # (the relay's work is over)

    async with trio.open_nursery() as nursery:
        if relay is not None:
            await nursery.start(relay.serve)
        await nursery.start(ladder)
        with trio.fail_after(30):
            if relay is None:
                while kept_seatings(db_path) < 3:
                    await trio.sleep(0.05)
            else:
                await (relay.reserved if relay.hold_seeks else relay.paused).wait()
        boss = await connect.machine(port, "boss", "owners")
        await boss.send("drain")
        await boss.expect("ok", cmd="drain")
        if relay is not None:
            relay.resume()
    (done,) = ended
    err = done.stderr.decode()
    return done, err


def _said(port: int, err: str, played: str) -> None:
    """The ladder's one line for a drain of the server it reached at ``port`` (the
    relay's): ``played`` (``N games of M played, …``), every board released."""
    said = (
        f"deberc-net ladder: 127.0.0.1:{port} drains for a restart (The server restarts once"
        " the running matches are over: no new game starts until then): the ladder stopped"
        f" there, {played}; every board it started is released there, its games listed. The"
        " run is stored as failed: run it again once that server is back\n"
    )
    assert err == said, err


@pytest.mark.timeout(90)
async def test_a_ladder_on_a_server_that_drains_stops_said_its_boards_released(
    tmp_path: Path,
    db_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
    connect: Connector,
) -> None:
    """Drained as its second game is played: the ladder's admin reads the server's stop
    before that game's end (the relay holds the end back till the stop has gone on: the
    order a stop gives that begins as a table writes its result, SIGTERM's or
    ``drain_limit_ms``'s; a drain's own stop comes after every end). That game was
    played out: it counts so. Failed before: the stop counted it cut (``1 game of 4000
    played, 1 cut by its stop``)."""
    port = await start_server(admins=["ladder-admin", "boss"], shutdown_grace_ms=GRACE_MS)
    relay = Relay(port)
    done, err = await _drained_under_a_ladder(port, tmp_path, db_path, register, connect, relay)
    assert relay.ends_held == 1, err  # (the stop was read first)
    assert done.returncode == 2, err
    _said(relay.port, err, "2 games of 4000 played, the last played out")
    assert withheld(db_path) == [], err  # nothing kept for a release that never comes
    assert unlisted(db_path) == [], err  # every seating played listed, the last ones too
    with sqlite3.connect(tmp_path / "results.sqlite3") as con:
        rows = con.execute("SELECT stopped, stop_reason, summary FROM ladder_runs").fetchall()
    assert rows == [("failed", err.removeprefix("deberc-net ladder: ").strip(), None)]


@pytest.mark.timeout(90)
async def test_a_ladder_whose_next_table_waits_for_its_bots_as_the_server_drains(
    tmp_path: Path,
    db_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
    connect: Connector,
) -> None:
    """Drained with the ladder's third table reserved, its bots' seeks not there yet
    (the relay holds them): the drain closes that table before its match starts, and
    tells the ladder so (``info closed=T``). Nothing was cut: the two games played were
    the last. Failed before: the ladder, told nothing, took that game for one running
    till the server's stop, then counted it cut by it (the likelier cause of s48's CI
    failure)."""
    port = await start_server(admins=["ladder-admin", "boss"], shutdown_grace_ms=GRACE_MS)
    relay = Relay(port, hold_seeks=True)
    done, err = await _drained_under_a_ladder(port, tmp_path, db_path, register, connect, relay)
    assert done.returncode == 2, err
    _said(relay.port, err, "2 games of 4000 played, the last played out")
    assert withheld(db_path) == [], err
    assert unlisted(db_path) == [], err


@pytest.mark.timeout(90)
async def test_a_ladder_on_a_server_whose_drain_limit_cuts_its_games_releases_them_all(
    tmp_path: Path,
    db_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
    connect: Connector,
) -> None:
    """The drain's limit (``drain_limit_ms``) stops the server with the ladder's games
    running (``info server=stopping``): the ladder releases every board it started at
    once, nothing more being played there, and stops said, as above."""
    port = await start_server(
        admins=["ladder-admin", "boss"], drain_limit_ms=1, shutdown_grace_ms=GRACE_MS
    )
    done, err = await _drained_under_a_ladder(port, tmp_path, db_path, register, connect)
    assert done.returncode == 2, err
    assert err.startswith(f"deberc-net ladder: 127.0.0.1:{port} drains for a restart ("), err
    # (a drain begun between two games cuts none)
    assert re.search(r" played, (\d+ cut by its stop|the last played out); every board it", err)
    assert "; every board it started is released there, its games listed." in err, err
    assert withheld(db_path) == [], err
