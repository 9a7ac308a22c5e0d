"""``serve --workers``: a worker whose process has ended (a SIGKILL) is known dead by
its pid, told in its 'hello' and 'tables', before the bus says so: a login's seat at
its table is no seat (docs/scaling.md, "A worker's death"). A node in-process, what it
hears handed to it, a real process killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.node import Node
from deberc_net.server.cluster.payloads import table_for_bus
from deberc_net.server.lobby import Lobby
from deberc_net.server.store import open_store
from deberc_net.server.table import Table
from deberc_net.testing import build_ruleset, rule_book

from .conftest import make_config

RUN = "host-a/4242"  # this node's parent's run
OTHER = 501  # worker 1 of the same run, its server id
TABLE = 1700  # its table, where ann sits


@asynccontextmanager
async def a_node(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[Node]:
    config = make_config(tmp_path / "here.sqlite3")
    store = open_store(config.db)
    try:
        yield Node(Lobby(config, store, nursery, rule_book()), WorkerPlace(0, 2, RUN), 111)
    finally:
        store.close()


def _dead_pid() -> int:
    """The pid of a process killed and reaped (nobody's now)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    return child.pid


def _tables(node: Node, identity: str, pid: int) -> dict[str, Any]:
    """OTHER's 'tables', telling its table where ann sits."""
    lobby = node.lobby
    table = Table(TABLE, build_ruleset(2, "moscow", ()), lobby, lobby.config, TABLE)
    table.seats = ["ann", None]
    described = table_for_bus(table, lobby.config.away_limit_ms)
    return {"k": "tables", "w": OTHER, "as": identity, "pid": pid, "open": [described], "gone": []}


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("identity", "alive", "forgotten"),
    [
        (f"{RUN}/1", False, True),  # this parent's worker, its process ended
        (f"{RUN}/1", True, False),  # ... running
        ("host-b/77/1", False, False),  # another host's: its pid is no process here
    ],
)
async def test_a_seat_at_a_dead_workers_table_is_forgotten_at_once(
    nursery: trio.Nursery, tmp_path: Path, identity: str, alive: bool, forgotten: bool
) -> None:
    pid = os.getpid() if alive else _dead_pid()
    async with a_node(nursery, tmp_path) as node:
        node.hear({"k": "hello", "w": OTHER, "as": identity, "pid": pid})
        told = _tables(node, identity, pid)
        node.hear(told)
        table = node.lobby.table_of("ann")
        assert table is not None and table.id == TABLE
        assert node.forget_if_dead(table) is forgotten
        assert (node.lobby.table_of("ann") is None) is forgotten
        assert (OTHER in node.heard) is not forgotten
        node.hear(told)  # a word of it still on the bus, read after: it stays dead
        assert (node.lobby.table_of("ann") is None) is forgotten
