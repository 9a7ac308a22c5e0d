"""A new name that looks like a guest's at another worker of ``serve --workers 2``
(docs/security.md §1): guests are not stored, so the store cannot find them; the
worker compares the name with the names the other workers tell it they hold."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all

from .workers import served_workers, settings_file, until_listed


@pytest.mark.timeout(130)
async def test_a_name_like_a_guests_at_another_worker_is_refused(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path)) as workers:
            try:
                boris = await workers.connect(0, "boris")  # a guest, on worker 0
                carl = await workers.connect(1, "carl")
                opened += [boris, carl]
                await until_listed(carl, "who", "boris")  # worker 1 was told of him
                client = await workers.reach(1, "new")
                opened.append(client)
                await client.send("style machine")
                await client.expect("ok", cmd="style")
                await client.send("login b0ris")
                said = await client.expect("error")
                assert said["code"] == "bad-argument", said
                assert said["text"].startswith("b0ris looks like boris, a name taken"), said
            finally:
                await close_all(opened)
