"""A void deal (all passed, four sevens) on the web as a person reads it: dealt again,
`redealt` (Russian «пересдача»), as the table's end line says it (docs/web.md); the
pages said its code, `void` (a leftover, s44). The JSON keeps the code."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import trio

from tests.server.client import fields, is_event, next_ask, seat_pair
from tests.server.conftest import Connector

from .conftest import WebServer


async def test_a_void_deal_reads_redealt_on_the_table_and_replay_pages(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    with trio.fail_after(30):
        table, _, _ = await seat_pair(ann, bob)
        for _ in range(4):  # both pass in both rounds: the first deal is void (all passed)
            found = await next_ask(ann, bob)
            assert found is not None
            await found[1].send("pas")
        end = fields(await ann.read_until(lambda x: is_event(x, "deal-end")))[1]
        assert end["outcome"] == "void", end
        match = fields(next(x for x in ann.lines if is_event(x, "start")))[1]["match"]

        _, page = await web.get(f"/table/{table}")
        assert "<tr><td>1</td><td>redealt</td>" in page.decode()
        _, page = await web.get(f"/table/{table}?lang=ru")
        assert "<tr><td>1</td><td>пересдача</td>" in page.decode()

        await ann.send("leave")  # a forfeit ends the match: stored, its replay served
        await bob.read_until(lambda x: is_event(x, "match-end"))
        status, page = await web.get(f"/games/{match}")
        assert status == 200 and "Outcome: redealt." in page.decode()
        _, page = await web.get(f"/games/{match}?lang=ru")
        assert "Исход: пересдача." in page.decode()
        _, body = await web.get(f"/api/games/{match}")
        assert [d["outcome"] for d in json.loads(body)["deals"]] == ["void"]
