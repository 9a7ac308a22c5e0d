"""A server thought dead (silent past its time) that plays on: what another server's
ending of its matches and its own next deals leave in the store (docs/scaling.md)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import psycopg

from deberc_net.server.store import Store, open_store

from .locks import WAIT_S, wait_until, waiting_for_locks
from .records import deal, exported, finish, raw
from .stalls import a_stalled_server, silence


def test_a_deal_stored_after_another_server_ended_its_match_withholds_it_again(
    store_db: str,
) -> None:
    """A stalled server's match ended by another server (listed as lost, its deals
    exported), then a deal of it stored before the stalled one's next heartbeat: the
    match plays on, so it is withheld again at once, that deal with it, and stays so
    whoever beats next. Failed before: the store knew it had written the match's
    running row and wrote only the deal, exported at once with every later one until
    the stalled server's next heartbeat."""
    stalled = open_store(store_db, serving=True)
    live = open_store(store_db, serving=True)
    try:
        assert stalled.server_id is not None
        stalled.add_deal(deal("m1", 1))
        silence(store_db, stalled.server_id)
        assert live.heartbeat(30.0) == 1  # m1 ended: listed as lost, exported
        assert [r["deal_no"] for r in exported(live)] == [1]
        stalled.add_deal(deal("m1", 2))  # it plays on, not knowing yet
        assert exported(live) == []
        assert live.heartbeat(30.0) == 0  # its deal said it lives: nothing ended again
        stalled.add_deal(deal("m1", 3))
        assert exported(live) == [] and live.heartbeat(30.0) == 0
        assert stalled.heartbeat(30.0) == 0
        finish(stalled, "m1", ["ann", "Бо"], "ann", {1: "s/1", 2: "s/2", 3: "s/3"})
        assert [(r["deal_no"], r["seed"]) for r in exported(live)] == [
            (1, "s/1"), (2, "s/2"), (3, "s/3"),
        ]  # fmt: skip
        finished = live.finished_match("m1")
        assert finished is not None and finished["reason"] == "score"
    finally:
        stalled.close()
        live.close()


def test_a_deal_stored_while_another_server_ends_its_server_waits_for_that_end(
    postgres_url: str,
) -> None:
    """Two servers on one PostgreSQL database: one ends the other's matches (thought
    dead) while that one, stalled no more, stores a deal of one of them. The deal's
    statement waits for the ending to commit and then withholds the match again, the
    deal with it: never a deal of a match ended under it, exported while the match
    plays on. The interleaving is forced: a third connection holds the ``matches``
    table, so the ending stops at its listing of the match, after it deleted the
    stalled server's row. Failed before: the deal was stored at once, the ending then
    deleted the match's running row, and both deals were exported while it ran."""
    with a_stalled_server(postgres_url) as (stalled, live, blocker):
        blocker.execute("LOCK TABLE matches IN EXCLUSIVE MODE")  # the listing waits
        with ThreadPoolExecutor(2) as pool:
            try:
                ending = pool.submit(live.heartbeat, 30.0)
                wait_until(lambda: waiting_for_locks(blocker) == 1, "the ending at the listing")
                storing = pool.submit(stalled.add_deal, deal("m1", 2))
                # (before the fix the deal was stored at once; now it waits for the end)
                wait_until(lambda: storing.done() or waiting_for_locks(blocker) == 2, "the deal")
            finally:
                blocker.rollback()  # the ending goes on, commits; then the deal
            assert ending.result(timeout=WAIT_S) == 1
            storing.result(timeout=WAIT_S)
        assert exported(live) == []  # m1 plays on: withheld, both its deals
        assert live.heartbeat(30.0) == 0  # its server lives (its deal said so)
        finish(stalled, "m1", ["ann", "Бо"], "ann", {1: "s/1", 2: "s/2"})
        assert [(r["deal_no"], r["seed"]) for r in exported(live)] == [(1, "s/1"), (2, "s/2")]
        finished = live.finished_match("m1")
        assert finished is not None and finished["reason"] == "score"


def test_a_deal_stored_before_another_server_ends_its_server_is_in_that_end(
    postgres_url: str,
) -> None:
    """The other order: the deal's statement holds the stalled server's row while it
    stores, so an ending that comes meanwhile waits, and lists the match with the
    totals after that deal. Forced: a third connection inserts the same deal and holds
    it uncommitted, so the deal's statement waits there, holding the row; the ending
    waits for it."""
    with a_stalled_server(postgres_url) as (stalled, live, blocker):
        blocker.execute(  # the deal's insert waits for this one
            "INSERT INTO deals (match_id, deal_no, record) VALUES ('m1', 2, '{}')"
        )
        with ThreadPoolExecutor(2) as pool:
            try:
                storing = pool.submit(stalled.add_deal, deal("m1", 2))
                wait_until(lambda: waiting_for_locks(blocker) == 1, "the deal at its insert")
                ending = pool.submit(live.heartbeat, 30.0)
                wait_until(lambda: waiting_for_locks(blocker) == 2, "the ending at the row")
            finally:
                blocker.rollback()
            storing.result(timeout=WAIT_S)
            assert ending.result(timeout=WAIT_S) == 1
        assert [r["deal_no"] for r in exported(live)] == [1, 2]  # ended after its deal 2
        (lost,) = live.recent_games("ann")
        assert (lost["reason"], lost["totals"]) == ("server-lost", [20, 40])


def a_match_ended_under_its_server(db: str) -> tuple[Store, Store]:
    """A server (the first) whose m1 another (the second) ended, taking it for dead
    after its deal 1, and that stored m1's deal 2 then (the match withheld again)."""
    stalled = open_store(db, serving=True)
    live = open_store(db, serving=True)
    assert stalled.server_id is not None
    stalled.add_deal(deal("m1", 1))
    silence(db, stalled.server_id)
    assert live.heartbeat(30.0) == 1
    stalled.add_deal(deal("m1", 2))
    return stalled, live


def test_a_match_ended_while_its_server_played_on_is_listed_once_at_its_end(
    store_db: str,
) -> None:
    """A stalled server's match ended by another server (listed as lost), that its
    server then plays to its end: 'games' lists it once, as it ended. Failed before:
    its end added its players' rows again, so every player's history showed it twice."""
    stalled, live = a_match_ended_under_its_server(store_db)
    try:
        finish(stalled, "m1", ["ann", "Бо"], "ann", {1: "s/1", 2: "s/2"})
        for name in ("ann", "бо"):
            assert [(g["match"], g["reason"]) for g in live.recent_games(name)] == [("m1", "score")]
    finally:
        stalled.close()
        live.close()


def test_a_match_ended_while_its_server_played_on_is_listed_anew_when_it_stops_again(
    store_db: str,
) -> None:
    """The same match, its server stopping (or found dead again) before its end: it is
    listed as that stop left it, the totals after its last deal, once. Failed before:
    the first ending's listing stayed (server-lost, the totals after deal 1)."""
    stalled, live = a_match_ended_under_its_server(store_db)
    try:
        stalled.add_deal(deal("m1", 3))
    finally:
        stalled.close()
    try:
        games = live.recent_games("ann")
        assert [(g["match"], g["reason"], g["totals"]) for g in games] == [
            ("m1", "shutdown", [30, 60])
        ]
        assert [r["deal_no"] for r in exported(live)] == [1, 2, 3]
    finally:
        live.close()


def test_an_ending_never_lists_a_finished_match_as_stopped(store_db: str) -> None:
    """An ending that takes a match for orphaned after its server finished it (the
    ending's look at the running rows before that finish's commit; forced here by
    writing the running row back) leaves the finished match's row as it is."""
    stalled = open_store(store_db, serving=True)
    live = open_store(store_db, serving=True)
    try:
        assert stalled.server_id is not None
        stalled.add_deal(deal("m1", 1))
        finish(stalled, "m1", ["ann", "Бо"], "ann", {1: "s/1"})
        silence(store_db, stalled.server_id)
        raw(store_db, f"INSERT INTO running (match_id, server) VALUES ('m1', {stalled.server_id})")
        assert live.heartbeat(30.0) == 1
        assert [(g["reason"], g["totals"]) for g in live.recent_games("ann")] == [
            ("score", [301, 120])
        ]
    finally:
        stalled.close()
        live.close()


def test_two_servers_thought_dead_that_beat_at_once_do_not_deadlock(postgres_url: str) -> None:
    """Two servers both silent past their time (a database away for a while) beat at
    once: each finds the other dead. They take turns: both beats succeed, the first
    ends the other's match, the other is alive again by its own beat. Forced: a third
    dead server's row, found first, is held by a third connection until both beats
    wait there, having written their own rows. Failed before: each beat held its own
    row and waited for the other's (PostgreSQL: 'deadlock detected', one beat failed)."""
    dead = open_store(postgres_url, serving=True)
    one = open_store(postgres_url, serving=True)
    other = open_store(postgres_url, serving=True)
    blocker = psycopg.connect(postgres_url)
    try:
        assert None not in (dead.server_id, one.server_id, other.server_id)
        one.add_deal(deal("m1", 1))
        other.add_deal(deal("m2", 1))
        for server in (dead, one, other):
            silence(postgres_url, server.server_id)  # type: ignore[arg-type]
        blocker.execute("SELECT FROM servers WHERE id = %s FOR UPDATE", (dead.server_id,))
        with ThreadPoolExecutor(2) as pool:
            try:
                # (each beats every two hours, as far as the store knows: on time, each
                # judges the other's hour of silence whole; a late beat judges none:
                # test_a_late_beat_ends_none_of_those_stalled_with_it)
                beats = [pool.submit(store.heartbeat, 30.0, 7200.0) for store in (one, other)]
                wait_until(lambda: waiting_for_locks(blocker) == 2, "both beats at the row")
            finally:
                blocker.rollback()
            ended = sorted(beat.result(timeout=WAIT_S) for beat in beats)
        assert ended == [0, 1]  # (the dead one's match-less row goes with the first)
        assert one.heartbeat(30.0) == 0 and other.heartbeat(30.0) == 0
    finally:
        blocker.close()
        for store in (dead, one, other):
            store.close()


def test_a_late_beat_ends_none_of_those_stalled_with_it(store_db: str) -> None:
    """The whole machine paused for an hour, every server with it: the first to beat as
    they run again finds the others silent past their time, though they missed no beat
    it could have seen. Its own beat came an hour late: it judges them as its beat on
    time would have, and ends none of their matches; one silent for longer than it was
    stalled itself (dead before the pause) is ended at once, and one that stays silent
    once it beats on time again is ended then (docs/scaling.md). Failed before: the
    first beat ended the other's match (listed server-lost, its deals exported)."""
    first = open_store(store_db, serving=True)
    second = open_store(store_db, serving=True)
    dead = open_store(store_db, serving=True)
    stores = (first, second, dead)

    def quiet(store: Store, hours: float = 1.0) -> None:
        assert store.server_id is not None
        silence(store_db, store.server_id, hours)

    try:
        for n, store in enumerate(stores, 1):
            store.add_deal(deal(f"m{n}", 1))
        quiet(dead, hours=3)  # (dead before the pause)
        for store in (first, second):  # the pause
            quiet(store)
        assert first.heartbeat(30.0, 5.0) == 1  # the dead one's m3 only
        assert second.heartbeat(30.0, 5.0) == 0
        assert [r["match"] for r in exported(first)] == ["m3"]
        assert [g["match"] for g in first.recent_games("ann")] == ["m3"]
        assert first.heartbeat(30.0, 5.0) == 0  # on time now: the second lives
        quiet(second)  # (it dies now)
        assert first.heartbeat(30.0, 5.0) == 1  # on time: its silence is whole
        assert sorted(r["match"] for r in exported(first)) == ["m2", "m3"]
        # the second, thought dead, runs again: its silence was its own, so the beat
        # that writes its row again ends none (the first silent meanwhile too)
        quiet(first)
        assert second.heartbeat(30.0, 5.0) == 0
        assert second.heartbeat(30.0, 5.0) == 1  # on time: the first's m1
    finally:
        for store in stores:
            store.close()
