"""A ladder run's matches' deals read back from those stored after its start alone
(Store.last_deal, matches_records' ``after``): a ``--server`` run's matches are numbered
by that server, and its ``--db`` may hold an earlier run's of the same numbers, with the
same ``--seed`` of the same boards; their clock's calls were counted as the run's."""

from __future__ import annotations

from deberc_net.server.store import open_store

from .records import deal, finish

SEEDS = {1: "s/board0/1", 2: "s/board0/2"}


def test_only_the_deals_stored_after_a_mark_are_read(store_db: str) -> None:
    store = open_store(store_db)
    try:
        assert store.last_deal() == 0  # none stored yet
        for match in ("m1", "m2"):  # an earlier run's
            store.add_deal(deal(match, 1))
            finish(store, match, ["ann", "Бо"], seeds=SEEDS)
        earlier = store.matches_records(["m1", "m2"])
        mark = store.last_deal()
        assert mark > 0
        store.add_deal(deal("m3", 1))  # stored after the mark: the run's own
        store.add_deal(deal("m3", 2))
        finish(store, "m3", ["ann", "Бо"], seeds=SEEDS)
        assert store.last_deal() > mark
        asked = ["m1", "m2", "m3"]
        assert store.matches_records(asked, mark) == {"m3": store.match_records("m3")}
        assert store.matches_records(asked) == {**earlier, "m3": store.match_records("m3")}
    finally:
        store.close()
