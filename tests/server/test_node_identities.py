"""``serve --workers``: each worker names itself in 'hello' by its parent's run and its
index ("as"); a worker that says hello under the name of one heard before has replaced
it (its parent started it after the other died), docs/scaling.md."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.node import Node
from deberc_net.server.lobby import Lobby
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

from .conftest import make_config

DEAD, NEW = 301, 302  # the died worker's server id, and its replacement's
NAMED = "run-a1b2:1"  # both: worker 1 of the same parent's run
RUN = "host-a/4242"  # this node's parent's run


@asynccontextmanager
async def a_node(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[Node]:
    """Worker 0 of the parent's run RUN: its node, in-process, its bus not opened, what
    it hears handed to it."""
    config = make_config(tmp_path / "here.sqlite3")
    store = open_store(config.db)
    try:
        yield Node(Lobby(config, store, nursery, rule_book()), WorkerPlace(0, 2, RUN), 111)
    finally:
        store.close()


async def test_a_replaced_workers_late_word_does_not_forget_its_replacement(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    async with a_node(nursery, tmp_path) as node:
        node.hear({"k": "hello", "w": DEAD, "as": NAMED})
        node.hear({"k": "hello", "w": NEW, "as": NAMED})
        assert set(node.heard) == {NEW}  # the dead one forgotten at once
        # a word of the dead one's heard after (it named itself as in every 'tables')
        node.hear({"k": "tables", "w": DEAD, "as": NAMED, "open": [], "gone": []})
        assert set(node.heard) == {NEW}, "the replacement was taken for replaced"
        assert node.identities == {NEW: NAMED}


async def test_a_worker_that_says_bye_is_forgotten_with_its_name(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    async with a_node(nursery, tmp_path) as node:
        for server in range(400, 410):  # ten workers started and stopped, one by one
            node.hear({"k": "hello", "w": server, "as": f"run-{server}:1"})
            node.hear({"k": "bye", "w": server})
        assert node.heard == {} and node.identities == {}


async def test_the_web_face_waits_for_its_own_servers_drain_not_another_hosts(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    # a review: two hosts drained at once each waited for the other's worker 0, which
    # drained too: neither stopped
    async with a_node(nursery, tmp_path) as node:
        node.hear({"k": "hello", "w": 501, "as": f"{RUN}/1"})  # this server's worker 1
        node.hear({"k": "hello", "w": 601, "as": "host-b/77/0"})  # another host's
        began = trio.current_time()
        await trio.sleep(0.01)
        drain = {"k": "tables", "open": [], "gone": [], "drain": True}
        node.hear(drain | {"w": 601, "as": "host-b/77/0"})
        assert node.others_may_drain(began)  # worker 1 has said nothing since
        node.hear({"k": "tables", "w": 501, "as": f"{RUN}/1", "open": [], "gone": []})
        assert not node.others_may_drain(began)  # host-b's drain is its own
        node.hear(drain | {"w": 501, "as": f"{RUN}/1"})
        assert node.others_may_drain(began)
