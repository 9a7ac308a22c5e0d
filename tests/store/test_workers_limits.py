"""The limits of docs/security.md under ``serve --workers 2`` (tryout-s15 #2, #4): the
ones that must hold across the workers, with real worker processes on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store
from tests.server.client import fields

from .workers import served_workers

SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 100\nheartbeat_ms = 500\n"
    "server_dead_ms = 60000\nfailed_logins_per_name = 3\nfailed_logins_per_connection = 9\n"
)


async def test_wrong_passwords_for_a_name_are_counted_across_workers(
    postgres_url: str, tmp_path: Path
) -> None:
    # tryout-s15 #2: each worker counted its own, so two workers let 2 x 5 guesses through
    store = open_store(postgres_url)
    set_password(store, "vic1", "goodpass1")
    store.close()
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    codes: list[str] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings) as workers:
            for attempt in range(8):  # on each worker in turn
                client = await workers.reach(attempt % 2, f"guess{attempt}")
                await client.send("style machine")
                await client.expect("ok", cmd="style")
                await client.send(f"login vic1 wrong{attempt}")
                reply = await client.read_until(lambda x: x.startswith(("ok ", "error ")))
                codes.append(fields(reply)[1].get("code", "ok"))
                await client.aclose()
                await trio.sleep(0.2)  # the bus tells the other worker within milliseconds
    assert codes == ["bad-password"] * 3 + ["slow-down"] * 5, codes
