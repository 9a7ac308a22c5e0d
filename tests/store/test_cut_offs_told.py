"""A cut-off match's notice told once (server/cut_off.py), kept alike by SQLite and
PostgreSQL: once for a name however it is written, whichever store of the database is
asked (a restart, another worker), each match and name apart; old asks forgotten."""

from __future__ import annotations

from typing import Any

import attrs

from deberc_net.protocol import events as ev
from deberc_net.server.cut_off import CutOff
from deberc_net.server.store import Store, open_store
from deberc_net.server.store.base import CUT_OFF_TOLD_KEPT_S
from deberc_net.server.store_writer import StoreWriter

from .cut_off_player import Player
from .records import deal, opened

NOW_S = 2_000_000_000.0  # the tests' "now", seconds since the epoch


def test_a_cut_off_is_told_once_a_name_and_match_across_stores(store_db: str) -> None:
    first, second = open_store(store_db), open_store(store_db)  # two servers, or a restart
    try:
        assert first.tell_cut_off_once("Ann", "m7", NOW_S)
        assert not first.tell_cut_off_once("ann", "m7", NOW_S + 1)  # the name's key
        assert not second.tell_cut_off_once("ANN", "m7", NOW_S + 2)
        assert second.tell_cut_off_once("ann", "m8", NOW_S + 3)  # another match
        assert first.tell_cut_off_once("bob", "m7", NOW_S + 4)  # another player
    finally:
        first.close()
        second.close()


def test_an_ask_forgotten_is_asked_anew(store_db: str) -> None:
    store = open_store(store_db)
    try:
        assert store.tell_cut_off_once("ann", "m7", NOW_S)
        store.untell_cut_off("ANN", "m7")
        assert store.tell_cut_off_once("ann", "m7", NOW_S + 1)
    finally:
        store.close()


def test_asks_older_than_kept_are_forgotten(store_db: str) -> None:
    store = open_store(store_db)
    try:
        assert store.tell_cut_off_once("ann", "m7", NOW_S)
        later = NOW_S + CUT_OFF_TOLD_KEPT_S + 1
        assert store.tell_cut_off_once("bob", "m9", later)  # clears what is old
        # (a match that old is no news: cut_off.py asks only within a day of its stop)
        assert store.tell_cut_off_once("ann", "m7", later)
    finally:
        store.close()


@attrs.define
class LeavesWhileWritten:
    """The store, the player's connection closing while his 'told' waited its turn in
    the store writer's queue (behind the deals queued before it)."""

    store: Store
    player: Player

    def recent_games(self, name: str, limit: int) -> list[dict[str, Any]]:
        return self.store.recent_games(name, limit)

    def tell_cut_off_once(self, name: str, match: str, now_s: float) -> bool:
        self.player.closed = True
        return self.store.tell_cut_off_once(name, match, now_s)

    def untell_cut_off(self, name: str, match: str) -> None:
        self.store.untell_cut_off(name, match)


async def test_a_notice_whose_player_left_while_it_was_written_is_told_at_his_next_login(
    store_db: str,
) -> None:
    # a review: the store kept 'told' though the connection had closed meanwhile, and
    # no later login on any server was told
    stopped = opened(store_db, serving=True)
    stopped.add_deal(deal("m1", 1))
    stopped.close()  # a stop cut m1 off: listed 'shutdown'
    store = open_store(store_db)
    writes = StoreWriter()
    try:
        gone = Player()
        await CutOff(LeavesWhileWritten(store, gone), writes, {}).tell(gone, "ann")  # type: ignore[arg-type]
        assert gone.told == []
        back = Player()
        await CutOff(store, writes, {}).tell(back, "ann")  # type: ignore[arg-type]
        [said] = back.told
        assert isinstance(said, ev.Info) and "m1 at table 3, was cut off" in said.text
    finally:
        writes.close()
        store.close()


@attrs.define
class ReturnsWhileWritten(LeavesWhileWritten):
    """... and his new connection's login asking, just after this one's 'told' was
    written: it finds the notice told."""

    def tell_cut_off_once(self, name: str, match: str, now_s: float) -> bool:
        told = super().tell_cut_off_once(name, match, now_s)
        assert not self.store.tell_cut_off_once(name, match, now_s)  # the new one's ask
        return told


async def test_a_notice_whose_player_came_back_while_it_was_written_is_told_there(
    store_db: str,
) -> None:
    # a review: a quick reconnect's own ask found the notice told (to the closing
    # connection, which then gave it back for a next login), and the new connection
    # was told nothing
    stopped = opened(store_db, serving=True)
    stopped.add_deal(deal("m1", 1))
    stopped.close()
    store = open_store(store_db)
    writes = StoreWriter()
    try:
        gone, back = Player(), Player()
        online = {"ann": back}  # his new connection, logged in meanwhile
        cut_off = CutOff(ReturnsWhileWritten(store, gone), writes, online)  # type: ignore[arg-type]
        await cut_off.tell(gone, "Ann")  # type: ignore[arg-type]
        assert gone.told == []
        [said] = back.told
        assert isinstance(said, ev.Info) and "m1 at table 3, was cut off" in said.text
        await CutOff(store, writes, online).tell(back, "ann")  # type: ignore[arg-type]
        assert len(back.told) == 1  # once
    finally:
        writes.close()
        store.close()
