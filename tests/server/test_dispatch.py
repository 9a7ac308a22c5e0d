"""The lobby dispatches commands from one table that names a handler for each."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from deberc_net.protocol import commands
from deberc_net.protocol.commands import COMMANDS, CommandSpec
from deberc_net.server.lobby import Lobby
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

from .conftest import make_config


async def test_every_command_has_exactly_one_handler(db_path: Path) -> None:
    store = open_store(str(db_path), serving=True)
    try:
        async with trio.open_nursery() as nursery:
            lobby = Lobby(make_config(db_path), store, nursery, rule_book())
            assert lobby.handlers.keys() == COMMANDS.keys()
            assert lobby.handlers["seek"] == lobby.matchmaking.seek
    finally:
        store.close()


async def test_a_command_without_a_handler_stops_the_server_starting(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(commands.COMMANDS, "dance", CommandSpec("dance", "Dance.", "any"))
    store = open_store(str(db_path), serving=True)
    try:
        async with trio.open_nursery() as nursery:
            with pytest.raises(RuntimeError, match="dance"):
                Lobby(make_config(db_path), store, nursery, rule_book())
    finally:
        store.close()
