"""Two ``serve --workers 2`` on one database (two hosts of one club, docs/scaling.md):
host A's SIGTERM tells its player seated at host B's table that his seat is kept
there (docs/protocol.md §11.4), and he takes it back by logging in to B; A's player
at a table of A's other worker is not told so (that table closed with A)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, log_in_machine

from .workers import Workers, served_workers

# a short grace: what the stop tells comes at its start and end, nothing is sent in it
SETTINGS = (
    "[server]\nlag_ms = 0\nshutdown_grace_ms = 200\nheartbeat_ms = 500\nserver_dead_ms = 5000\n"
)
KEPT = "is kept on another server"


async def _opens(client: LineClient) -> int:
    await client.send("new 2 moscow")
    return int(fields(await client.read_until(lambda x: fields(x)[0] == "ok"))[1]["table"])


async def _sits(client: LineClient, table: int) -> None:
    """``sit table``, once the client's worker has heard of that table."""
    with trio.fail_after(30):
        while True:
            await client.send(f"sit {table}")
            sat = await client.read_until(lambda x: fields(x)[0] in ("ok", "error"))
            if fields(sat)[0] == "ok":
                return
            await trio.sleep(0.1)


async def _rest(client: LineClient) -> list[str]:
    """Every line until the server closes the connection."""
    await client.wait_closed(20)
    return client.lines[client.pos :]


@pytest.mark.timeout(190)  # its fail_after(150), then its clean-up
async def test_a_stopping_hosts_player_at_another_hosts_table_is_told_his_seat_is_kept(
    postgres_url: str, tmp_path: Path
) -> None:
    """Before, he was told only 'The server is shutting down: SIGTERM received.'"""
    settings = tmp_path / "server.toml"
    settings.write_text(SETTINGS)
    with trio.fail_after(150):
        async with (
            served_workers(postgres_url, settings) as host_a,
            served_workers(postgres_url, settings) as host_b,
        ):
            ann = await host_a.connect(1, "ann")
            bob = await host_a.connect(0, "bob")  # at ann's table: A's other worker's
            carl = await host_b.connect(0, "carl")
            dan = await host_a.connect(0, "dan")  # at carl's table: host B's
            await _sits(bob, await _opens(ann))
            carls = await _opens(carl)
            await _sits(dan, carls)
            login = next(line for line in dan.lines if line.startswith("ok cmd=login"))
            token = fields(login)[1]["token"]
            host_a.process.send_signal(signal.SIGTERM)
            dans, bobs = await _rest(dan), await _rest(bob)
            assert any(line.startswith("info ") and "shutting down" in line for line in dans)
            kept = [line for line in dans if KEPT in line]
            assert kept == [
                f"info kept={carls} text=Your seat at table {carls} is kept on another server:"
                " log in again (a guest with his token) to take it back."
            ], dans
            assert not [line for line in bobs if KEPT in line], bobs
            assert any("closes: SIGTERM received" in line for line in bobs), bobs
            with trio.fail_after(40):
                await host_a.process.wait()
            back = await log_in_machine(await _reach(host_b), "dan", token=token)
            await back.read_until(lambda x: "kind=back" in x and "name=dan" in x)
            await close_all([ann, bob, carl, dan, back])


async def _reach(workers: Workers) -> LineClient:
    return await LineClient.connect(workers.port, "dan again")
