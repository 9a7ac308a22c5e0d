"""``/api/health`` (docs/web.md, "Health"): 200 while the server takes new games, with
how many are logged in and playing; a drain's and a stop's 503 are in
tests/server/test_drain.py (a process, signalled)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.server.client import seat_pair
from tests.server.conftest import Connector

from .conftest import WebServer


async def test_health_says_serving_with_its_players_and_matches(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    web: WebServer = await start_web()
    status, body = await web.get("/api/health")
    assert (status, json.loads(body)) == (200, {"status": "serving", "players": 0, "playing": 0})
    ann = await connect.machine(web.port, "ann")
    bob = await connect.machine(web.port, "bob")
    await seat_pair(ann, bob)
    await connect.machine(web.port, "eve")  # in the lobby
    status, body = await web.get("/api/health")
    assert (status, json.loads(body)) == (200, {"status": "serving", "players": 3, "playing": 1})
