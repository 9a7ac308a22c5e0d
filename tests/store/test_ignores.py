"""The ignore lists' table (migration 17) in both dialects: a player's list kept across
stores on one database (two servers, or a restart), in the order added, whatever the
case of either name; an unignore forgets one name of his, nobody else's. A login reads
it with its ban and account (``Store.arrival``), at most the bound, the oldest."""

from __future__ import annotations

from deberc_net.server.ignoring import IGNORE_MOST
from deberc_net.server.store import open_store
from deberc_net.server.store.base import Arrival


def test_a_players_list_is_kept_in_order_and_by_name_key(store_db: str) -> None:
    first = open_store(store_db)
    try:
        first.ignore("bob", "Pest")
        first.ignore("BOB", "аня")
        first.ignore("bob", "PEST")  # the same name: nothing changes
        first.ignore("carl", "pest")
        first.ignore("bob", "zed")
        first.unignore("Bob", "ZED")
        first.unignore("bob", "nobody")  # not his: nothing
    finally:
        first.close()
    second = open_store(store_db)  # another server on the database, or a restart
    try:
        assert second.arrival("bob", IGNORE_MOST).ignored == ("Pest", "аня")
        assert second.arrival("Carl", IGNORE_MOST).ignored == ("pest",)
        assert second.arrival("dan", IGNORE_MOST).ignored == ()
    finally:
        second.close()


def test_a_logins_read_gives_the_list_with_the_ban_and_the_account(store_db: str) -> None:
    store = open_store(store_db)
    try:
        store.add_account("Vera", b"salt", b"hash")
        store.ignore("vera", "Pest")
        store.ban("VERA", "boss", "cheating")
        arrival = store.arrival("vera", IGNORE_MOST)
        assert arrival.registered and arrival.ban is not None
        assert arrival.ignored == ("Pest",)
        # not asked for (a guest's login): not read
        assert store.arrival("vera").ignored == ()
        assert store.arrival("nobody", IGNORE_MOST) == Arrival(None, spelling=None)
    finally:
        store.close()


def test_a_list_stored_past_its_bound_is_read_as_the_bound_the_oldest_kept(
    store_db: str,
) -> None:
    # two servers on one database, each letting a name in below the bound, can store
    # more than it; a login reads no more. Added in the reverse of the keys' order, so
    # the oldest are not the first by name
    store = open_store(store_db)
    try:
        names = [f"pest{n:03d}" for n in range(IGNORE_MOST + 5, 0, -1)]
        for name in names:
            store.ignore("bob", name)
        assert store.arrival("Bob", IGNORE_MOST).ignored == tuple(names[:IGNORE_MOST])
    finally:
        store.close()
