"""Bans of addresses in the store (server/moderation.py, docs/protocol.md §5.19), kept
alike by SQLite and PostgreSQL: one ban a network, banned anew in place, running till
its end, lifted once, read by a login's first read for a name with no account only, and
kept by a store opened again (a restart)."""

from __future__ import annotations

import time

from deberc_net.server.store import open_store


def test_an_address_ban_runs_till_its_end_and_outlasts_a_reopening(store_db: str) -> None:
    now = time.time()
    store = open_store(store_db)
    try:
        assert store.address_bans(now) == []
        store.ban_address("203.0.113.0/24", "boss", "a troll", now + 600)
        store.ban_address("2001:db8::/64", "chief", "", now + 60)
        store.ban_address("203.0.113.0/24", "chief", "again", now + 1200)  # anew, in place
        bans = store.address_bans(now)
        assert {(b.network, b.admin, b.reason, b.until_s) for b in bans} == {
            ("203.0.113.0/24", "chief", "again", now + 1200),
            ("2001:db8::/64", "chief", "", now + 60),
        }
        assert [b.network for b in store.address_bans(now + 61)] == ["203.0.113.0/24"]
    finally:
        store.close()
    store = open_store(store_db)  # as a server restarted on the same database
    try:
        assert len(store.address_bans(now)) == 2
        assert store.unban_address("2001:db8::/64", now + 61) is False  # run out: no ban
        assert store.unban_address("203.0.113.0/24", now) is True
        assert store.unban_address("203.0.113.0/24", now) is False  # lifted once
        assert [b.network for b in store.address_bans(now)] == ["2001:db8::/64"]
    finally:
        store.close()


def test_a_logins_first_read_gives_a_new_names_address_ban_not_a_members(
    store_db: str,
) -> None:
    now = time.time()
    store = open_store(store_db)
    try:
        store.add_account("Vera", b"salt", b"hash")
        assert store.arrival("newcomer", address="203.0.113.7").address_ban is None
        store.ban_address("203.0.113.0/24", "boss", "a troll", now + 60)
        held = store.arrival("newcomer", address="203.0.113.7", now_s=now).address_ban
        assert held is not None and (held.network, held.reason) == ("203.0.113.0/24", "a troll")
        assert store.arrival("vera", address="203.0.113.7").address_ban is None  # a member
        assert store.arrival("newcomer", address="203.0.114.7").address_ban is None
        assert store.arrival("newcomer").address_ban is None  # (no address: not asked)
        # its end passed: no ban (the time a login reads at is the seam)
        assert store.arrival("newcomer", address="203.0.113.7", now_s=now + 61).address_ban is None
        store.ban_address("2001:db8::/48", "boss", "", now + 60)
        v6 = store.arrival("newcomer", address="2001:db8:0:5::/64", now_s=now).address_ban
        assert v6 is not None and v6.network == "2001:db8::/48"
        store.ban_address("198.51.100.1", "boss", "", now - 1)  # run out: cleared by a ban
        store.ban_address("198.51.100.2", "boss", "", now + 60)
        assert "198.51.100.1" not in {b.network for b in store.address_bans(now - 100)}
    finally:
        store.close()
