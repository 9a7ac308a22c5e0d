"""Many finished matches' deals read in one query (Store.matches_records): a ladder run
on one machine counted the clock's calls (ladder/clock_calls.py) with a query a match,
thousands of round trips to a PostgreSQL --db while Ctrl-C was held; a distributed
run's count reads its deals in one (ladder/distributed.py: RUN_RECORDS)."""

from __future__ import annotations

from deberc_net.server.store import open_store

from .records import deal, finish

# more matches than SQLite takes parameters in one statement (32,766): the list is one
MANY = 40_000


def test_matches_records_are_each_matchs_as_match_records_gives_it(store_db: str) -> None:
    store = open_store(store_db)
    try:
        for match, deals in (("m1", (2, 1)), ("m2", (1,)), ("m3", (1, 2, 3)), ("m4", (1,))):
            for deal_no in deals:
                store.add_deal(deal(match, deal_no))
        for match in ("m1", "m2", "m3"):
            finish(store, match, ["ann", "Бо"], seeds={1: "s/1", 2: "s/2", 3: "s/3"})
        asked = ["m3", "m1", "m4", "m9", *(f"x{n}" for n in range(MANY))]  # m4 runs on
        found = store.matches_records(asked)
        assert found == {m: store.match_records(m) for m in ("m1", "m3")}  # in deal order
        assert [len(found[m]) for m in ("m1", "m3")] == [2, 3]
        assert store.matches_records([]) == {}
    finally:
        store.close()
