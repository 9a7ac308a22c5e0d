"""The winners of a match in the JSON API: one list, the same in /api/games/ID and
/api/players/NAME (their old ``winner`` strings, kept for old clients, join the names
differently: tryout-s10, 9)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.server.conftest import Connector

from .conftest import WebServer

StartWeb = Callable[..., Any]


async def test_a_four_handed_matchs_winners_are_one_list_in_both_endpoints(
    start_web: StartWeb, connect: Connector
) -> None:
    web: WebServer = await start_web()
    names = ("ann", "bob", "cat", "dan")
    people = {n: await connect.machine(web.port, n) for n in names}
    ann = people["ann"]
    await ann.send("new 4 private")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    for name in names[1:]:
        await ann.send(f"invite {name}")
        await ann.expect("ok", cmd="invite")
        await people[name].send(f"sit {table}")
        await people[name].expect("ok", cmd="sit")
    match = (await ann.expect("event", kind="start"))["match"]
    await people["bob"].send("leave")  # before the first call: ann and cat win
    await ann.expect("event", kind="match-end")

    status, body = await web.get(f"/api/games/{match}")
    assert status == 200
    game = json.loads(body)
    assert game["winners"] == ["ann", "cat"] and game["winner"] == "ann, cat"  # (as before)
    for name in names:
        status, body = await web.get(f"/api/players/{name}")
        assert status == 200
        [played] = json.loads(body)["games"]
        assert played["winners"] == ["ann", "cat"] and played["winner"] == "ann,cat"
