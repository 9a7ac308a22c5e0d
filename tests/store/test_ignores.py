"""The ignore lists' table (migration 17) in both dialects: a player's list kept across
stores on one database (two servers, or a restart), in the order added, whatever the
case of either name; an unignore forgets one name of his, nobody else's."""

from __future__ import annotations

from deberc_net.server.store import open_store


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
        assert second.ignored_by("bob") == ["Pest", "аня"]
        assert second.ignored_by("Carl") == ["pest"]
        assert second.ignored_by("dan") == []
    finally:
        second.close()
