"""Why a match ended, in words, as the replay says it (web/ends.py): true whatever the
server's settings (a real server, its store)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from tests.server.client import fields
from tests.server.conftest import Connector

from .conftest import WebServer


async def test_a_timeouts_forfeit_is_told_without_a_count_the_setting_may_not_have(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    """``max_timeouts`` is a setting (docs/settings.md): the words said '3 times in a
    row' whatever it was, here once."""
    web: WebServer = await start_web(max_timeouts=1, human_clock_ms=300, bot_clock_ms=300)
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 2 moscow")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    match = (await bob.expect("event", kind="start"))["match"]
    with trio.fail_after(30):  # nobody answers: the first seat asked forfeits at once
        end = await bob.read_until(lambda x: "kind=match-end" in x)
    f = fields(end)[1]
    assert f["reason"] == "timeouts"
    loser = ("ann", "bob")[int(f["forfeit"])]
    status, body = await web.get(f"/games/{match}")
    page = body.decode()
    assert status == 200, page
    why = f"{loser} let the clock run out too many times in a row: forfeit"
    assert f'<span id="over">Match over: {f["name"]} wins ({why}).</span>' in page, page
