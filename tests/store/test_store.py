"""The store's promises, kept alike by SQLite and PostgreSQL (each test runs on both)."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from deberc_net.server.store import Store, StoreError, describe, is_postgres, open_store
from deberc_net.server.store.base import board_finishes
from deberc_net.server.store.migrations import MIGRATIONS, Migration
from deberc_net.server.store.postgres import PostgresStore
from deberc_net.server.store.sqlite import SQLiteStore

from .records import deal, exported, finish, opened, raw
from .stalls import a_boards_seating_kept_after_a_stall, silence

T = TypeVar("T")


@pytest.fixture
def store(store_db: str) -> Iterator[Store]:
    store = open_store(store_db)
    yield store
    store.close()


LATEST = len(MIGRATIONS)
EXTRA = Migration(
    LATEST + 1,
    "a later table",
    sqlite="CREATE TABLE extra (x INTEGER)",
    postgres="CREATE TABLE extra (x INTEGER)",
)


def test_one_account_per_name_however_written(store: Store) -> None:
    assert store.account("Аня") is None
    assert store.add_account("Аня", b"salt", b"hash")
    assert not store.add_account("АНЯ", b"other", b"other")  # taken: nothing changes
    assert store.account("аня") == (b"salt", b"hash")
    assert store.account_name("аНЯ") == "Аня"  # as registered: its logins' spelling
    assert store.account("ＡＮＹＡ") is None  # another name
    store.forget_account("аня")
    assert store.account("Аня") is None and store.account_name("Аня") is None
    assert store.add_account("АНЯ", b"s2", b"h2")
    assert store.account("аня") == (b"s2", b"h2")
    assert store.account_name("аня") == "АНЯ"


def test_an_accounts_secret_changes_in_place_keeping_its_name(store: Store) -> None:
    """'password OLD NEW' (docs/protocol.md §5.20): one statement, the name as it was
    registered; no account, no change."""
    assert not store.set_account_secret("Вера", b"s", b"h")
    assert store.account("вера") is None
    assert store.add_account("Вера", b"salt", b"hash")
    assert store.set_account_secret("ВЕРА", b"s2", b"h2")
    assert store.account("вера") == (b"s2", b"h2")
    assert store.account_name("вера") == "Вера"


def test_a_running_matchs_deals_are_withheld_and_seedless(store: Store) -> None:
    store.add_deal(deal("m1", 1))
    store.add_deal(deal("m1", 2))
    assert exported(store) == []
    finish(store, "m1", ["ann", "Бо"], "ann", seeds={1: "s/1", 2: "s/2"})
    records = exported(store)
    assert [(r["match"], r["deal_no"], r["seed"]) for r in records] == [
        ("m1", 1, "s/1"),
        ("m1", 2, "s/2"),
    ]
    assert records[0]["players"] == ["ann", "Бо"]  # the rest as given, non-ASCII kept


def test_records_leave_running_matches_out(store: Store) -> None:
    store.add_deal(deal("m1", 1))
    store.add_deal(deal("m2", 1))
    finish(store, "m2", ["ann", "Бо"], seeds={1: "x/1"})
    store.add_deal(deal("m1", 2))
    assert [(r["match"], r["deal_no"]) for r in exported(store)] == [("m2", 1)]


def test_one_matchs_records_in_deal_order_once_it_is_finished(store: Store) -> None:
    store.add_deal(deal("m1", 2))  # stored out of order: read back in deal order
    store.add_deal(deal("m2", 1))
    store.add_deal(deal("m1", 1))
    assert store.match_records("m1") == []  # running: withheld
    finish(store, "m1", ["ann", "Бо"], seeds={1: "s/1", 2: "s/2"})
    found = [json.loads(body) for body in store.match_records("m1")]
    assert [(r["match"], r["deal_no"], r["seed"]) for r in found] == [
        ("m1", 1, "s/1"),
        ("m1", 2, "s/2"),
    ]
    assert store.match_records("m2") == [] and store.match_records("m9") == []


def test_stored_deals_never_hold_the_seed_of_a_running_match(store_db: str) -> None:
    store = open_store(store_db)
    try:
        store.add_deal(deal("m1", 1))
    finally:
        store.close()
    raw = raw_deals(store_db)
    assert len(raw) == 1 and "secret" not in raw[0]


def test_a_serving_open_ends_the_matches_an_earlier_run_left_running(store_db: str) -> None:
    store = open_store(store_db)
    store.add_deal(deal("m4", 1))
    store.close()
    store = open_store(store_db)  # not serving: still running
    assert exported(store) == []
    store.close()
    store = open_store(store_db, serving=True)
    try:
        (record,) = exported(store)
        assert record["match"] == "m4" and record["seed"] is None
        assert store.max_match_number() == 4
    finally:
        store.close()


def _drawn_at_once(store_db: str, draw: Callable[[Store], T]) -> list[T]:
    """What ``draw`` gives in each of two stores on one database (two servers), run at
    once in two threads."""
    stores = [open_store(store_db, serving=True) for _ in range(2)]
    drawn: list[T] = []
    start = threading.Barrier(2)

    def run(i: int) -> None:
        start.wait()
        drawn.append(draw(stores[i]))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        for store in stores:
            store.close()
    assert len(drawn) == 2
    return drawn


def test_match_numbers_drawn_at_once_by_two_stores_never_repeat(store_db: str) -> None:
    """Two servers on one database (two stores, threads drawing at once): every number
    is handed out once, and one store's numbers go up."""
    drawn = _drawn_at_once(store_db, lambda store: [store.new_match_number() for _ in range(25)])
    every = drawn[0] + drawn[1]
    assert len(every) == 50 and sorted(every) == list(range(1, 51))
    assert all(d == sorted(d) for d in drawn)


def test_match_number_blocks_drawn_at_once_by_two_stores_never_repeat_nor_after_a_restart(
    store_db: str,
) -> None:
    """Two servers on one database draw their match numbers in blocks (server/lobby.py),
    at once: every number once, each block ascending; a store opened again (a restart)
    draws above them all, the numbers not used skipped."""
    drawn = _drawn_at_once(store_db, lambda store: [store.new_match_numbers(16) for _ in range(5)])
    blocks = drawn[0] + drawn[1]
    assert len(blocks) == 10 and all(b == sorted(b) and len(b) == 16 for b in blocks)
    assert sorted(n for b in blocks for n in b) == list(range(1, 161))
    again = open_store(store_db, serving=True)
    try:
        assert again.new_match_numbers(2) == [161, 162]
    finally:
        again.close()


def test_table_numbers_drawn_by_two_stores_never_repeat(store_db: str) -> None:
    """The workers of serve --workers (two stores here, drawing in turn) number their
    tables from the store: every number once, each draw ascending."""
    stores = [open_store(store_db, serving=True) for _ in range(2)]
    try:
        drawn = [stores[i % 2].new_table_numbers(3) for i in range(4)]
        assert all(d == sorted(d) and len(d) == 3 for d in drawn)
        assert sorted(n for d in drawn for n in d) == list(range(1, 13))
    finally:
        for store in stores:
            store.close()


def _a_match_at_table(db: str, match: str, table: int) -> None:
    raw_execute(
        db,
        "INSERT INTO matches (id, table_id, players, variant, options, reason, totals)"
        f" VALUES ('{match}', {table}, '[]', 'moscow', '[]', 'score', '[]')",
    )


def test_table_numbers_start_above_every_table_an_upgraded_database_holds(
    new_store_db: str,
) -> None:
    """A database from before tables were numbered by the store (0.1.0's, tables up to
    36): its first table after the upgrade was table 1 again, and `matches` held m1,
    m11 and m47 all at table 1 (an operator's tryout). Numbers start above every table
    stored, and above any that old code wrote after the upgrade; never go back.
    Failed before: [1, 2, 3]."""
    opened(new_store_db, migrations=MIGRATIONS[:5]).close()  # the schema before numbers
    _a_match_at_table(new_store_db, "m1", 36)
    _a_match_at_table(new_store_db, "m2", 7)
    store = open_store(new_store_db, serving=True)
    try:
        assert store.new_table_numbers(3) == [37, 38, 39]
    finally:
        store.close()
    _a_match_at_table(new_store_db, "m3", 50)  # 0.1.0's server, run on the new schema
    store = open_store(new_store_db, serving=True)
    try:
        assert store.new_table_numbers(2) == [51, 52]
    finally:
        store.close()
    store = open_store(new_store_db, serving=True)  # above them all already: as it is
    try:
        assert store.new_table_numbers(1) == [53]
    finally:
        store.close()


def test_match_numbers_start_above_those_old_code_wrote_after_the_upgrade(
    new_store_db: str,
) -> None:
    """0.1.0's server run on an upgraded database (an operator's tryout did) numbers its
    matches past the highest stored, as it always did, behind the store's counter: the
    next server drew those numbers again, and its match would be written over the old
    one's row and deals. Failed before: 3, the counter's next."""
    store = open_store(new_store_db, serving=True)
    try:
        assert store.new_match_numbers(2) == [1, 2]
    finally:
        store.close()
    _a_match_at_table(new_store_db, "m40", 1)  # 0.1.0's, after the upgrade
    _a_match_at_table(new_store_db, "ladder-x", 1)  # (not a server's number)
    store = open_store(new_store_db, serving=True)
    try:
        assert store.new_match_number() == 41
    finally:
        store.close()


def test_servers_starting_at_once_on_an_upgraded_database_draw_tables_apart(
    new_store_db: str,
) -> None:
    """Two servers' first draws at once, each moving the counter past the tables stored:
    every number once, above them (PostgreSQL's may skip: each may draw the numbers
    between)."""
    opened(new_store_db, migrations=MIGRATIONS[:5]).close()
    _a_match_at_table(new_store_db, "m1", 36)
    opened(new_store_db).close()
    drawn = _drawn_at_once(new_store_db, lambda s: [s.new_table_numbers(8) for _ in range(3)])
    every = [n for blocks in drawn for block in blocks for n in block]
    assert len(set(every)) == 48 and min(every) > 36


def test_match_numbers_go_on_after_those_stored_before_the_store_drew_them(
    new_store_db: str,
) -> None:
    opened(new_store_db, migrations=MIGRATIONS[:3]).close()  # before numbers were drawn
    raw_execute(
        new_store_db, "INSERT INTO deals (match_id, deal_no, record) VALUES ('m12', 1, '{}')"
    )
    for match in ("m7", "ladder-x", "m3x"):  # the last two: not a server's number
        raw_execute(
            new_store_db,
            "INSERT INTO matches (id, table_id, players, variant, options, reason, totals)"
            f" VALUES ('{match}', 1, '[]', 'moscow', '[]', 'score', '[]')",
        )
    store = open_store(new_store_db)
    try:
        assert [store.new_match_number() for _ in range(2)] == [13, 14]
    finally:
        store.close()


def test_a_server_ends_only_its_own_matches_and_those_of_dead_servers(store_db: str) -> None:
    first = open_store(store_db, serving=True)
    second = open_store(store_db, serving=True)
    assert first.server_id is not None and second.server_id is not None
    assert first.server_id != second.server_id
    first.add_deal(deal("m1", 1))
    second.add_deal(deal("m2", 1))
    third = open_store(store_db, serving=True)  # a server starting: both are alive
    try:
        assert exported(third) == []
        first.close()  # a server stopping ends its own running match, only its own
        assert [r["match"] for r in exported(third)] == ["m1"]
        # listed, as a dead server's is (docs/scaling.md), stopped by the shutdown
        (stopped,) = third.recent_games("ann")
        assert (stopped["match"], stopped["winner"], stopped["reason"]) == ("m1", None, "shutdown")
        assert stopped["totals"] == [10, 20] and third.finished_match("m1") is not None
        assert third.heartbeat(30.0) == 0  # the second is alive: nothing ended
        silence(store_db, second.server_id)  # the second stops beating (a crash)
        second.add_deal(deal("m2", 2))
        assert third.heartbeat(30.0) == 1
        assert sorted(r["match"] for r in exported(third)) == ["m1", "m2", "m2"]
        # the dead server's match is listed, lost: no winner, the totals of its last deal
        lost, _ = third.recent_games("Бо")
        assert (lost["match"], lost["winner"], lost["reason"]) == ("m2", None, "server-lost")
        assert (lost["totals"], lost["players"]) == ([20, 40], ["ann", "Бо"])
        assert third.heartbeat(30.0) == 0 and len(third.recent_games("ann")) == 2
        assert all(r["seed"] is None for r in exported(third))  # seedless for good
        assert second.heartbeat(30.0) == 0  # back from a stall: it beats on, as itself
        second.add_deal(deal("m3", 1))
        assert third.heartbeat(30.0) == 0 and len(exported(third)) == 3
    finally:
        second.close()
        third.close()


def test_a_match_of_a_server_thought_dead_is_withheld_again_once_it_beats(store_db: str) -> None:
    """A running match's ``running`` row is written at its first deal only: its server
    writes it again after a heartbeat finds it was thought dead (its rows ended)."""
    first = open_store(store_db, serving=True)
    second = open_store(store_db, serving=True)
    assert first.server_id is not None
    try:
        first.add_deal(deal("m1", 1))
        first.add_deal(deal("m1", 2))
        first.add_deal(deal("m2", 1))
        assert exported(second) == []
        silence(store_db, first.server_id)
        assert second.heartbeat(30.0) == 2  # both ended, listed as lost, exported
        assert len(exported(second)) == 3
        assert first.heartbeat(30.0) == 0  # back from a stall: its matches play on
        first.add_deal(deal("m1", 3))  # withheld again, the deals before it too
        assert [r["match"] for r in exported(second)] == ["m2"]
        finish(first, "m1", ["ann", "Бо"], "ann", {1: "s/1", 2: "s/2", 3: "s/3"})
        assert [(r["match"], r["seed"]) for r in exported(second)] == [
            ("m1", "s/1"), ("m1", "s/2"), ("m2", None), ("m1", "s/3"),
        ]  # fmt: skip
        first.add_deal(deal("m1", 4))  # (a finished match's id played on: withheld again)
        assert [r["match"] for r in exported(second)] == ["m2"]
    finally:
        first.close()
        second.close()


def test_a_ladder_boards_matches_stay_withheld_through_any_stop_until_its_release(
    store_db: str,
) -> None:
    """A board's deck is played again in its other seatings (docs/protocol.md §5.5a): a
    server's stop or death must not list its board matches (their decks readable) nor
    lose a finished seating's result before the board's release (docs/scaling.md)."""
    first = open_store(store_db, serving=True)
    first.add_deal(deal("m1", 1), board="k1")  # a seating still running at the stop
    first.add_deal(deal("m2", 1), board="k1")  # a seating over, its board unreleased
    first.finish_match(
        "m2", 3, ["ann", "Бо"], "moscow", [], "ann", "deals", [162, 0], {1: "s/1"}, board="k1"
    )
    first.add_deal(deal("m3", 1))  # a plain match: listed at the stop as ever
    first.close()  # a clean stop
    second = open_store(store_db, serving=True)
    dying = open_store(store_db, serving=True)
    try:
        assert [r["match"] for r in exported(second)] == ["m3"]
        assert [g["match"] for g in second.recent_games("ann")] == ["m3"]
        assert second.match_records("m2") == [] and second.finished_match("m2") is None
        assert dying.server_id is not None
        dying.add_deal(deal("m4", 1), board="k2")  # its server dies (--workers' worker)
        silence(store_db, dying.server_id)
        assert second.heartbeat(30.0) == 0  # no plain match ended
        assert [r["match"] for r in exported(second)] == ["m3"]
        assert second.release_board("k9") == 0  # another board: nothing
        assert second.release_board("k1") == 2
        released = {r["match"]: r for r in exported(second)}
        assert sorted(released) == ["m1", "m2", "m3"]
        assert released["m2"]["seed"] == "s/1" and released["m1"]["seed"] is None
        games = {g["match"]: g for g in second.recent_games("ann")}
        assert (games["m2"]["winner"], games["m2"]["reason"]) == ("ann", "deals")
        assert (games["m1"]["winner"], games["m1"]["reason"]) == (None, "shutdown")
        assert games["m1"]["totals"] == [10, 20]
        assert second.release_board("k1") == 0  # once
        assert second.release_board("k2") == 1
        finished = second.finished_match("m4")
        assert finished is not None and finished["reason"] == "server-lost"
    finally:
        second.close()
        dying.close()


def test_a_boards_seating_still_running_at_its_release_is_not_withheld_for_ever(
    store_db: str,
) -> None:
    """Released, a board's deck is public: a seating of it not over then (a 'ladder
    worker' killed holding it, not yet found dead when another worker, its lease run
    out, played the board again and released it; a server stalled past its lease; a
    seating on another worker whose end is still queued) ends as a plain match would.
    Failed before: each was kept withheld for a release that had already come, for
    good (docs/bots.md: a records export has the dead attempt's deals)."""
    killed = open_store(store_db, serving=True)
    stalled = open_store(store_db, serving=True)
    live = open_store(store_db, serving=True)
    try:
        assert killed.server_id is not None and stalled.server_id is not None
        killed.add_deal(deal("m1", 1), board="k1")  # killed: silent, not yet found dead
        stalled.add_deal(deal("m2", 1), board="k2")
        live.add_deal(deal("m3", 1), board="k3")  # its end still queued at the release
        silence(store_db, stalled.server_id)
        assert live.heartbeat(30.0) == 0  # the stalled one's m2 kept, as cut off
        assert [live.release_board(k) for k in ("k1", "k2", "k3")] == [0, 1, 0]
        finished = live.finished_match("m2")
        assert finished is not None and finished["reason"] == "server-lost"
        stalled.add_deal(deal("m2", 2), board="k2")  # back: it plays on, and ends it
        stalled.finish_match(
            "m2", 3, ["ann", "Бо"], "moscow", [], "ann", "deals", [9, 0], {1: "s"}, board="k2"
        )
        live.finish_match(
            "m3", 3, ["ann", "Бо"], "moscow", [], "Бо", "deals", [0, 9], {1: "s"}, board="k3"
        )
        silence(store_db, killed.server_id)
        assert live.heartbeat(30.0) == 1  # the killed one's m1: listed as a plain match
        games = {g["match"]: g for g in live.recent_games("ann")}
        assert {m: (g["winner"], g["reason"]) for m, g in games.items()} == {
            "m1": (None, "server-lost"),
            "m2": ("ann", "deals"),
            "m3": ("Бо", "deals"),
        }
        assert sorted(r["match"] for r in exported(live)) == ["m1", "m2", "m2", "m3"]
    finally:
        for store in (killed, stalled, live):
            store.close()


def test_a_boards_seating_released_after_its_server_came_back_stays_withheld_till_its_end(
    store_db: str,
) -> None:
    """A board's seating whose server was thought dead (its row kept, with the result
    a dead server leaves) and came back, its board released after that: a plain running
    match from then on, withheld until it ends (docs/scaling.md). Failed before: the
    store remembered the row it had found, not written, and the release deleted it, so
    every later deal of the running match was exported."""
    stalled, live = a_boards_seating_kept_after_a_stall(store_db)
    try:
        assert stalled.heartbeat(30.0) == 0  # back: it plays on
        # released before its next deal (a deal first takes the kept result back: then
        # the release finds it running, test_stall_races.py)
        assert live.release_board("k1") == 1  # listed as lost, its deal exported
        assert [r["deal_no"] for r in exported(live)] == [1]
        stalled.add_deal(deal("m1", 2), board="k1")  # a running match: withheld again
        stalled.add_deal(deal("m1", 3), board="k1")
        stalled.add_deal(deal("m1", 4), board="k1")
        assert exported(live) == []
        stalled.finish_match(
            "m1", 3, ["ann", "Бо"], "moscow", [], "ann", "deals", [9, 0], {3: "s"}, board="k1"
        )
        assert [(r["deal_no"], r["seed"]) for r in exported(live)] == [
            (1, None), (2, None), (3, "s"), (4, None),
        ]  # fmt: skip
        finished = live.finished_match("m1")
        assert finished is not None and finished["reason"] == "deals"
    finally:
        stalled.close()
        live.close()


def test_a_released_boards_games_are_in_the_order_its_seatings_ended(store: Store) -> None:
    """At its release a board's results are written as its finishes were before they
    were kept in the store (each finish_match then, in the order the seatings ended):
    'games' lists them newest ended first, not in the order they started. Failed
    before: m3, m2, m1 (the order of their first deals)."""
    for match in ("m1", "m2", "m3"):
        store.add_deal(deal(match, 1), board="k1")
    for match in ("m2", "m1", "m3"):  # ended in another order than they started
        store.finish_match(
            match, 3, ["ann", "Бо"], "moscow", [], None, "deals", [1, 2], {1: "s"}, board="k1"
        )
    assert store.release_board("k1") == 3
    assert [g["match"] for g in store.recent_games("ann")] == ["m3", "m1", "m2"]


def test_recent_games_newest_first_for_any_writing_of_a_name(store: Store) -> None:
    finish(store, "m1", ["Ann", "bob"], "Ann")
    finish(store, "m2", ["bob", "carl"], None)
    finish(store, "m3", ["carl", "ann"], "carl")
    games = store.recent_games("ANN")
    assert [g["match"] for g in games] == ["m3", "m1"]
    newest = games[0]
    assert set(newest) == {
        "match",
        "table",
        "players",
        "variant",
        "winner",
        "reason",
        "totals",
        "finished",
        "forfeit",
        "options",  # (which tell a seat's konets from the server's claim)
        "dealt",  # (a forfeit before the first call has no deal stored)
    }
    assert newest["dealt"] is False  # (no deal of it stored)
    assert newest["players"] == ["carl", "ann"] and newest["winner"] == "carl"
    assert newest["forfeit"] is None  # (not a forfeit)
    assert newest["table"] == 3 and newest["variant"] == "moscow"
    assert newest["reason"] == "score" and newest["totals"] == [301, 120]
    assert newest["options"] == ["to-301"]
    assert len(newest["finished"]) == 19 and newest["finished"][10] == " "  # UTC seconds
    assert [g["match"] for g in store.recent_games("bob", limit=1)] == ["m2"]
    assert store.recent_games("nobody") == []


def test_a_registered_names_games_are_its_accounts_not_a_guests_before_it(
    store: Store, store_db: str
) -> None:
    """A guest boris played m1 and left; then boris was registered: m1 is not the
    account's (a tryout, s42: finger boris listed it), m2, played since, is; an
    unregistered name's games are all listed, as before."""
    finish(store, "m1", ["boris", "vova"], "vova")  # the guest boris's
    finish(store, "m2", ["Boris", "vova"], "Boris")
    finish(store, "m3", ["gus", "vova"], "gus")
    assert store.add_account("BORIS", b"s", b"h")
    # the account made after m1 finished, m2 after it (stored times: whole seconds)
    raw(
        store_db,
        "UPDATE matches SET finished = '2030-01-01 10:00:00' WHERE id IN ('m1', 'm3')",
        "UPDATE accounts SET created = '2030-01-01 10:00:05'",
        "UPDATE matches SET finished = '2030-01-01 10:00:09' WHERE id = 'm2'",
        "UPDATE match_players SET finished = (SELECT finished FROM matches m"
        " WHERE m.id = match_players.match_id)",
    )
    assert [g["match"] for g in store.recent_games("boris")] == ["m2"]
    assert [g["match"] for g in store.recent_games("vova")] == ["m2", "m3", "m1"]
    assert [g["match"] for g in store.recent_games("gus")] == ["m3"]
    # a game finished in the very second the account was made is counted as its
    raw(store_db, "UPDATE match_players SET finished = '2030-01-01 10:00:05'")
    assert [g["match"] for g in store.recent_games("boris")] == ["m2", "m1"]


def test_a_finished_match_is_found_by_its_id_with_or_without_deals(store: Store) -> None:
    finish(store, "m1", ["Ann", "bob"], "Ann")  # over before any deal was stored
    store.add_deal(deal("m2", 1))  # running: not finished
    game = store.finished_match("m1")
    assert game is not None
    listed = store.recent_games("ann")[0]
    assert game == {**listed, "options": ["to-301"]}  # the listed row, and its options
    assert store.finished_match("m2") is None and store.finished_match("m9") is None


def test_a_forfeits_seat_is_kept_with_its_match_a_boards_till_its_release(store: Store) -> None:
    """The seat whose forfeit ended a match (migration 11): a match forfeited between
    deals has no record to say it, and three players' winner does not (docs/web.md)."""
    three = ["ann", "Бо", "cat"]
    store.finish_match("m1", 3, three, "moscow", [], "cat", "timeouts", [0, 0, 0], forfeit=1)
    store.add_deal(deal("m2", 1), board="k1")
    store.finish_match(
        "m2", 4, ["ann", "Бо"], "moscow", [], "Бо", "left", [0, 0], {1: "s/1"}, "k1", forfeit=0
    )
    assert store.finished_match("m2") is None  # kept for the board's release
    assert store.release_board("k1") == 1
    games = {g["match"]: g["forfeit"] for g in store.recent_games("ann")}
    assert games == {"m1": 1, "m2": 0}
    rows = [store.finished_match(m) for m in ("m1", "m2")]
    assert [row and row["forfeit"] for row in rows] == [1, 0]


def test_a_boards_result_kept_before_migration_11_is_released_with_no_forfeit() -> None:
    """A seating that ended before its server's upgrade kept a row without the column
    (nor migration 23's ``public_table``: a board's, never linked, NULL)."""
    older = ["m1", 3, '["ann", "bob"]', "moscow", "[]", "ann", "left", "[0, 0]"]
    kept = json.dumps({"row": older, "seeds": None, "kept": 1})
    assert board_finishes([kept]) == [((*older, None, None), None)]
    before_23 = json.dumps({"row": [*older, 0], "seeds": None, "kept": 1})
    assert board_finishes([before_23]) == [((*older, 0, None), None)]


def test_a_database_of_migration_10_gains_the_forfeit_seat_its_matches_keeping_none(
    new_store_db: str,
) -> None:
    """A database at migration 10, before matches kept the forfeit's seat, keeps its
    matches, with no seat (docs/web.md: their pages say who as before); a match
    finished after the upgrade keeps it."""
    opened(new_store_db, migrations=MIGRATIONS[:10]).close()
    raw(new_store_db, *_finished_before_forfeits(match="m1", winner="ann"))
    store = opened(new_store_db)
    try:
        assert store.schema_version() == LATEST
        assert [(g["match"], g["forfeit"]) for g in store.recent_games("бо")] == [("m1", None)]
        store.finish_match("m2", 3, ["ann", "Бо"], "moscow", [], "ann", "away", [0, 0], forfeit=1)
        finished = store.finished_match("m2")
        assert finished is not None and finished["forfeit"] == 1
    finally:
        store.close()


def test_match_numbers_go_on_after_the_highest_stored(store: Store) -> None:
    assert store.max_match_number() == 0
    store.add_deal(deal("m12", 1))  # running
    finish(store, "m7", ["ann", "bob"])
    finish(store, "ladder-x", ["ann", "bob"])  # not a server's number
    assert store.max_match_number() == 12


def test_match_numbers_drawn_in_blocks_ascend_and_are_never_drawn_again(store: Store) -> None:
    block = store.new_match_numbers(3)
    single = store.new_match_number()
    after = store.new_match_numbers(2)
    assert len(block) == 3 and block == sorted(block) and len(after) == 2
    every = [*block, single, *after]
    assert every == sorted(every) and len(set(every)) == 6


def test_a_new_database_is_at_the_newest_migration_and_reopening_changes_nothing(
    new_store_db: str,
) -> None:
    store = open_store(new_store_db)
    assert store.schema_version() == len(MIGRATIONS)
    store.add_account("ann", b"s", b"h")
    store.close()
    store = open_store(new_store_db)
    try:
        assert store.schema_version() == len(MIGRATIONS)
        assert store.account("ann") == (b"s", b"h")
    finally:
        store.close()


def test_later_migrations_are_applied_in_order_keeping_the_data(new_store_db: str) -> None:
    store = opened(new_store_db)
    store.add_account("ann", b"s", b"h")
    store.close()
    store = opened(new_store_db, migrations=(*MIGRATIONS, EXTRA))
    try:
        assert store.schema_version() == LATEST + 1
        assert store.account("ann") == (b"s", b"h")
    finally:
        store.close()
    assert table_exists(new_store_db, "extra")


def test_a_failing_migration_changes_nothing(new_store_db: str) -> None:
    opened(new_store_db).close()
    broken = Migration(
        LATEST + 1,
        "broken",
        sqlite="CREATE TABLE extra (x INTEGER); NOT SQL",
        postgres="CREATE TABLE extra (x INTEGER); NOT SQL",
    )
    with pytest.raises(Exception, match="syntax error"):
        opened(new_store_db, migrations=(*MIGRATIONS, broken))
    assert not table_exists(new_store_db, "extra")
    store = opened(new_store_db)
    try:
        assert store.schema_version() == LATEST
    finally:
        store.close()


def test_a_database_newer_than_the_code_is_refused(new_store_db: str) -> None:
    opened(new_store_db, migrations=(*MIGRATIONS, EXTRA)).close()
    with pytest.raises(StoreError, match=f"version {LATEST + 1}, newer than this deberc-net knows"):
        open_store(new_store_db)


def test_migrations_must_be_numbered_in_order(new_store_db: str) -> None:
    gap = Migration(LATEST + 2, "a gap", sqlite="SELECT 1", postgres="SELECT 1")
    with pytest.raises(ValueError, match="numbered 1, 2, 3"):
        opened(new_store_db, migrations=(*MIGRATIONS, gap))


def test_ladder_runs_stored_before_keep_no_admin_password(new_store_db: str) -> None:
    """An operator's tryout found 'ladder run --server … --admin-password P' in every
    copy of the database (the run row's command line): migration 10 hides it in rows
    stored before, each argument in its place, and leaves other rows as they were."""
    opened(new_store_db, migrations=MIGRATIONS[:9]).close()
    runs = {
        "spaced": ["ladder", "run", "--admin-password", "s3cret", "--bot", "a=x"],
        "joined": ["ladder", "run", "--admin-password=s3cret", "--deals", "2"],
        "none": ["ladder", "run", "--bot", "b=y"],
    }
    for argv in runs.values():
        settings = json.dumps({"argv": argv, "distributed": None})
        raw_execute(new_store_db, f"INSERT INTO ladder_runs (settings) VALUES ('{settings}')")
    opened(new_store_db).close()
    stored = [json.loads(text) for text in raw_column(new_store_db, "ladder_runs", "settings")]
    assert [s["argv"] for s in stored] == [
        ["ladder", "run", "--admin-password", "***", "--bot", "a=x"],
        ["ladder", "run", "--admin-password=***", "--deals", "2"],
        ["ladder", "run", "--bot", "b=y"],
    ]
    assert all(s["distributed"] is None for s in stored)  # the rest of a row kept


def test_an_sqlite_file_from_before_migrations_is_adopted(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # the schema as it was, no schema_migrations
        db.executescript(MIGRATIONS[0].sqlite)
        db.execute(
            "INSERT INTO accounts (key, name, salt, hash) VALUES ('ann', 'ann', x'00', x'01')"
        )
    db.close()
    store = open_store(path)
    try:
        assert store.schema_version() == LATEST
        assert store.account("ann") == (b"\x00", b"\x01")
    finally:
        store.close()


def test_an_sqlite_file_is_its_owners_only(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    open_store(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


def test_an_unreachable_postgres_is_a_clear_error(postgres_url: str) -> None:
    refused = postgres_url.rsplit(":", 1)[0] + ":1/nowhere"  # a port nothing listens on
    with pytest.raises(
        StoreError,
        match=r"cannot connect to PostgreSQL at postgresql://"
        r"postgres@127\.0\.0\.1:1/nowhere",
    ):
        PostgresStore(refused, connect_timeout_s=1)


def test_a_malformed_postgres_address_is_a_clear_error() -> None:
    with pytest.raises(StoreError, match="not a PostgreSQL address"):
        open_store("postgresql://ann@host:notaport/db?nonsense=1")


def test_a_logged_address_hides_the_password() -> None:
    assert (
        describe("postgresql://ann:s3cret@db.example:5433/deberc")
        == "postgresql://ann:***@db.example:5433/deberc"
    )
    # an SQLite file by its whole path (docs/settings.md, "Logs": `listening`'s db)
    assert describe("deberc.sqlite3") == os.path.abspath("deberc.sqlite3")
    assert describe("/srv/deberc/club.sqlite3") == "/srv/deberc/club.sqlite3"
    assert describe(":memory:") == ":memory:"


# ----------------------------------------------------------------- raw looks
def raw_deals(db: str) -> list[str]:
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            return [r[0] for r in conn.execute("SELECT record FROM deals")]
    with sqlite3.connect(db) as con:
        rows = [r[0] for r in con.execute("SELECT record FROM deals")]
    con.close()
    return rows


def raw_column(db: str, table: str, column: str) -> list[str]:
    """``column`` of every row of ``table``, in the order stored."""
    query = f"SELECT {column} FROM {table} ORDER BY id"
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            return [r[0] for r in conn.execute(query.encode())]
    with sqlite3.connect(db) as con:
        rows = [r[0] for r in con.execute(query)]
    con.close()
    return rows


def raw_execute(db: str, statement: str) -> None:
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            conn.execute(statement.encode())
        return
    with sqlite3.connect(db) as con:
        con.execute(statement)
    con.close()


def table_exists(db: str, name: str) -> bool:
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            row = conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()
            return row is not None and row[0] is not None
    with sqlite3.connect(db) as con:
        found = con.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    con.close()
    return found is not None


def test_stores_opened_at_once_on_a_new_database_apply_each_migration_once(
    new_store_db: str,
) -> None:
    """Servers started together on one empty database: one applies each migration, the
    others find it applied (PostgreSQL: an advisory lock; SQLite: the rows' key)."""
    opened_stores: list[Store] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def open_one() -> None:
        start.wait()
        try:
            opened_stores.append(open_store(new_store_db, serving=True))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    try:
        assert errors == [] and len(opened_stores) == 4
        assert {s.schema_version() for s in opened_stores} == {LATEST}
        assert applied_migrations(new_store_db) == list(range(1, LATEST + 1))
    finally:
        for store in opened_stores:
            store.close()


def applied_migrations(db: str) -> list[int]:
    query = "SELECT number FROM schema_migrations ORDER BY number"
    if is_postgres(db):
        import psycopg

        with psycopg.connect(db) as conn:
            return [r[0] for r in conn.execute(query)]
    with sqlite3.connect(db) as con:
        numbers = [r[0] for r in con.execute(query)]
    con.close()
    return numbers


def test_a_match_ends_while_another_server_writes_the_same_sqlite_file(tmp_path: Path) -> None:
    """Two servers on one SQLite file (``ladder run --processes``): another's write that
    lands while a match's end is being stored must not make SQLite refuse it ('database
    is locked': a transaction that read first cannot start writing after another wrote);
    the store takes the write lock before it reads, and the other waits its turn."""
    db = str(tmp_path / "shared.sqlite3")
    mine = SQLiteStore(db, serving=True)
    other = sqlite3.connect(db, timeout=0, isolation_level=None)  # no waiting: says 'locked'
    tried: list[str] = []

    def another_server_writes(statement: str) -> None:
        if statement.startswith("UPDATE deals SET record") and not tried:
            try:
                other.execute(
                    "INSERT INTO deals (match_id, deal_no, record) VALUES ('m9', 1, '{}')"
                )
                tried.append("written")
            except sqlite3.OperationalError as exc:  # the store holds the lock: its turn
                tried.append(str(exc))

    try:
        mine.add_deal(deal("m1", 1))
        mine.connection.set_trace_callback(another_server_writes)
        finish(mine, "m1", ["ann", "Бо"], winner="ann", seeds={1: "secret/1"})
        mine.connection.set_trace_callback(None)
        assert tried == ["database is locked"]
        assert [r["seed"] for r in exported(mine)] == ["secret/1"]  # stored, released
    finally:
        other.close()
        mine.close()


def test_matches_an_old_clean_stop_left_unlisted_are_listed_once_in_their_place(
    new_store_db: str,
) -> None:
    """A clean stop before stopped matches were listed (0.1.0) left a match it cut off
    with its deals only: no row, so no 'games', 'history' or player page had it. The
    first server on the upgraded database lists it as a clean stop's (reason shutdown,
    no winner), finished when the match before it was, so a history keeps its order.
    Failed before: it stayed unlisted."""
    before = MIGRATIONS[:7]  # the schema such a database had
    store = opened(new_store_db, migrations=before)  # (closed, it lists nothing it ran)
    for match, deal_no in (("m1", 1), ("m2", 1), ("m2", 2), ("m3", 1)):
        store.add_deal(deal(match, deal_no))
    store.close()
    raw(  # m1 and m3 finished, as 0.1.0's clean stop left m2; when each listed one finished
        new_store_db,
        *_finished_before_forfeits(match="m1", winner="ann"),
        *_finished_before_forfeits(match="m3", winner="Бо"),
        "DELETE FROM running WHERE match_id = 'm2'",
        "UPDATE matches SET finished = '2026-01-01 10:00:00' WHERE id = 'm1'",
        "UPDATE matches SET finished = '2026-01-02 10:00:00' WHERE id = 'm3'",
    )
    store = opened(new_store_db, serving=True)
    try:
        games = store.recent_games("бо")
        assert [(g["match"], g["reason"], g["winner"]) for g in games] == [
            ("m3", "score", "Бо"),
            ("m2", "shutdown", None),
            ("m1", "score", "ann"),
        ]
        assert games[1]["totals"] == [20, 40]  # after its last stored deal
        assert str(games[1]["finished"]).startswith("2026-01-01 10:00:00")
    finally:
        store.close()
    store = opened(new_store_db, serving=True)  # once: nothing is listed twice
    try:
        assert [g["match"] for g in store.recent_games("ann")] == ["m3", "m2", "m1"]
    finally:
        store.close()


def test_an_old_stop_numbered_before_every_listed_match_is_listed_before_the_next(
    new_store_db: str,
) -> None:
    """An old clean stop's match with no listed match numbered before it (the store's
    first match, cut off) is listed just before the listed match numbered after it, not
    as finished now, above every later match. Failed before: m1 came first, as newest."""
    store = opened(new_store_db, migrations=MIGRATIONS[:7])
    store.add_deal(deal("m1", 1))
    store.add_deal(deal("m2", 1))
    store.close()
    raw(
        new_store_db,
        *_finished_before_forfeits(match="m2", winner="ann"),
        "DELETE FROM running WHERE match_id = 'm1'",
        "UPDATE matches SET finished = '2026-01-02 10:00:00' WHERE id = 'm2'",
    )
    store = opened(new_store_db, serving=True)
    try:
        games = store.recent_games("ann")
        assert [(g["match"], g["reason"]) for g in games] == [("m2", "score"), ("m1", "shutdown")]
        assert str(games[1]["finished"]) < str(games[0]["finished"])
    finally:
        store.close()


def test_old_stops_finished_at_one_time_are_listed_in_the_order_of_their_numbers(
    new_store_db: str,
) -> None:
    """Old clean stops numbered after the same listed match are each finished when it
    was: tied, they are listed (and 'games' shows them, newest first) by their match
    numbers, m10 after m9. Failed before: by their ids' text, m10 before m9."""
    store = opened(new_store_db, migrations=MIGRATIONS[:7])
    for match in ("m8", "m9", "m10", "m11"):
        store.add_deal(deal(match, 1))
    store.close()
    raw(
        new_store_db,
        *_finished_before_forfeits(match="m8", winner="ann"),
        "DELETE FROM running WHERE match_id IN ('m9', 'm10', 'm11')",
        "UPDATE matches SET finished = '2026-01-02 10:00:00' WHERE id = 'm8'",
    )
    store = opened(new_store_db, serving=True)
    try:
        games = store.recent_games("ann")
        assert [g["match"] for g in games] == ["m11", "m10", "m9", "m8"]
        assert len({g["finished"] for g in games}) == 1
    finally:
        store.close()


def _finished_before_forfeits(match: str, winner: str) -> tuple[str, ...]:
    """What ``finish`` of ann and Бо's ``match`` wrote before migration 11 (the code
    writes its ``forfeit`` now, a column the older schemas of these tests lack): its
    running row gone (its deals seedless, as ``finish`` gives no seeds), its row, its
    players' rows."""
    players = json.dumps(["ann", "Бо"], ensure_ascii=False)
    return (
        f"DELETE FROM running WHERE match_id = '{match}'",
        "INSERT INTO matches (id, table_id, players, variant, options, winner, reason, totals)"
        f" VALUES ('{match}', 3, '{players}', 'moscow', '[\"to-301\"]', '{winner}', 'score',"
        " '[301, 120]')",
        f"INSERT INTO match_players (match_id, key) VALUES ('{match}', 'ann'), ('{match}', 'бо')",
    )


def test_migration_8_finds_old_stops_by_an_anti_join_on_a_large_postgresql_store(
    new_postgres_url: str,
) -> None:
    """Migration 8 runs once on a production store, holding the migrations' lock every
    starting server waits for. Its query must be a join: PostgreSQL plans 'NOT IN
    (SELECT id FROM matches)' as a scan of the matches per deal once their ids outgrow
    work_mem (a store of 300,000 matches took over 15 minutes; this way 2 s). Failed
    before: a SubPlan, not hashed."""
    import psycopg

    PostgresStore(new_postgres_url, migrations=MIGRATIONS[:7]).close()
    query = MIGRATIONS[7].postgres
    query = query[query.index("SELECT DISTINCT") :].rstrip().rstrip(";")
    with psycopg.connect(new_postgres_url) as conn:
        conn.execute(
            "INSERT INTO matches (id, table_id, players, variant, options, reason, totals)"
            " SELECT 'm' || g, 1, '[]', 'moscow', '[]', 'score', '[0,0]'"
            " FROM generate_series(1, 5000) AS g"
        )
        conn.execute("ANALYZE matches")
        conn.execute("SET work_mem = '64kB'")  # (its least) the ids outgrow it
        plan = [row[0] for row in conn.execute(("EXPLAIN " + query).encode()).fetchall()]
    assert not [line for line in plan if "SubPlan" in line and "hashed" not in line], plan
