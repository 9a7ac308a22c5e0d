"""server/store_writer.py: the tables' store writes, queued in order and written by one
thread; what must be on disk before the players are told waits for everything queued
before it, and closing writes whatever is still queued (nothing lost on shutdown)."""

from __future__ import annotations

import functools
import json
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
import trio

from deberc_net.plugins import RuleBook
from deberc_net.selfplay import selfplay
from deberc_net.server.store import Store, open_store
from deberc_net.server.store.sqlite import SQLiteStore
from deberc_net.server.store_writer import StoreWriter

from .client import LineClient, close_all, fields, machine_client, play_machine, seat_pair
from .conftest import make_config, running_server


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(str(tmp_path / "writes.sqlite3"), serving=True)
    yield opened
    opened.close()


def a_match() -> tuple[str, list[dict[str, Any]]]:
    """A self-played two-player match: its id and its deals' records."""
    rules = RuleBook.load().ruleset(2, "moscow", ("to-301",))
    (match,) = selfplay(rules, 1, "store-writer")
    assert len(match.records) > 1
    return match.match_id, [{**r, "match": match.match_id} for r in match.records]


def finish(store: Store, match_id: str) -> functools.partial[None]:
    return functools.partial(
        store.finish_match, match_id, 1, ["ann", "bob"], "moscow", ["to-301"], "ann", "won", [1, 0]
    )


def stored(store: Store, match_id: str) -> list[int]:
    return [json.loads(body)["deal_no"] for body in store.match_records(match_id)]


async def test_a_run_waits_for_every_write_queued_before_it(store: Store) -> None:
    """Deals queued without waiting, then the result through ``run``: once ``run``
    returns, every deal is on disk, before the result (the store lists a finished
    match's deals only)."""
    writer = StoreWriter()
    gate = threading.Event()  # holds the thread at its first job: the rest stays queued
    writer.write(gate.wait)
    match_id, records = a_match()
    for record in records:
        writer.write(functools.partial(store.add_deal, record))
    gate.set()
    await writer.run(finish(store, match_id))
    assert stored(store, match_id) == [r["deal_no"] for r in records]
    assert await writer.run(lambda: 42) == 42  # its result comes back
    writer.close()


async def test_a_failed_run_raises_in_its_caller_and_a_failed_write_stops_nothing(
    store: Store,
) -> None:
    writer = StoreWriter()
    done: list[str] = []

    def failing() -> None:
        raise RuntimeError("disk full")

    writer.write(failing)  # logged; the writes after it still happen
    writer.write(lambda: done.append("after"))
    with pytest.raises(RuntimeError, match="disk full"):
        await writer.run(failing)
    assert done == ["after"]
    writer.close()


def test_closing_writes_everything_still_queued(store: Store) -> None:
    writer = StoreWriter()
    gate = threading.Event()
    writer.write(gate.wait)
    match_id, records = a_match()
    for record in records:
        writer.write(functools.partial(store.add_deal, record))
    writer.write(finish(store, match_id))

    def open_once_closing() -> None:  # the thread still held as close begins, however slow
        while not writer.closed:
            time.sleep(0.001)
        gate.set()

    threading.Thread(target=open_once_closing, daemon=True).start()
    writer.close()
    assert stored(store, match_id) == [r["deal_no"] for r in records]
    writer.write(lambda: store.add_deal({**records[0], "match": "m-late"}))  # closed: at once
    writer.write(finish(store, "m-late"))
    assert stored(store, "m-late") == [records[0]["deal_no"]]


async def test_a_run_is_not_cancelled_halfway(store: Store) -> None:
    """The write is under way: a cancel waits for it (as trio.to_thread's does)."""
    writer = StoreWriter()
    entered, gate = threading.Event(), threading.Event()
    scope = trio.CancelScope()
    returned: list[bool] = []  # whether the write was done when run returned

    def write() -> None:
        entered.set()
        gate.wait()

    async def running() -> None:
        with scope:
            await writer.run(write)
        returned.append(gate.is_set())

    # cancelled once the write is under way, the write let finish only when trio has
    # nothing else to do (a run that gave up has returned by then): not a 10 ms limit
    # against a 50 ms timer, which a stall between them on a loaded machine turned over
    async with trio.open_nursery() as nursery:
        nursery.start_soon(running)
        await trio.to_thread.run_sync(entered.wait)
        scope.cancel()
        await trio.testing.wait_all_tasks_blocked()
        gate.set()
    assert returned == [True] and scope.cancel_called
    writer.close()


async def ann_and_bob_play_to_the_first_record(
    port: int, both_called: bool = False
) -> tuple[LineClient, LineClient, str]:
    """``ann`` and ``bob`` seated at a two-player table on the server at ``port``, played
    to the first deal's record (``both_called``: the first in whose deal each made a
    call: a first call of chetyre-semerki, in the rare deal of four sevens, redeals at
    once): both clients and the match's id."""
    ann = await machine_client(port, "ann")
    bob = await machine_client(port, "bob")
    await seat_pair(ann, bob, "2 to-301")

    def is_record(line: str) -> bool:
        if not line.startswith("record "):
            return False
        calls = json.loads(fields(line)[1]["text"])["calls"]
        return not both_called or len({c["seat"] for c in calls}) == 2

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_machine, bob, random.Random(1), is_record)
        record = await play_machine(ann, random.Random(2), is_record)
    return ann, bob, json.loads(fields(record)[1]["text"])["match"]


async def test_a_server_that_stops_writes_the_deals_still_queued(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal told while the store's writes lag behind (the writer held at it) is on disk
    once the server has stopped: serve closes the writer, which writes what is queued,
    before it closes the store."""
    held, gate = threading.Event(), threading.Event()
    add_deal = SQLiteStore.add_deal

    def held_add_deal(store: SQLiteStore, record: dict[str, Any], **given: Any) -> None:
        held.set()
        gate.wait()
        add_deal(store, record, **given)

    monkeypatch.setattr(SQLiteStore, "add_deal", held_add_deal)
    async with running_server(make_config(db_path)) as port:
        ann, bob, match_id = await ann_and_bob_play_to_the_first_record(port)
        assert await trio.to_thread.run_sync(held.wait, 10)  # its write waits in the writer
        threading.Timer(0.2, gate.set).start()  # let go while the server is stopping
        await close_all([ann, bob])
    assert gate.is_set()
    store = open_store(db_path)
    try:  # (a stopped server's matches are no longer running: their deals are listed)
        assert stored(store, match_id) == [1]
    finally:
        store.close()


async def test_a_deal_whose_write_fails_is_logged_and_its_table_plays_on(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A queued deal's write that fails is logged (its table told the deal already) and
    missing from the store; the table plays on, and the match's end is stored and told
    as ever (docs/scaling.md)."""
    add_deal = SQLiteStore.add_deal

    def failing_add_deal(store: SQLiteStore, record: dict[str, Any], **given: Any) -> None:
        if record["deal_no"] == 1:
            raise sqlite3.OperationalError("disk I/O error")
        add_deal(store, record, **given)

    monkeypatch.setattr(SQLiteStore, "add_deal", failing_add_deal)
    with structlog.testing.capture_logs() as logs:
        async with running_server(make_config(db_path)) as port:
            ann, bob, match_id = await ann_and_bob_play_to_the_first_record(port)
            await ann.send("leave")  # the table played on: the match ends (a forfeit)
            end = await bob.expect("event", kind="match-end")
            assert end["reason"] == "left"
            await close_all([ann, bob])
    (failed,) = [e for e in logs if e["log_level"] == "error"]
    assert failed["event"] == "store_write_failed"
    assert (failed["match"], failed["deal"]) == (match_id, 1)  # what was lost, by name
    store = open_store(db_path)
    try:
        (game,) = store.recent_games("ann")
        assert (game["match"], game["reason"]) == (match_id, "left")
        assert 1 not in stored(store, match_id)
    finally:
        store.close()


@pytest.mark.parametrize("end", ["played out", "left"])
async def test_a_match_whose_end_the_store_cannot_take_is_told_as_played(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, end: str
) -> None:
    """A full disk at a match's end (its result's write, with its last deal's or after
    a leave) loses the record, not the match: the players are told its end as played,
    the loss is logged as a write's (`store_write_failed`, naming the match), and the
    table closes as after any match. It failed the table as a bug (`table_error`, the
    players told `the table failed`, no result), at every match's end while the disk
    was full (docs/settings.md, "Logs")."""

    def full_disk(*_: Any, **__: Any) -> None:
        full = sqlite3.OperationalError("database or disk is full")
        full.sqlite_errorcode = sqlite3.SQLITE_FULL  # (as SQLite's own has it)
        raise full

    monkeypatch.setattr(SQLiteStore, "finish_match", full_disk)
    with structlog.testing.capture_logs() as logs:
        async with running_server(make_config(db_path)) as port:
            if end == "left":
                ann, bob, match_id = await ann_and_bob_play_to_the_first_record(port)
                await ann.send("leave")
                told = await bob.expect("event", kind="match-end")
                assert told["reason"] == "left"
            else:
                ann = await machine_client(port, "ann")
                bob = await machine_client(port, "bob")
                await seat_pair(ann, bob, "2 to-301")
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(play_machine, bob, random.Random(1))
                    told = fields(await play_machine(ann, random.Random(2)))[1]
                match_id = told["match"]
                assert told["reason"] in ("target", "claim")
            await ann.send("tables")  # the server plays on: the table is closed
            assert (await ann.expect("tables"))["count"] == "0"
            await close_all([ann, bob])
    failed = [e for e in logs if e["log_level"] == "error"]
    assert [(e["event"], e["match"]) for e in failed] == [("store_write_failed", match_id)]
    assert "table_error" not in [e["event"] for e in logs]


async def test_a_bug_at_a_matchs_end_fails_its_table_as_a_bug_not_as_the_store(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the store cannot take (its database's own error) loses the record, not the
    match; a bug in the code that writes it (the ratings' arithmetic, here a KeyError)
    is no full disk: it fails the table as any bug does (`table_error`, the players told
    `the table failed`), not logged `store_write_failed`, whose row tells the operator
    to look at the disk (docs/settings.md, "Logs")."""

    def broken_ratings(*_: Any, **__: Any) -> list[Any]:
        raise KeyError("a bug in the ratings")

    monkeypatch.setattr("deberc_net.server.table.new_ratings", broken_ratings)
    with structlog.testing.capture_logs() as logs:
        async with running_server(make_config(db_path)) as port:
            # both made a call: the match is rated (one left before both had is not)
            ann, bob, _ = await ann_and_bob_play_to_the_first_record(port, both_called=True)
            await ann.send("leave")
            failed = await bob.expect("error", code="internal")
            assert "failed" in failed["text"]
            await close_all([ann, bob])
    events = [e["event"] for e in logs if e["log_level"] == "error"]
    assert events == ["table_error"], events
