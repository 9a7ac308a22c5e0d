"""The store writer's groups (Store.group, server/store_writer.py): the writes queued at
once are one SQLite transaction (another connection sees none of them before the group
ends, all of them after), each write in it still all or nothing (one that fails undoes
only itself, the others are stored), and a group that fails as a whole has its jobs done
again one by one, as before groups: nothing the writer accepted is lost unsaid."""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
import trio

from deberc_net.server.store.base import Outcome, RatingResult
from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.store_writer import StoreWriter

from .locks import started
from .records import deal, exported, finish


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    opened = SQLiteStore(str(tmp_path / "g.sqlite3"), serving=True)
    yield opened
    opened.close()


@pytest.fixture
def other(store: SQLiteStore) -> Iterator[sqlite3.Connection]:
    """Another program's connection to the same file (it sees what is committed)."""
    connection = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)
    yield connection
    connection.close()


def deals_seen(connection: sqlite3.Connection) -> int:
    return int(connection.execute("SELECT count(*) FROM deals").fetchone()[0])


def test_a_groups_writes_are_committed_together(
    store: SQLiteStore, other: sqlite3.Connection
) -> None:
    with store.group():
        store.add_deal(deal("m1", 1))
        store.add_deal(deal("m1", 2))
        assert deals_seen(other) == 0  # not committed yet
        finish(store, "m1", ["ann", "Бо"], "ann")
    assert deals_seen(other) == 2
    assert [(r["deal_no"], r["seed"]) for r in exported(store)] == [(1, None), (2, None)]


def test_a_write_that_fails_in_a_group_undoes_only_itself(store: SQLiteStore) -> None:
    """A finish that fails halfway (a player's name no name at all: its matches row is
    written, then its players' rows fail) leaves no trace; the deal written before it in
    the group, and a later match, are stored."""
    with store.group():
        store.add_deal(deal("m1", 1))
        with pytest.raises(TypeError):
            store.finish_match("m1", 3, [1, 2], "moscow", [], None, "score", [1, 2])  # type: ignore[list-item]
        store.add_deal(deal("m2", 1))
        finish(store, "m2", ["ann", "Бо"])
    assert store.finished_match("m1") is None  # still running: its deal withheld
    assert store.match_records("m1") == []
    assert [r["match"] for r in exported(store)] == ["m2"]
    finish(store, "m1", ["ann", "Бо"], "ann")  # its real end, later
    assert sorted(r["match"] for r in exported(store)) == ["m1", "m2"]


def test_a_group_that_raises_writes_nothing(store: SQLiteStore, other: sqlite3.Connection) -> None:
    with pytest.raises(RuntimeError), store.group():
        store.add_deal(deal("m1", 1))
        raise RuntimeError("its commit failed")
    assert deals_seen(other) == 0
    store.add_deal(deal("m1", 1))  # the store writes on, each write its own transaction
    assert deals_seen(other) == 1


async def test_the_writer_groups_what_is_queued_at_once(
    store: SQLiteStore, other: sqlite3.Connection
) -> None:
    """Held at a first job, the writer finds three more queued: it writes them as one
    group (with the first, or after it), so the last (a look from another connection)
    sees neither deal before it; once the group is committed, both are there."""
    writer = StoreWriter(store.group)
    gate = threading.Event()
    seen: list[int] = []
    writer.write(gate.wait)
    writer.write(functools.partial(store.add_deal, deal("m1", 1)))
    writer.write(functools.partial(store.add_deal, deal("m1", 2)))
    writer.write(lambda: seen.append(deals_seen(other)))
    gate.set()
    await writer.run(lambda: None)
    assert seen == [0]
    assert deals_seen(other) == 2
    writer.close()


async def test_the_jobs_of_a_group_that_fails_are_done_one_by_one(
    store: SQLiteStore,
) -> None:
    """A group whose commit fails has written nothing: its jobs are done again, each on
    its own; a write that fails then is logged once, a run's failure raised in its
    caller, the others stored."""

    @contextlib.contextmanager
    def failing() -> Iterator[None]:
        with store.group():  # rolled back, as a failed commit leaves it
            yield
            raise sqlite3.OperationalError("disk I/O error")

    def fails() -> None:
        raise RuntimeError("full")

    writer = StoreWriter(failing)
    gate = threading.Event()
    with structlog.testing.capture_logs() as logs:
        writer.write(gate.wait)
        writer.write(functools.partial(store.add_deal, deal("m1", 1)), match="m1", deal=1)
        writer.write(fails, match="m1", deal=2)
        writer.write(functools.partial(finish, store, "m1", ["ann", "Бо"], "ann"))
        gate.set()
        with pytest.raises(RuntimeError, match="full"):
            await writer.run(fails)
        writer.close()
    assert [r["deal_no"] for r in exported(store)] == [1]
    told = [(e["event"], e.get("deal")) for e in logs if e["log_level"] != "debug"]
    assert ("store_group_failed", None) in told
    assert [t for t in told if t[0] != "store_group_failed"] == [("store_write_failed", 2)]


async def test_a_store_call_from_another_thread_waits_for_the_group(
    store: SQLiteStore,
) -> None:
    """Another thread's write (a login's account, say) during a group is not part of it:
    it waits for the group's end, then is its own transaction, stored though the group
    fails (a call let into the group would be rolled back with it)."""
    entered, gate = threading.Event(), threading.Event()

    @contextlib.contextmanager
    def failing() -> Iterator[None]:
        with store.group():
            yield
            raise sqlite3.OperationalError("disk I/O error")

    def held() -> None:
        entered.set()
        gate.wait()

    writer = StoreWriter(failing)
    writer.write(held)
    await trio.to_thread.run_sync(entered.wait)
    adding, failed = started(lambda: store.add_account("ann", b"s", b"h"))
    adding.join(0.2)
    assert adding.is_alive()  # waiting for the group's end, not inside it
    gate.set()
    adding.join(30.0)
    assert not adding.is_alive() and not failed, failed
    await writer.run(lambda: None)
    assert store.account("ann") == (b"s", b"h")
    writer.close()


def a_full_disk(store: SQLiteStore) -> dict[str, object]:
    """``store``'s file allowed to grow by a few pages only (SQLite's max_page_count:
    a full disk, for real): the deal returned is too big for it."""
    pages = store.connection.execute("PRAGMA page_count").fetchone()[0]
    store.connection.execute(f"PRAGMA max_page_count = {pages + 20}")
    return deal("m2", 1, pad="x" * 300_000)


RATED = [RatingResult("ann", 27.5, 8.0, 3.5, Outcome.WON)]


def test_a_write_that_rolls_the_whole_group_back_fails_it_and_the_writes_after_it(
    store: SQLiteStore, other: sqlite3.Connection
) -> None:
    """A full disk rolls SQLite's whole transaction back, not the one write: the writes
    after it in the group are refused (not each made a transaction of its own, stored at
    once), and the group fails, saying why; nothing of it is stored."""
    too_big = a_full_disk(store)
    with pytest.raises(sqlite3.OperationalError, match="disk is full"), store.group():
        store.add_deal(deal("m1", 1))
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):
            store.add_deal(too_big)
        assert not store.connection.in_transaction  # (SQLite rolled it all back)
        with pytest.raises(sqlite3.OperationalError, match="rolled the group's transaction"):
            store.save_ratings("m1", "moscow", 2, RATED)
    assert deals_seen(other) == 0
    assert store.player_ratings("ann") == []


async def test_a_group_a_full_disk_rolled_back_is_done_again_with_nothing_twice(
    store: SQLiteStore,
) -> None:
    """The writer does such a group's jobs again one by one: each is stored once (a
    rating counted once, one point of history), the one too big logged as lost."""
    too_big = a_full_disk(store)
    writer = StoreWriter(store.group)
    gate = threading.Event()
    with structlog.testing.capture_logs() as logs:
        writer.write(gate.wait)
        writer.write(functools.partial(store.add_deal, deal("m1", 1)))
        writer.write(functools.partial(store.add_deal, too_big), match="m2", deal=1)
        writer.write(functools.partial(store.save_ratings, "m1", "moscow", 2, RATED))
        gate.set()
        await writer.run(lambda: None)
        writer.close()
    assert [r.games for r in store.player_ratings("ann")] == [1]
    assert len(store.rating_history("ann")) == 1
    assert store.match_records("m2") == []
    told = [e["event"] for e in logs if e["log_level"] != "debug"]
    assert "store_group_failed" in told
    assert told.count("store_write_failed") == 1


def test_a_later_deal_that_fails_in_a_group_undoes_only_itself(store: SQLiteStore) -> None:
    """A match's later deal is written in a group without a savepoint of its own (one
    statement: docs/performance.md, forty-ninth session): one refused halfway (its row
    written, then a trigger aborts the statement) leaves no row, and the group's other
    writes, before and after it, are stored."""
    store.connection.execute(
        "CREATE TEMP TRIGGER refuse_3 AFTER INSERT ON main.deals WHEN NEW.deal_no = 3"
        " BEGIN SELECT RAISE(ABORT, 'deal 3 refused'); END"
    )
    with store.group():
        store.add_deal(deal("m1", 1))
        store.add_deal(deal("m1", 2))
        with pytest.raises(sqlite3.IntegrityError, match="deal 3 refused"):
            store.add_deal(deal("m1", 3))
        store.add_deal(deal("m1", 4))
        store.add_deal(deal("m2", 1))
        finish(store, "m2", ["ann", "Бо"])
    finish(store, "m1", ["ann", "Бо"], "ann")
    assert [json.loads(r)["deal_no"] for r in store.match_records("m1")] == [1, 2, 4]
    assert [json.loads(r)["deal_no"] for r in store.match_records("m2")] == [1]


def test_a_later_deal_too_big_for_the_disk_in_a_group_undoes_only_itself(
    store: SQLiteStore, other: sqlite3.Connection
) -> None:
    """A later deal too big for the disk (one statement, no savepoint): SQLite undoes
    that statement, not the group's transaction (as with the savepoint before), so
    nothing of it is stored and the group's other writes are."""
    store.add_deal(deal("m2", 1))  # m2 running: its next deal is a later one
    too_big = a_full_disk(store)
    too_big["deal_no"] = 2
    with store.group():
        store.add_deal(deal("m1", 1))
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):
            store.add_deal(too_big)
        assert store.connection.in_transaction
        store.add_deal(deal("m1", 2))
    seen = other.execute("SELECT match_id, deal_no FROM deals ORDER BY id").fetchall()
    assert seen == [("m2", 1), ("m1", 1), ("m1", 2)]
