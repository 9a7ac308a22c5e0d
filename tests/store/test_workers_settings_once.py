"""``serve --workers``: a player's setting told to the other workers (``who`` on the
lobby channel, docs/scaling.md) only when it changes. Set again to what it was, it
told every worker all the same (a read-back, s46): a message to each worker for each
``style``/``lang``/``sort``/``clock`` a client repeats. A real worker in this process
on PostgreSQL, the test playing the other worker on the real bus."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from tests.server.client import LineClient, close_all, log_in_machine

from .workers import OTHER, worker_and_bus

STYLE = 2  # the style's place in a 'who' (cluster/payloads.who_for_bus)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_setting_set_again_to_the_same_tells_no_worker(postgres_url: str) -> None:
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, _):
            ann = await log_in_machine(await LineClient.connect(port), "ann")
            try:
                await ann.send("style human")
                await ann.read_until(lambda x: x == "Style human.")
                await ann.send("style human")  # the same again: nothing to tell
                await ann.read_until(lambda x: x == "Style human.")
                await ann.send("lang en")  # (English already)
                await ann.read_until(lambda x: x == "Language: English.")
                await ann.send("style machine")  # a change: told, after anything before
                await ann.read_until(lambda x: x.startswith("ok cmd=style"))

                def styles() -> list[str]:
                    return [m["who"][STYLE] for m in heard if m.get("k") == "who"]

                while "machine" not in styles():  # (the bus keeps one sender's order)
                    await trio.sleep(0.01)
            finally:
                await close_all([ann])
    assert styles() == ["human", "machine"]
