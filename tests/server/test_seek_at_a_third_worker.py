"""``serve --workers``, three workers or more (two hosts' on one database): a seek of a
player here waiting at another worker stays his there when a third worker is lost. A
node in-process, what it hears handed to it (docs/scaling.md, "Seeks across workers")."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import trio

from deberc_net.server.cluster import WorkerPlace
from deberc_net.server.cluster.bus import channel
from deberc_net.server.cluster.node import Node
from deberc_net.server.lobby import Lobby
from deberc_net.server.matchmaking import GameSettings
from deberc_net.server.session import Outbox, Session
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

from .conftest import make_config

HERE, THERE, THIRD = 111, 101, 102  # server ids: seeks flow to a smaller one
GAME = GameSettings(2, "moscow", ())


@pytest.mark.timeout(30)
async def test_a_seek_waiting_at_another_worker_outlives_a_third_workers_loss(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """dora's seek waits at THERE; THIRD is lost (silent past server_dead_ms). Before, her
    worker forgot every seek waiting elsewhere at any loss: her seek still waited at
    THERE, though her 'unseek' here was refused as one who waits for nothing and was
    never sent there. THERE's own loss puts her back in line here, as ever."""
    config = make_config(tmp_path / "here.sqlite3")
    store = open_store(config.db)
    try:
        node = Node(Lobby(config, store, nursery, rule_book()), WorkerPlace(0, 2), HERE)
        lobby = node.lobby
        lobby.node = node
        dora = Session(7, Outbox(1 << 16), trio.CancelScope())
        dora.name, dora.seeking = "dora", GAME
        lobby.matchmaking.seekers.append(dora)
        node.hear({"k": "seeks", "w": THERE, "part": 0, "seeks": [[2, "moscow", [], False]]})
        node.hear({"k": "seeks", "w": THIRD, "part": 0, "seeks": []})
        node.waiting_since[dora.id] = -math.inf  # (past her seek's patience here)
        node.match_seeks()
        assert node.seeks_elsewhere(dora) and dora not in lobby.matchmaking.seekers
        assert [m["k"] for to, m in node.bus.waiting() if to == channel(THERE)] == ["seek"]
        now = trio.current_time()
        node.heard[THIRD] = now - 2 * config.server_dead_ms / 1000
        node.forget_the_silent(now)
        assert THIRD not in node.heard and THERE in node.heard
        assert node.seeks_elsewhere(dora)  # (forgotten, before)
        node.heard[THERE] = now - 2 * config.server_dead_ms / 1000
        node.forget_the_silent(now)
        assert not node.seeks_elsewhere(dora) and dora in lobby.matchmaking.seekers
    finally:
        store.close()
