"""A login's first store read (``arrival``) waits its turn, a few at once, an address's
first few logins of the window ahead of the others (server/login.py, ARRIVAL_READS,
FEW_LOGINS; docs/security.md §1): a
hostile tryout (s40) logged guests in in a loop from 199 loopback addresses, 840 a
second, each read in trio's threads, and an honest login waited behind all of them in
their line (3 ms -> 0.7 s). Real sockets, a real SQLite file; the server runs in this
process. The flood's reads are held in their threads (the real read runs once let go),
so who goes next is counted, not timed."""

from __future__ import annotations

import threading

import pytest
import trio
import trio.testing

from deberc_net.server.login import ARRIVAL_READS, FEW_LOGINS
from deberc_net.server.store.base import Arrival
from deberc_net.server.store.sqlite import SQLiteStore
from tests.server.conftest import Connector, StartServer

FLOOD = 50  # logins at once from one address: more than trio's 40 threads


@pytest.mark.timeout(60)
async def test_an_honest_login_goes_ahead_of_a_loop_of_logins(
    start_server: StartServer, connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = await start_server()
    let_go = threading.Semaphore(0)
    held: list[str] = []  # the flood's reads that reached their thread
    arrival = SQLiteStore.arrival

    def held_arrival(
        store: SQLiteStore, name: str, ignored_most: int = 0, address: str | None = None
    ) -> Arrival:
        if name.startswith("flood"):
            held.append(name)
            let_go.acquire(timeout=30)
        return arrival(store, name, ignored_most, address)

    monkeypatch.setattr(SQLiteStore, "arrival", held_arrival)
    flood = [await connect.raw(port, f"flood{i}", "127.0.0.2") for i in range(FLOOD)]
    with trio.fail_after(30):
        try:
            for i, client in enumerate(flood):
                await client.send(f"login flood{i}")
            while not held:
                await trio.sleep(0.01)
            await trio.testing.wait_all_tasks_blocked(cushion=0.2)  # every one asked
            logged_in: list[object] = []

            async def honest() -> None:
                logged_in.append(await connect.machine(port, "zed", source="127.0.0.3"))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(honest)
                await trio.testing.wait_all_tasks_blocked(cushion=0.2)  # it waits its turn
                # reads done till the flood's next are past its address's first few: the
                # next turn is the honest login's, not the flood's, however long its line
                for _ in range(max(0, FEW_LOGINS - ARRIVAL_READS) + 1):
                    let_go.release()
                with trio.fail_after(30):
                    while not logged_in:
                        await trio.sleep(0.01)
        finally:
            for _ in range(FLOOD):
                let_go.release()
        for client in flood:  # and the flood is let in, in its turn
            await client.read_until(lambda line: "Hello, flood" in line)
