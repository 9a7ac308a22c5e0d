"""A match cut off by its server's loss (``reason=server-lost``) is told in one wording,
in either language: live, to a player connected then (``info closed=T text=Table T
closes: its server was lost``, cluster/node.py, login.py), and at a later login
(``info cut_off=M … text=…``, server/cut_off.py). In Russian the two said «его сервер
не отвечает» and «её сервер был потерян». The live path end to end, in Russian:
tests/store/test_workers_stall_then_killed.py; in English:
tests/store/test_workers_cut_off_told_once.py."""

from __future__ import annotations

import datetime
from typing import Any

import attrs
import pytest

from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import Lang
from deberc_net.protocol.messages import Msg, phrase
from deberc_net.server.cut_off import CutOff
from deberc_net.server.store_writer import StoreWriter

from .cut_off_player import Player

NOW = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")


@attrs.define
class ListedLost:
    """A store whose one recent game of the player is m7, listed server-lost just now."""

    def recent_games(self, name: str, limit: int) -> list[dict[str, Any]]:
        return [{"match": "m7", "table": 3, "reason": "server-lost", "finished": NOW}]

    def tell_cut_off_once(self, name: str, match: str, now_s: float) -> bool:
        return True


@pytest.mark.parametrize(
    ("lang", "words"), [(Lang.EN, "its server was lost"), (Lang.RU, "его сервер потерян")]
)
async def test_a_lost_servers_cut_off_is_told_in_the_live_words_at_login(
    lang: Lang, words: str
) -> None:
    writes = StoreWriter()
    try:
        player = Player()
        await CutOff(ListedLost(), writes, {}).tell(player, "ann")  # type: ignore[arg-type]
    finally:
        writes.close()
    [told] = player.told
    assert isinstance(told, ev.Info) and told.said is not None
    assert dict(told.fields)["reason"] == "server-lost"
    live = phrase(Msg.TABLE_CLOSES, table=3, reason=phrase(Msg.SERVER_LOST)).text(lang)
    assert live.endswith(f": {words}.")
    at_login = told.said.text(lang)
    assert words in at_login and "m7" in at_login, at_login
