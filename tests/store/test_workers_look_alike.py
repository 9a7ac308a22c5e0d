"""A new name that looks like a guest's at another worker of ``serve --workers 2``
(docs/security.md §1): guests are not stored, so the store cannot find them; the
worker compares the name with the names the other workers tell it they hold. A real
worker in this process on PostgreSQL; the other worker played by the test on the real
bus, telling the guest's login as a worker tells one."""

from __future__ import annotations

import time
from typing import Any

import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY
from tests.server.client import LineClient, close_all, log_in_machine

from .workers import OTHER, until_listed, worker_and_bus


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_name_like_a_guests_at_another_worker_is_refused(postgres_url: str) -> None:
    opened: list[LineClient] = []
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            try:
                carl = await log_in_machine(await LineClient.connect(port, "carl"), "carl")
                opened.append(carl)
                # boris, a guest, logs in at the other worker: what it tells the others
                boris = {"k": "in", "name": "boris", "guest": True, "token": "tokenboris"}
                other.publish(LOBBY, boris | {"fresh": True, "at": time.time(), "s": 1})
                await until_listed(carl, "who", "boris")  # this worker was told of him
                client = await LineClient.connect(port, "new")
                opened.append(client)
                await client.send("style machine")
                await client.expect("ok", cmd="style")
                await client.send("login b0ris")
                said = await client.expect("error")
                assert said["code"] == "bad-argument", said
                assert said["text"].startswith("b0ris looks like boris, a name taken"), said
            finally:
                await close_all(opened)
