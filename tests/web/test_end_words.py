"""Why a match ended, in words, as the replay says it (web/ends.py): true whatever the
server's settings (a real server, its store)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio

from tests.server.client import fields
from tests.server.conftest import Connector

from .conftest import WebServer


@pytest.mark.parametrize("players", [2, 3])
async def test_a_timeouts_forfeit_is_told_without_a_count_the_setting_may_not_have(
    start_web: Callable[..., Any], connect: Connector, players: int
) -> None:
    """``max_timeouts`` is a setting (docs/settings.md): the words said '3 times in a
    row' whatever it was, here once. Three players: who it was, not 'a player' (the
    tryout's m17; the store keeps the seat, docs/web.md)."""
    web: WebServer = await start_web(max_timeouts=1, human_clock_ms=300, bot_clock_ms=300)
    names = ("ann", "bob", "cat")[:players]
    clients = [await connect.machine(web.port, name) for name in names]
    await clients[0].send(f"new {players} moscow")
    sat = await clients[0].expect("ok", cmd="sit")
    table, seats = sat["table"], {int(sat["seat"]): "ann"}
    for name, client in zip(names[1:], clients[1:], strict=True):
        await client.send(f"sit {table}")
        seats[int((await client.expect("ok", cmd="sit"))["seat"])] = name
    last = clients[-1]
    match = (await last.expect("event", kind="start"))["match"]
    with trio.fail_after(30):  # nobody answers: the first seat asked forfeits at once
        end = await last.read_until(lambda x: "kind=match-end" in x)
    f = fields(end)[1]
    assert f["reason"] == "timeouts"
    loser = seats[int(f["forfeit"])]
    status, body = await web.get(f"/games/{match}")
    page = body.decode()
    assert status == 200, page
    why = f"{loser} let the clock run out too many times in a row: forfeit"
    assert f'<span id="over">Match over: {f["name"]} wins ({why}).</span>' in page, page
