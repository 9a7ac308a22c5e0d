"""An in-process bot whose connection is cut (by the server: its outbox full, a
timeout; or broken on the way) connects again on its own, its seat away meanwhile: the
ladder's report counts each such reconnect, by bot (docs/bots.md "Ladders"). Failed
before: the drop went only into the bot's ``stats.errors``, and the report said
nothing of it.

The cut is made on the way, by a proxy in front of the server: no server setting cuts
one named bot alone (its idle and outbox limits hit every connection alike), and an
admin's ``kick`` says ``bye``, which ends a bot for good rather than dropping it. The
bot sees what the server's own cut shows it (the outbox's: the connection closed, no
word said)."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from clients.client import Stats
from deberc_net.ladder import report
from deberc_net.ladder.parallel import Child, Dealer, PartsCounter
from deberc_net.ladder.results import Summary
from deberc_net.ladder.runner import LadderOptions
from deberc_net.ladder.supervisor import BotSpec

from .helpers import HEUR, PY, ladder_argv, one_board_on

LOGIN = re.compile(rb"(^|\n)login rand-1\b")  # the bot cut: rand's first copy
ASK = re.compile(rb"(^|\n)ask ")  # ... once it is asked for a call: mid-match


async def _cut_once(server: int, task_status: trio.TaskStatus[int]) -> None:
    """A proxy to the server at ``server`` (its port, started: ``nursery.start``) that
    closes rand-1's first connection as soon as the server asks it for a call."""
    cut = trio.Event()

    async def carry(bot: trio.SocketStream) -> None:
        try:
            upstream = await trio.open_tcp_stream("127.0.0.1", server)
        except OSError:  # the server gone (the test's end): nothing to carry
            await bot.aclose()
            return
        target = trio.Event()  # this is rand-1's connection, not cut yet
        async with bot, upstream, trio.open_nursery() as nursery:

            async def up() -> None:
                said = b""
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    while data := await bot.receive_some():
                        said = (said + data)[-4096:]
                        if not cut.is_set() and LOGIN.search(said):
                            target.set()
                        await upstream.send_all(data)
                nursery.cancel_scope.cancel()  # either side gone: both closed

            async def down() -> None:
                heard = b""
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    while data := await upstream.receive_some():
                        await bot.send_all(data)
                        heard = (heard + data)[-4096:]
                        if target.is_set() and not cut.is_set() and ASK.search(heard):
                            cut.set()
                            break
                nursery.cancel_scope.cancel()

            nursery.start_soon(up)
            nursery.start_soon(down)

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    task_status.started(listeners[0].socket.getsockname()[1])
    await trio.serve_listeners(carry, listeners)


async def test_a_bot_cut_off_once_has_one_reconnect_in_the_report(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    port = await start_server(admins=["ladder-admin"])
    await register("ladder-admin", "pw-1")
    async with trio.open_nursery() as nursery:
        proxy = await nursery.start(_cut_once, port)
        done = await one_board_on(proxy, tmp_path, "--deals", "4", "--seed", "r1")
        nursery.cancel_scope.cancel()
    assert done.returncode == 0, done.stderr.decode()
    data = json.loads(done.stdout)
    assert data["reconnects"] == {"rand": 1}
    assert data["forfeits"] == {}  # the seat came back in time
    told = report.text(data).splitlines()
    at = told.index(
        "Reconnects (the server cut the bot's connection, or it broke; its seat away"
        " till it logged in again):"
    )
    assert told[at + 1 : at + 2] == ["  rand: 1"]


async def test_a_process_bot_cut_off_once_has_one_reconnect_in_the_report(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    """A bot run as a command (the reference random bot, a process of the client
    library) says its drops with its fault counts (``NAME: faults … reconnects=R``,
    asked for by the ladder: docs/bots.md "A bot's drops"), which the report counts as
    an in-process bot's. Failed before: a process bot's drops were counted nowhere."""
    port = await start_server(admins=["ladder-admin"])
    await register("ladder-admin", "pw-1")
    argv = ladder_argv(
        tmp_path / "results.sqlite3",
        "--admin-password",
        "pw-1",
        "--bot",
        HEUR,
        "--bot",
        f"rand={PY} -m clients.random_bot --seed 1",
        "--deals",
        "4",
        "--seed",
        "r1",
        "--json",
    )
    async with trio.open_nursery() as nursery:
        proxy = await nursery.start(_cut_once, port)
        with trio.fail_after(60):
            done = await trio.run_process(
                [*argv, "--server", f"127.0.0.1:{proxy}"],
                capture_stdout=True,
                capture_stderr=True,
                check=False,
            )
        nursery.cancel_scope.cancel()
    assert done.returncode == 0, done.stderr.decode()
    data = json.loads(done.stdout)
    assert data["reconnects"] == {"rand": 1}, done.stderr.decode()
    assert data["forfeits"] == {}
    assert b"faults fallbacks=" not in done.stderr  # read into the report, not passed on


async def test_the_parts_of_a_processes_ladder_add_their_bots_reconnects() -> None:
    """A ``--processes`` part says its copies' counts on its last line (as it says its
    crashes and faults); the ladder adds each part's to its report."""
    options = LadderOptions(bots=[BotSpec.parse("a=x"), BotSpec.parse("b=y")], seed="s")
    counter = PartsCounter(Dealer([], ahead=1), Summary(options, "s"), None)
    for part, dropped in enumerate((2, 1)):
        copy = Summary(options, "s")  # the part's own, its copies' stats counted in
        copy.count_faults([("a", Stats(reconnects=dropped)), ("b", Stats())])
        read, write = os.pipe()
        os.write(write, (json.dumps({"crashes": {}, **copy.faults()}) + "\n").encode())
        os.close(write)
        with trio.fail_after(30):
            await counter.read(part, Child(0, read, -1))
    assert counter.error is None
    data = counter.summary.as_dict()
    assert data["reconnects"] == {"a": 3}
    assert "  a: 3" in report.text(data).splitlines()


def test_a_report_stored_before_reconnects_were_counted_says_nothing_of_them() -> None:
    options = LadderOptions(bots=[BotSpec.parse("a=x"), BotSpec.parse("b=y")], seed="s")
    stored = Summary(options, "s").as_dict()
    del stored["reconnects"]
    assert "Reconnects" not in report.text(stored)
