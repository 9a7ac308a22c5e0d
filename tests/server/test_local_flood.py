"""The flood limit and a ladder's own in-process bots (``LocalLink``): what they send
comes to the server when its event loop reads it, so a loop held up for a while (a
loaded machine, a slow bot's ``choose`` in the loop) hands a connection its backlog at
once, counted as if the bot had sent it that fast. A ladder's web tryout saw such a
bot cut off for flooding and reconnect, its seat away meanwhile, with nothing counted
in the run's faults. The link's connections are not flood-limited (docs/security.md
§2); a socket's still are."""

from __future__ import annotations

import functools
from pathlib import Path

import trio
import trio.testing

from deberc_net.server.app import serve
from deberc_net.server.running import LocalLink
from deberc_net.testing import rule_book

from .client import LineClient, close_all, log_in_machine, machine_client
from .conftest import make_config

BURST = 2000  # lines at one instant (virtual time): twenty times the burst below
PONG = "ok cmd=ping text=pong"


async def _pongs(client: LineClient, count: int) -> None:
    seen = 0
    while seen < count:
        line = await client.read_until(lambda line: line == PONG or line.startswith("error"))
        assert line == PONG, line
        seen += 1


async def test_an_in_process_bots_backlog_at_once_is_not_a_flood_a_sockets_is(
    nursery: trio.Nursery,
    tmp_path: Path,
    virtual_clock: trio.testing.MockClock,
    jump_when_idle: None,
) -> None:
    links: list[LocalLink] = []
    port = await nursery.start(
        functools.partial(
            serve,
            make_config(tmp_path / "d.sqlite3", flood_lines_per_s=50, flood_burst=100),
            rules=rule_book(),
            local_bound=links.append,
        )
    )
    bot = await log_in_machine(await LineClient.over(await links[0].connect()), "heur-1")
    tcp = await machine_client(port, "rand-1")
    try:
        with trio.fail_after(30):  # (virtual time: the burst costs none of it)
            began = trio.current_time()
            # a bot's lines held up while the loop was busy, delivered in one go
            await bot.send_raw(b"ping\n" * BURST)
            await _pongs(bot, BURST)  # every one served, none cut off
            assert trio.current_time() - began < BURST / 50  # faster than the limit's rate
            await bot.send("who")
            await bot.expect("who")
            # the same from a socket is a flood, as ever
            await tcp.send_raw(b"ping\n" * BURST)
            assert (await tcp.expect("error", code="flood"))["text"].startswith("too many")
            await tcp.wait_closed()
    finally:
        await close_all([bot, tcp])
