"""The web face's store reads take a share of trio's threads, not all of them
(server/web/app.py, WEB_STORE_READS; docs/security.md §8): a hostile tryout (s40) sent
closed tables' numbers, each 404 a store look-up in a thread, from 199 loopback
addresses, within each one's allowance: the look-ups filled trio's 40 threads and a
login's own store read waited behind them (a guest's login 3 ms -> 270 ms, a password
login 67 ms -> 1.1 s). Real sockets, a real SQLite file; the server runs in this
process. Each look-up is held in its thread (the real one runs once let go), so what
the flood holds is counted, not timed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
import trio
import trio.testing

from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.web.app import WEB_STORE_READS
from tests.server.conftest import Connector

from .conftest import WebServer

FLOOD = 60  # closed tables' pages asked at once: more than trio's 40 threads
NONE = 987654  # a number no table has


@pytest.mark.timeout(60)
async def test_a_flood_of_closed_tables_holds_no_login_back(
    start_web: Callable[..., Any], connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    web: WebServer = await start_web(web_requests_per_address_burst=0)
    let_go = threading.Event()
    held: list[int] = []  # the look-ups in their threads meanwhile
    look_up = SQLiteStore.last_match_at

    def held_look_up(store: SQLiteStore, table_id: int) -> str | None:
        held.append(table_id)
        let_go.wait(30)
        return look_up(store, table_id)

    monkeypatch.setattr(SQLiteStore, "last_match_at", held_look_up)
    asked = f"GET /table/{NONE} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
    answers: list[bytes] = []

    async def ask() -> None:
        answers.append(await web.answer_to(asked))

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            try:
                for _ in range(FLOOD):
                    nursery.start_soon(ask)
                while not held:
                    await trio.sleep(0.01)
                await trio.testing.wait_all_tasks_blocked(cushion=0.2)  # every one asked
                assert len(held) == WEB_STORE_READS  # the rest wait on the loop
                with trio.fail_after(30):  # a login's store read has its thread
                    await connect.machine(web.port, "zed")
            finally:
                let_go.set()
    assert len(answers) == FLOOD
    assert all(b" 404 " in a and f"No open table {NONE}.".encode() in a for a in answers)
