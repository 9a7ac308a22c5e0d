"""A seat whose player is away shows as away on the web, with the seconds it is still
held (docs/web.md): on /api/tables, /table/N and the list of tables."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tests.server.conftest import Connector

from .conftest import WebServer


def text_of(page: bytes) -> str:
    """A page as read: its text, tags left out (each name is a span of its own on /)."""
    return re.sub(r"<[^>]+>", "", page.decode())


async def test_an_away_seat_is_shown_with_the_time_it_is_held(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    web: WebServer = await start_web()
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    status, body = await web.get(f"/api/tables/{table}")
    assert json.loads(body)["away_s"] == [None, None, None]  # nobody away
    await bob.aclose()  # his connection drops: away, his seat held
    assert (await ann.expect("event", kind="away"))["name"] == "bob"

    status, body = await web.get(f"/api/tables/{table}")
    summary = json.loads(body)
    assert summary["players"] == ["ann", "bob", None]
    ann_s, bob_s, free_s = summary["away_s"]
    assert ann_s is None and free_s is None and 0 < bob_s <= 120  # the away limit
    status, body = await web.get("/api/tables")
    assert json.loads(body)["tables"][0]["away_s"][1] in (bob_s, bob_s - 1)
    status, body = await web.get(f"/table/{table}")
    page = body.decode()
    assert status == 200 and 'class="away"' in page and "away: the seat is held" in page
    status, body = await web.get("/")
    assert "ann, bob (away), (free)" in text_of(body)


async def test_a_full_table_waiting_for_an_away_player_says_whom_it_waits_for(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    """Filled while bob is away, the table waits for him (docs/protocol.md §12): listed
    as waiting, its page says whom it waits for rather than 'Waiting for players'."""
    web: WebServer = await start_web()
    ann, bob, cat = [await connect.machine(web.port, n) for n in ("ann", "bob", "cat")]
    await ann.send("new 3")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await bob.send(f"sit {table}")
    await bob.expect("ok", cmd="sit")
    await bob.aclose()
    await ann.expect("event", kind="away", name="bob")
    await cat.send(f"sit {table}")
    await ann.expect("info")  # the table says whom it waits for: it is full
    status, body = await web.get(f"/api/tables/{table}")
    summary = json.loads(body)
    assert status == 200
    assert (summary["state"], summary["players"]) == ("waiting", ["ann", "bob", "cat"])
    status, body = await web.get(f"/table/{table}")
    page = body.decode()
    assert status == 200 and "Waiting for bob to come back" in page
    assert "Waiting for players" not in page
    status, body = await web.get("/")
    assert status == 200 and "ann, bob (away), cat" in text_of(body)
