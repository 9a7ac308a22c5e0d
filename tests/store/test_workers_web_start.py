"""A worker of ``serve --workers`` that serves the web face loads its libraries before
it joins the other workers on the bus, not after: the import holds the worker's loop
(1.0-1.3 s at load 30), and a worker silent on the bus past server_dead_ms is taken for
dead by the others (a full run's test_workers_order.py, server_dead_ms 3 s, load 30:
worker 1 lost worker 0 as it started, --deal-seed=7c274205)."""

from __future__ import annotations

from typing import Any

import pytest
import trio

import deberc_net.server.web as web
from deberc_net.server.cluster.node import Node

from .workers import worker_and_bus


async def test_a_worker_loads_the_web_face_before_it_joins_the_bus(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    serve_http = web.serve_http

    def loaded(name: str) -> Any:  # (PEP 562: 'from .web import serve_http' asks here)
        if name != "serve_http":
            raise AttributeError(name)
        if "web loaded" not in order:  # (asked twice an import: hasattr, then getattr)
            order.append("web loaded")
        return serve_http

    joins = Node.run

    def joined(node: Node, *args: Any, **kwargs: Any) -> Any:
        order.append("joined the bus")
        return joins(node, *args, **kwargs)

    monkeypatch.delattr(web, "serve_http")
    monkeypatch.setattr(web, "__getattr__", loaded, raising=False)
    monkeypatch.setattr(Node, "run", joined)
    heard: list[dict[str, Any]] = []
    bound: list[int] = []
    with trio.fail_after(30):
        async with worker_and_bus(postgres_url, heard, 1, web=bound):
            pass  # (it serves: listening on both ports)
    assert bound and order == ["web loaded", "joined the bus"], order
