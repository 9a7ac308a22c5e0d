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


async def test_a_private_match_is_in_no_count_a_stranger_reads(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    """docs/web.md, "Health": ``playing`` counts the matches at the tables anyone may
    see. It counted a private one too, so that any stranger polling /api/health beside
    /api/tables saw a private match start and end (s45). Nor does the lobby page's
    list, or a stranger's greeting, count its table."""
    web: WebServer = await start_web()
    with trio.fail_after(30):
        ann = await connect.machine(web.port, "ann")
        bob = await connect.machine(web.port, "bob")
        await ann.send("new 2 private")
        hidden = int((await ann.expect("ok", cmd="sit"))["table"])
        await ann.send("invite bob")
        await ann.expect("ok", cmd="invite")
        await bob.send(f"sit {hidden}")
        await bob.expect("ok", cmd="sit")
        await ann.expect("event", kind="start")
        status, body = await web.get("/api/health")
        said = (status, json.loads(body))
        assert said == (200, {"status": "serving", "players": 2, "playing": 0})  # (before: 1)
        _, page = await web.get("/")
        assert f'href="/table/{hidden}"'.encode() not in page
        eve = await connect.human(web.port, "eve")  # a stranger's greeting: no table
        assert "0 tables" in " ".join(eve.lines), eve.lines
        cat = await connect.machine(web.port, "cat")
        dan = await connect.machine(web.port, "dan")
        await seat_pair(cat, dan)  # a public match is counted, as before
        _, body = await web.get("/api/health")
        assert json.loads(body) == {"status": "serving", "players": 5, "playing": 1}


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
            Any,
            SimpleNamespace(
                names=lambda: ["ann", "bob"],
                # (the private ones left out when listed: Node.others_playing)
                others_playing=lambda listed=False: 2 if listed else 3,
            ),
        )
        assert health_of(lobby) == Health(Serving.SERVING, 2, 2)
    finally:
        store.close()
