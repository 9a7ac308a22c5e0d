"""Plain servers on one database (docs/scaling.md, "Several servers on one database"):
what an admin's 'mutes' lists on any of them is what each enforces, within one
heartbeat, and 'unmute' works from any (docs/protocol.md §5.19), on both stores."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store
from tests.server.client import LineClient
from tests.server.conftest import Connector, make_config, running_server

MUTED = (
    "boss (an admin) mutes you for 5 min: shouting. Your 'say' and 'invite' are refused until then."
)
# (the store keeps who lifted a mute: it was 'An admin lets you talk again.')
LIFTED = "boss (an admin) lets you talk again."


async def _refusal(client: LineClient, line: str) -> dict[str, str]:
    await client.send(line)
    return await client.expect("error")


async def _waiting_for_a_lock(watcher: psycopg.Connection[Any], statement: str) -> None:
    """Until a statement that begins ``statement`` waits for a lock in the database."""

    def waiting() -> bool:
        row = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND query LIKE %s",
            (statement + "%",),
        ).fetchone()
        return row is not None and int(row[0]) > 0

    with trio.fail_after(20):
        while not await trio.to_thread.run_sync(waiting):
            await trio.sleep(0.02)


@pytest.mark.timeout(60)
async def test_a_mute_made_or_lifted_on_one_server_holds_on_every_server_on_its_database(
    store_db: str,
) -> None:
    """Before, each server enforced only the mutes in its own memory: ann, muted on A,
    talked on B, whose 'mutes' listed her, and B's 'unmute ann' said she was not muted."""
    store = open_store(store_db)
    try:
        set_password(store, "boss", "owners")
    finally:
        store.close()
    looking = make_config(store_db, admins=["boss"], heartbeat_ms=50)
    still = make_config(store_db, admins=["boss"])  # (no heartbeat in the test's time)
    connect = Connector()
    try:
        with trio.fail_after(45):
            async with (
                running_server(looking) as port_a,
                running_server(looking) as port_b,
                running_server(still) as port_c,
            ):
                boss_a = await connect.machine(port_a, "boss", "owners")
                boss_b = await connect.machine(port_b, "boss", "owners")
                ann_a = await connect.machine(port_a, "ann")
                ann_b = await connect.machine(port_b, "ann")

                await boss_a.send("mute ann 5 shouting")
                await boss_a.expect("ok", cmd="mute", name="ann")
                assert (await ann_a.expect("info"))["text"] == MUTED  # at once, on A
                assert (await ann_b.expect("info"))["text"] == MUTED  # at B's next look
                assert (await _refusal(ann_b, "say let me speak"))["code"] == "muted"
                await boss_b.send("mutes")
                assert await boss_b.expect("mutes") == {"count": "1"}

                await boss_b.send("unmute ann")
                await boss_b.expect("ok", cmd="unmute", name="ann")
                assert (await ann_b.expect("info"))["text"] == LIFTED  # at once, on B
                assert (await ann_a.expect("info"))["text"] == LIFTED  # at A's look
                for ann in (ann_a, ann_b):
                    await ann.send("say thanks")
                    await ann.expect("say", text="thanks")
                assert await _refusal(boss_a, "unmute ann") == {
                    "code": "not-allowed",
                    "text": "ann is not muted",
                }

                # C has not looked at the store since it started: its 'unmute' ends the
                # mute A made in the store, and A and B let her talk at their next look
                await boss_a.send("mute ann 3")
                await boss_a.expect("ok", cmd="mute", name="ann")
                for ann in (ann_a, ann_b):
                    told = (await ann.expect("info"))["text"]
                    assert told.startswith("boss (an admin) mutes you for 3 min.")
                boss_c = await connect.machine(port_c, "boss", "owners")
                await boss_c.send("unmute ann")
                await boss_c.expect("ok", cmd="unmute", name="ann")
                for ann in (ann_a, ann_b):
                    assert (await ann.expect("info"))["text"] == LIFTED
                    await ann.send("say free again")
                    await ann.expect("say", text="free again")
                assert (await _refusal(boss_c, "unmute ann"))["text"] == "ann is not muted"
                await boss_b.send("mutes")
                assert await boss_b.expect("mutes") == {"count": "0"}
                # each was told each mute and each end once, however many looks came after
                for ann in (ann_a, ann_b):
                    assert len([x for x in ann.lines if x.startswith("info ")]) == 4
    finally:
        await connect.aclose()


@pytest.mark.timeout(60)
async def test_an_unmute_ends_the_mute_its_server_took_up_while_it_was_being_written(
    postgres_url: str,
) -> None:
    """(On PostgreSQL: its reads do not wait for a delete under way, as SQLite's do.)
    C's 'unmute' of a mute A made that C had not looked at yet: C's look, reading the
    store while the unmute's delete waited (a lock, here the test's), took the mute up.
    It stayed after the 'ok', 'say' refused, till C's next look; it ends with the unmute
    (he told so by the admin), and a look that read before it is not taken."""
    store = open_store(postgres_url)
    try:
        set_password(store, "boss", "owners")
    finally:
        store.close()
    still = make_config(postgres_url, admins=["boss"])  # (no look in the test's time)
    looking = make_config(postgres_url, admins=["boss"], heartbeat_ms=1000)
    connect = Connector()
    locker = await trio.to_thread.run_sync(lambda: psycopg.connect(postgres_url))
    looks_kept_off = await trio.to_thread.run_sync(lambda: psycopg.connect(postgres_url))
    watcher = await trio.to_thread.run_sync(lambda: psycopg.connect(postgres_url, autocommit=True))

    def lock_mutes() -> None:
        looks_kept_off.execute("LOCK TABLE mutes IN ACCESS EXCLUSIVE MODE")

    try:
        with trio.fail_after(45):
            async with running_server(still) as port_a, running_server(looking) as port_c:
                boss_a = await connect.machine(port_a, "boss", "owners")
                boss_c = await connect.machine(port_c, "boss", "owners")
                ann_c = await connect.machine(port_c, "ann")
                zed_c = await connect.machine(port_c, "zed")
                await boss_a.send("mute zed 5")
                await boss_a.expect("ok", cmd="mute", name="zed")
                await zed_c.expect("info")  # C has just looked: its next look is 1 s off
                await boss_a.send("mute ann 5 shouting")
                await boss_a.expect("ok", cmd="mute", name="ann")
                await trio.to_thread.run_sync(
                    lambda: locker.execute("SELECT 1 FROM mutes WHERE key = 'ann' FOR UPDATE")
                )
                await boss_c.send("unmute ann")  # its write waits for the test's lock
                assert (await ann_c.expect("info"))["text"] == MUTED  # C's look took it up
                await _waiting_for_a_lock(watcher, "UPDATE mutes")  # (the unmute's)
                # C's looks are kept off the table from the unmute's write on (they wait
                # behind the test's lock, asked for now, granted once the write is done):
                # the lift told is the unmute's own, not a next look's, however late the
                # 'ok' on a loaded machine (a 0.5 s window before, under C's 1 s looks)
                try:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(trio.to_thread.run_sync, lock_mutes)
                        await _waiting_for_a_lock(watcher, "LOCK TABLE mutes")
                        await trio.to_thread.run_sync(locker.commit)
                        await boss_c.expect("ok", cmd="unmute", name="ann")
                        assert (await ann_c.expect("info"))["text"] == LIFTED
                        await ann_c.send("say thanks")
                        await ann_c.expect("say", text="thanks")
                finally:  # the looks go on (a server stops only once its look is done)
                    with trio.CancelScope(shield=True):
                        await trio.to_thread.run_sync(looks_kept_off.rollback)
    finally:
        locker.close()
        looks_kept_off.close()
        watcher.close()
        await connect.aclose()


@pytest.mark.timeout(60)
async def test_a_look_at_the_mutes_held_up_by_the_store_does_not_hold_up_the_heartbeat(
    postgres_url: str,
) -> None:
    """The look at the store's mutes is a task of its own: run after each beat in the
    heartbeat's task, a look waiting on the store (a lock, here the test's) held the
    beats up, and the other servers on the database, missing them past server_dead_ms,
    would take this one for dead and end its matches."""
    config = make_config(postgres_url, heartbeat_ms=50)
    locker = await trio.to_thread.run_sync(lambda: psycopg.connect(postgres_url))

    def lock() -> object:
        locker.execute("LOCK TABLE mutes IN ACCESS EXCLUSIVE MODE")
        row = locker.execute("SELECT clock_timestamp()").fetchone()
        assert row is not None
        return row[0]

    def beaten_since(locked: object) -> bool:
        """A beat stored a second after the lock was taken (the database's clock)."""
        with psycopg.connect(postgres_url) as db:
            row = db.execute(
                "SELECT count(*) FROM servers WHERE heartbeat > %s + '1 s'::interval",
                (locked,),
            ).fetchone()
            assert row is not None
            return int(row[0]) == 1

    try:
        with trio.fail_after(30):
            async with running_server(config):
                locked = await trio.to_thread.run_sync(lock)  # every look from now on waits
                try:
                    # the beats go on past it (a look in the beat's task held the beats
                    # too: this waited till the limit); not a window of real time, which
                    # a loaded machine's late beat could miss
                    with trio.fail_after(20):
                        while not await trio.to_thread.run_sync(beaten_since, locked):
                            await trio.sleep(0.05)
                finally:  # (the looks go on: the server stops)
                    await trio.to_thread.run_sync(locker.rollback)
    finally:
        locker.close()
