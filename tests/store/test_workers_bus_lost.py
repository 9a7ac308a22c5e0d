"""A worker of ``serve --workers 2`` whose bus is lost (its database gone away) and
which is then sent SIGTERM during that stop (docs/protocol.md §11.4, docs/scaling.md):
a player and a connection not logged in yet are each told why once, and closed; the
parent's worker_died line gives the bus's failure as the reason, not a later one."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, fields

from .workers import database_away, served_workers

SETTINGS = (
    # (a grace of 1.5 s: the test's SIGTERM comes in it, tens of ms after the bus's loss;
    # its players are let go at its end)
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 1500\nheartbeat_ms = 500\nserver_dead_ms = 3000\n"
)
LOST = "info server=stopping text=The server is shutting down: its database connection was lost."
RU_LOST = "Сервер останавливается: у сервера пропала связь с базой данных."
BUSY = "error code=busy text=the server is shutting down"


def _shutting_down(line: str) -> bool:
    return fields(line)[0] == "info" and "shutting down" in line


@pytest.mark.timeout(160)  # two worker processes, and the parent's restarts meanwhile
async def test_a_worker_whose_bus_is_lost_then_sigterm_tells_each_connection_once(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    with trio.fail_after(120):
        async with served_workers(postgres_url, settings) as workers:
            ann = await workers.connect(0, "ann")
            newcomer = await workers.reach(0, "newcomer")  # not logged in
            vera = await workers.reach(0, "vera")  # the people's style, in Russian
            await vera.send("login vera lang=ru")
            await vera.read_until(lambda x: "vera" in x)
            await newcomer.send("style machine")
            await newcomer.read_until(lambda x: fields(x)[0] == "ok")
            pid = workers.pids[0]
            try:
                await trio.to_thread.run_sync(database_away, postgres_url, True)
                assert await ann.read_until(_shutting_down, 15) == LOST
                assert RU_LOST in await vera.read_until(lambda x: RU_LOST in x, 15)
                # a connection in the grace (either worker: both lost their bus) is
                # refused in one line (docs/protocol.md §1), as in a SIGTERM's grace;
                # the shared port may hand it to the other worker, so wait until that
                # one has noticed too (it may notice a few ms later: CI saw it greeted)
                with trio.fail_after(15):
                    while len(_bus_lost(workers.events)) < 2:
                        await trio.sleep(0.05)
                late = LineClient(await trio.open_tcp_stream("127.0.0.1", workers.port))
                await late.wait_closed(30)
                assert late.lines == [BUSY], late.lines
                await late.aclose()
                # during the lost bus's grace (1.5 s): the SIGTERM path runs too
                os.kill(pid, signal.SIGTERM)
                await ann.wait_closed(20)
                await newcomer.wait_closed(20)  # it was left open (failed before)
                # told once each: twice before (the SIGTERM path told them again)
                assert [x for x in ann.lines if _shutting_down(x)] == [LOST], ann.lines
                # the newcomer was not told at all before
                assert [x for x in newcomer.lines if _shutting_down(x)] == [LOST]
                with trio.fail_after(20):
                    while not (died := _died(workers.events, pid)):
                        await trio.sleep(0.1)
            finally:
                await trio.to_thread.run_sync(database_away, postgres_url, False)
            # the bus's failure (its listener's or its publisher's connection ended by
            # the server: libpq's words vary), not the store's close in the server's
            # stop that failed after it (the pool's timeout)
            reason = str(died[0]["reason"])
            assert reason.startswith("its database connection failed"), died
            assert "couldn't get a connection" not in reason, died
            await ann.aclose()
            await newcomer.aclose()
            await vera.aclose()


def _bus_lost(events: list[dict[str, object]]) -> set[object]:
    return {e.get("worker") for e in events if e.get("event") == "bus_lost"}


def _died(events: list[dict[str, object]], pid: int) -> list[dict[str, object]]:
    return [e for e in events if e.get("event") == "worker_died" and e.get("pid") == pid]
