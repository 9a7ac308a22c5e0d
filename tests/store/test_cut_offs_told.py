"""A cut-off match's notice told once (server/cut_off.py), kept alike by SQLite and
PostgreSQL: once for a name however it is written, whichever store of the database is
asked (a restart, another worker), each match and name apart; old asks forgotten."""

from __future__ import annotations

from deberc_net.server.store import open_store
from deberc_net.server.store.base import CUT_OFF_TOLD_KEPT_S

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
