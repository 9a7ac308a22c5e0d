"""A player who comes back while his finished match is being written is in the lobby
(moved here from tests/server/test_reconnect.py, which slowed the write with a patched
copy of the store's method). The write is held up for real, as another program on the
same database would: a second connection holds a lock on the matches table, the
server's write waits for it (seen waiting in pg_stat_activity), and the player logs
back in meanwhile: PostgreSQL, whose pool reads his account while the write waits (on
SQLite the store is one connection: a login would wait for the write too)."""

from __future__ import annotations

import functools

import psycopg
import trio

from deberc_net.server.app import serve
from deberc_net.testing import rule_book
from tests.server.client import close_all, is_event, machine_client, seat_pair
from tests.server.conftest import make_config

from .locks import waiting_for_locks


async def _until(condition: functools.partial[bool]) -> None:
    while not await trio.to_thread.run_sync(condition):
        await trio.sleep(0.01)


async def test_back_while_the_match_is_being_stored(postgres_url: str) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            config = make_config(postgres_url)
            port = await nursery.start(functools.partial(serve, config, rules=rule_book()))
            ann = await machine_client(port, "ann")
            bob = await machine_client(port, "bob")
            clients = [ann, bob]
            try:
                await seat_pair(ann, bob)
                await bob.read_until(lambda x: x.startswith(("ask ", "state ")))
                await bob.aclose()
                await ann.expect("event", kind="away")
                with psycopg.connect(postgres_url) as other:
                    # blocks writing a match's row, not reading it (nor an account)
                    other.execute("LOCK TABLE matches IN EXCLUSIVE MODE")
                    await ann.send("leave")  # the match ends: its result must wait
                    await ann.expect("ok", cmd="leave")
                    await _until(functools.partial(lambda: waiting_for_locks(other) > 0))
                    again = await machine_client(port, "bob", token=bob.token)
                    clients.append(again)
                    assert waiting_for_locks(other) > 0  # back while it is being stored
                    other.rollback()
                end = await ann.expect("event", kind="match-end")
                assert end["reason"] == "left"
                # he was back before the end was told: it is told to him too
                assert is_event(
                    await again.read_until(lambda x: x.startswith("event ")), "match-end"
                )
                await again.send("new 2")  # in the lobby, free to sit anywhere
                await again.expect("ok", cmd="sit")
            finally:
                await close_all(clients)
            nursery.cancel_scope.cancel()
