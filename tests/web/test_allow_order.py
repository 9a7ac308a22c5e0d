"""A 405's `Allow` header names the methods in one order on every route, the pages' as
the API's: Starlette builds it from a set, whose order changes with the process's string
hashing (PYTHONHASHSEED), so a page said `HEAD, GET` in one server and `GET, HEAD` in
another while /api sorted it. Real servers, as processes of their own, on loopback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from starlette.routing import Mount, Route, WebSocketRoute

from deberc_net.server.lobby import Lobby
from deberc_net.server.store import open_store
from deberc_net.server.web.app import make_app
from deberc_net.testing import rule_book
from tests.server.conftest import make_config

from .conftest import WebServer
from .serve_process import started

# string hashings under which a route's own set of methods comes out in each order
# (checked below, so the test cannot pass for want of a server that differs)
HASH_SEEDS = ("0", "3")
ROUTE_SAMPLES = {"n": "1", "run": "1", "match": "m1", "name": "ann"}
METHODS_SET_ORDER = (
    "from starlette.routing import Route; print(', '.join(Route('/', lambda r: None).methods))"
)


def _http_paths(app_routes: list[object]) -> list[str]:
    """A path each HTTP route of the app answers (a file under the static mount)."""
    paths = []
    for route in app_routes:
        if isinstance(route, Route):
            paths.append(re.sub(r"\{(\w+)(:digits)?\}", lambda m: ROUTE_SAMPLES[m[1]], route.path))
        elif isinstance(route, Mount):
            paths.append(f"{route.path}/table.js")
        else:  # a WebSocket's: no HTTP method is its own
            assert isinstance(route, WebSocketRoute), route
    return paths


async def _set_order(seed: str) -> str:
    """How a route's own set of methods comes out under string hashing ``seed``."""
    said = await trio.run_process(
        [sys.executable, "-c", METHODS_SET_ORDER],
        env={"PYTHONHASHSEED": seed},
        capture_stdout=True,
        check=True,
    )
    return said.stdout.decode().strip()


@pytest.mark.timeout(90)
async def test_a_405_names_the_allowed_methods_in_one_order_on_every_route(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    settings = tmp_path / "server.toml"
    settings.write_text("[server]\nhttp_port = 0\nshutdown_grace_ms = 100\n")
    orders: set[str] = set()
    servers: dict[str, tuple[subprocess.Popen[str], dict[str, int]]] = {}

    async def check_order(seed: str) -> None:
        orders.add(await _set_order(seed))

    async def start(seed: str) -> None:
        db, env = tmp_path / f"s{seed}.sqlite3", {"PYTHONHASHSEED": seed}
        servers[seed] = await trio.to_thread.run_sync(started, settings, db, env)

    try:
        # the checks and both servers' starts at once (each a process, mostly imports)
        async with trio.open_nursery() as starting:
            for seed in HASH_SEEDS:
                starting.start_soon(check_order, seed)
                starting.start_soon(start, seed)
        assert orders == {"GET, HEAD", "HEAD, GET"}  # the servers differ
        store = open_store(tmp_path / "routes.sqlite3")
        try:
            lobby = Lobby(make_config(tmp_path / "routes.sqlite3"), store, nursery, rule_book())
            paths = _http_paths(list(make_app(lobby).routes))
        finally:
            store.close()
        assert len(paths) >= 16 and "/static/table.js" in paths
        for seed in HASH_SEEDS:
            ports = servers[seed][1]
            assert set(ports) == {"listening", "http_listening"}, ports
            web = WebServer(ports["listening"], ports["http_listening"])
            with trio.fail_after(60):
                for path in paths:
                    for method in ("POST", "DELETE"):
                        status, told, body = await web.ask(method, path)
                        assert (status, told.get("allow")) == (405, "GET, HEAD"), (seed, path)
                        if path.startswith("/api"):
                            why = f"{method} is not allowed: {path} answers GET, HEAD"
                            assert json.loads(body) == {"error": why}
    finally:
        for proc, _ in servers.values():
            proc.kill()
            await trio.to_thread.run_sync(proc.wait)
