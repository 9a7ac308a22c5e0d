"""``/api/health`` (docs/web.md, "Health"): 200 while the server takes new games, with
how many are logged in and playing; a drain's and a stop's 503 are in
tests/server/test_drain.py (a process, signalled)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import trio

from deberc_net.server.lobby import Lobby
from deberc_net.server.store import open_store
from deberc_net.server.web.health import Health, Serving, health_of
from deberc_net.testing import rule_book
from tests.server.client import seat_pair
from tests.server.conftest import Connector, make_config

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


async def test_health_counts_the_other_workers_players_and_matches_too(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """docs/web.md: under serve --workers, ``players`` counts those at every worker this
    one knows of (only worker 0 serves the web face). It counted worker 0's alone; so
    did ``playing``, 0 while the other workers' matches played on (an operator's tryout)."""
    config = make_config(tmp_path / "h.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        lobby.node = cast(
            Any, SimpleNamespace(names=lambda: ["ann", "bob"], others_playing=lambda: 3)
        )
        assert health_of(lobby) == Health(Serving.SERVING, 2, 3)
    finally:
        store.close()
