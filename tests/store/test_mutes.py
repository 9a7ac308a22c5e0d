"""Mutes in the store (server/moderation.py, docs/protocol.md §5.19), kept alike by
SQLite and PostgreSQL: one mute a name however it is written, muted anew in place, ended
once (who lifted it kept), only those still running listed, and kept by a store opened
again (a restart)."""

from __future__ import annotations

import time

from deberc_net.server.store import open_store
from deberc_net.server.store.base import StoredMute

NOW_S = 2_000_000_000.0  # the tests' "now", seconds since the epoch


def test_a_mute_is_one_a_name_and_only_those_running_are_listed(store_db: str) -> None:
    store = open_store(store_db)
    try:
        assert store.mutes(NOW_S) == []
        store.mute("Troll", "boss", "calling names", NOW_S + 600)
        store.mute("Гость-1", "chief", "", NOW_S + 60)
        store.mute("old", "boss", "", NOW_S - 1)  # run out already
        assert store.mutes(NOW_S) == [
            StoredMute("Гость-1", "chief", "", NOW_S + 60),
            StoredMute("Troll", "boss", "calling names", NOW_S + 600),
        ]
        store.mute("TROLL", "chief", "again", NOW_S + 30)  # anew: the one row, shorter
        assert [(m.name, m.admin, m.reason) for m in store.mutes(NOW_S)] == [
            ("TROLL", "chief", "again"),
            ("Гость-1", "chief", ""),
        ]
        assert store.mutes(NOW_S + 60) == []  # both run out by then
    finally:
        store.close()
    store = open_store(store_db)  # as a server restarted on the same database
    try:
        assert {m.name for m in store.mutes(NOW_S)} == {"TROLL", "Гость-1"}
        assert store.unmute("troll", "boss") is True
        assert store.unmute("Troll", "chief") is False  # ended once
        assert [m.name for m in store.mutes(NOW_S)] == ["Гость-1"]
        # a lifted mute is kept, with who lifted it, till it would have run out: the
        # other servers' look tells its player his name
        assert store.mutes_with_lifts(NOW_S) == [
            StoredMute("TROLL", "chief", "again", NOW_S + 30, lifted_by="boss"),
            StoredMute("Гость-1", "chief", "", NOW_S + 60),
        ]
        assert store.mutes_with_lifts(NOW_S + 30) == [store.mutes(NOW_S)[0]]
        store.mute("troll", "chief", "", NOW_S + 90)  # muted anew: running again
        assert [(m.name, m.lifted_by) for m in store.mutes(NOW_S)] == [
            ("Гость-1", None),
            ("troll", None),
        ]
    finally:
        store.close()


def test_a_mute_run_out_is_no_mute_to_lift(store_db: str) -> None:
    """Its row stays till the next mute clears the run-out ones: 'unmute' found it and
    said 'NAME may talk again' (and told the other servers) where a mute that ran out
    is none, 'NAME is not muted', as 'mutes' lists it."""
    store = open_store(store_db)
    try:
        ended = time.time() - 1
        store.mute("troll", "boss", "", ended)  # (written after the clean-up: it stays)
        assert store.unmute("troll", "chief") is False
        assert store.mutes_with_lifts(ended - 60) == [StoredMute("troll", "boss", "", ended)]
        store.mute("troll", "boss", "", time.time() + 600)  # one running is lifted
        assert store.unmute("troll", "chief") is True
    finally:
        store.close()
