"""A table works out its plugins' Russian words for calls once, and tells them with
its events, asks and hints (protocol/lang.py ``table_words``; the rendering:
tests/protocol/test_table_words.py)."""

from __future__ import annotations

from pathlib import Path

import trio

from deberc_net.game import calls as C
from deberc_net.protocol.lang import NO_WORDS
from deberc_net.server.lobby import Lobby
from deberc_net.server.matchmaking import game_settings
from deberc_net.server.store import open_store
from deberc_net.testing import rule_book

from .conftest import make_config


async def test_a_tertz_table_has_its_words_and_a_deberts_table_none(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    config = make_config(tmp_path / "w.sqlite3")
    store = open_store(config.db)
    try:
        lobby = Lobby(config, store, nursery, rule_book())
        tertz = lobby.open_table(game_settings(("tertz",), lobby.rules))
        deberts = lobby.open_table(game_settings((), lobby.rules))
        assert (tertz.words[C.BELLA], tertz.words[C.ROST]) == ("марьяж", "от чего?")
        assert deberts.words is NO_WORDS
    finally:
        store.close()
