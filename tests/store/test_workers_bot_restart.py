"""A client library bot through a rolling restart of ``serve --workers 2``
(docs/scaling.md, "One worker restarted"; docs/bots.md, "A drain or a stop"): its
connection's worker stops while its table plays on at the other; the bot passes on
what it is told (the stop, its seat kept), connects again with its token, takes the
seat back and plays the match to its end. Before, it said nothing of it (s46)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from clients.client import Bot, Outcome
from clients.protocol import Event, Record, View
from tests.server.client import LineClient, close_all

from .workers import served_workers, until_listed

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 200\nheartbeat_ms = 500\n"
    "server_dead_ms = 10000\nworker_restart_ms = 50\n"  # (no death by silence tested)
)


@pytest.mark.timeout(150)  # its fail_after(110), then its clean-up
async def test_a_library_bot_says_its_workers_restart_and_takes_its_kept_seat_back(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    opened: list[LineClient] = []
    told: list[str] = []
    back, resumed = trio.Event(), trio.Event()

    def tell(text: str) -> None:
        told.append(text)
        if text.startswith("connected again"):
            back.set()

    def watch(item: Event | View | Record) -> None:
        if isinstance(item, View):  # its seat's state, or an ask: it sits again
            resumed.set()

    with trio.fail_after(110):
        async with served_workers(postgres_url, settings) as workers:
            try:
                carl = await workers.connect(1, "carl")
                robo = await workers.connect(0, "robo")  # the bot's name, seated first
                opened += [carl, robo]
                await carl.send("new 2")
                table = (await carl.expect("ok", cmd="sit"))["table"]
                await until_listed(robo, "tables", f"id={table} ")
                await robo.send(f"sit {table}")
                await robo.expect("ok", cmd="sit", timeout=30)
                await robo.expect("event", kind="start", timeout=30)
                await robo.aclose()  # away: the bot below takes the seat with its token
                first = await workers.reach(0, "robo")  # on worker 0, the one to stop

                async def connect() -> trio.abc.Stream:
                    if first.stream is not None and not resumed.is_set():
                        return first.stream  # (its banner read)
                    return await trio.open_tcp_stream("127.0.0.1", workers.port)

                bot = Bot(
                    lambda view: view.legal[0],
                    "robo",
                    port=workers.port,
                    games=1,
                    token=robo.token,
                    connect=connect,
                    tell=tell,
                    on_event=watch,
                )
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(bot.run)
                    with trio.fail_after(20):
                        await resumed.wait()
                    os.kill(workers.pids[0], signal.SIGTERM)  # a rolling restart's first
                    with trio.fail_after(20):
                        await back.wait()
                    await carl.send("leave!")  # the match over: the bot's last game
                assert told[:3] == [
                    "the server says: The server is shutting down: SIGTERM received.",
                    f"the server says: Your seat at table {table} is kept on another server:"
                    " log in again (a guest with his token) to take it back.",
                    "the server closed the connection: connecting again, 5 tries at most in"
                    " some 5 s",
                ], told
                assert told[3] == "connected again; seeking again ('seek 2')", told
                [result] = bot.stats.matches
                assert (result.outcome, result.table) == (Outcome.WON, int(table)), told
            finally:
                await close_all(opened)
