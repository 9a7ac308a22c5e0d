"""Bans in the store (server/moderation.py, docs/protocol.md §5.19), kept alike by SQLite
and PostgreSQL: one ban a name however it is written, banned anew in place, lifted once,
and kept by a store opened again (a restart)."""

from __future__ import annotations

import re

from deberc_net.server.store import open_store
from deberc_net.server.store.base import Arrival

SINCE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def test_a_ban_is_one_a_name_however_written_and_outlasts_a_reopening(store_db: str) -> None:
    store = open_store(store_db)
    try:
        assert store.ban_of("troll") is None and store.bans() == []
        store.ban("Troll", "boss", "spam in the lobby")
        store.ban("Гость-1", "chief", "")
        ban = store.ban_of("TROLL")
        assert ban is not None
        assert (ban.name, ban.admin, ban.reason) == ("Troll", "boss", "spam in the lobby")
        assert SINCE.fullmatch(ban.since), ban.since
        store.ban("troll", "chief", "again")  # banned anew: the one row, its new reason
        assert {(b.name, b.admin, b.reason) for b in store.bans()} == {
            ("troll", "chief", "again"),
            ("Гость-1", "chief", ""),
        }
    finally:
        store.close()
    store = open_store(store_db)  # as a server restarted on the same database
    try:
        assert {b.name for b in store.bans()} == {"troll", "Гость-1"}
        assert store.unban("TROLL") is True
        assert store.unban("troll") is False  # lifted once
        assert store.ban_of("troll") is None
        assert [b.name for b in store.bans()] == ["Гость-1"]
    finally:
        store.close()


def test_a_logins_first_read_gives_the_ban_and_the_account_together(store_db: str) -> None:
    store = open_store(store_db)
    try:
        assert store.arrival("vera") == Arrival(None, spelling=None)
        store.add_account("Vera", b"salt", b"hash")
        assert store.arrival("VERA") == Arrival(None, spelling="Vera")  # the account's
        store.ban("vera", "boss", "cheating")
        arrival = store.arrival("Vera")
        assert arrival.registered and arrival.ban is not None
        assert (arrival.ban.name, arrival.ban.admin, arrival.ban.reason) == (
            "vera",
            "boss",
            "cheating",
        )
        store.ban("Гость-1", "boss", "")  # a guest's name: banned, with no account
        guest = store.arrival("гость-1")
        assert not guest.registered and guest.ban is not None and guest.ban.name == "Гость-1"
    finally:
        store.close()
