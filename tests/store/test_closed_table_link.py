"""A closed table's web page links the match stored last at its number, read from the
store (docs/web.md): after a restart, from another server on the same database and
from ``serve --workers``' web face (worker 0) for another worker's table, on SQLite and
PostgreSQL. A private table's number still answers as a number no table has, byte for
byte (docs/security.md §1); a table open at the number shows itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from deberc_net.server.store import open_store
from deberc_net.server.store.migrations import MIGRATIONS
from deberc_net.server.web.ladders import LARGEST_ID
from tests.server.client import forfeited_at_once
from tests.server.conftest import Connector, make_config, running_web_server
from tests.web.conftest import WebServer

from .records import deal, opened, raw
from .workers import SETTINGS, served_workers, settings_file

NONE = 987654  # a number no table has
NAMES = ("ann", "bob", "cat", "dan")
PAIR = ["ann", "bob"]


def test_the_match_linked_is_the_last_stored_at_the_number_if_its_table_was_public(
    store_db: str,
) -> None:
    store = opened(store_db)
    try:
        assert store.last_match_at(5) is None  # none stored there
        store.finish_match("m1", 5, PAIR, "moscow", [], "ann", "left", [0, 0], public_table=True)
        assert store.last_match_at(5) == "m1"
        # the number again (an older club's, docs/scaling.md): the last stored there
        store.finish_match("m2", 5, PAIR, "moscow", [], "bob", "left", [0, 0], public_table=True)
        assert store.last_match_at(5) == "m2"
        store.finish_match("m3", 5, PAIR, "moscow", [], "ann", "left", [0, 0])  # a private one's
        assert store.last_match_at(5) is None  # not the public match before it either
        store.finish_match("m4", 6, PAIR, "moscow", [], "ann", "left", [0, 0], public_table=True)
        assert store.last_match_at(5) is None and store.last_match_at(6) == "m4"
        # a ladder's board: its seating kept, then released
        store.add_deal(deal("m5", 1), board="k1")
        store.finish_match("m5", 7, PAIR, "moscow", [], "ann", "score", [301, 0], {1: "s/1"}, "k1")
        assert store.release_board("k1") == 1 and store.finished_match("m5") is not None
        assert store.last_match_at(7) is None
        assert store.last_match_at(LARGEST_ID) is None  # the largest number a path names
    finally:
        store.close()


def test_a_match_stored_before_migration_23_is_linked_from_no_page(new_store_db: str) -> None:
    """Whether its table was public is not known: a private table's number says nothing."""
    opened(new_store_db, migrations=MIGRATIONS[:22]).close()
    raw(
        new_store_db,
        "INSERT INTO matches (id, table_id, players, variant, options, winner, reason, totals)"
        """ VALUES ('m1', 4, '["ann", "bob"]', 'moscow', '[]', 'ann', 'left', '[0, 0]')""",
    )
    store = opened(new_store_db)
    try:
        assert store.schema_version() == len(MIGRATIONS) >= 23
        assert store.finished_match("m1") is not None and store.last_match_at(4) is None
    finally:
        store.close()


def _link(match: str) -> str:
    return f'<a href="/games/{match}">{match}</a>'


async def _linked(web: WebServer, table: str, match: str) -> str:
    """``/table/T``'s page once it links ``match`` (its result is stored a moment after
    the match's end): 404, it is no open table."""
    with trio.fail_after(30):
        while True:
            status, body = await web.get(f"/table/{table}")
            if _link(match) in body.decode():
                break
            await trio.sleep(0.1)  # (within the requests an address may make)
    assert status == 404
    return body.decode()


async def _as_no_tables(web: WebServer, table: str) -> None:
    """``/table/T`` answers, byte for byte, as a number no table has."""
    status, body = await web.get(f"/table/{table}")
    _, none = await web.get(f"/table/{NONE}")
    assert status == 404 and body == none.replace(str(NONE).encode(), table.encode())


@pytest.mark.timeout(90)
async def test_a_closed_tables_link_comes_from_the_store_on_another_server_and_after_a_restart(
    store_db: str,
) -> None:
    config = make_config(store_db, http_port=0)
    connect = Connector()
    try:
        with trio.fail_after(60):
            async with (
                running_web_server(config) as (port, _),
                running_web_server(config) as (_, other_port),
            ):
                ann, bob, cat, dan = [await connect.machine(port, n) for n in NAMES]
                hidden, _ = await forfeited_at_once(ann, bob, private=True)
                table, match = await forfeited_at_once(cat, dan)
                # another server on the database, which never saw either table
                other = WebServer(0, other_port)
                page = await _linked(other, table, match)
                assert f"No open table {table}." in page
                assert f"It has closed; its last match: {_link(match)}" in page
                await _as_no_tables(other, hidden)
                await connect.aclose()
            async with running_web_server(config) as (_, web_port):  # the restart
                web = WebServer(0, web_port)
                page = await _linked(web, table, match)
                assert f"It has closed; its last match: {_link(match)}" in page
                status, body = await web.get(f"/table/{table}", {"Accept-Language": "ru"})
                assert status == 404
                assert f"Он закрыт; его последняя партия: {_link(match)}" in body.decode()
                assert (await web.get(f"/games/{match}"))[0] == 200  # the link leads there
                await _as_no_tables(web, hidden)
                # the API says no open table, as before
                status, body = await web.get(f"/api/tables/{table}")
                assert (status, json.loads(body)) == (404, {"error": f"no open table {table}"})
                # the largest number a path may name: no table's, in either backend
                await _as_no_tables(web, str(LARGEST_ID))
    finally:
        await connect.aclose()


@pytest.mark.timeout(90)
async def test_a_table_open_at_the_number_shows_itself_and_once_closed_links_its_own_match(
    store_db: str,
) -> None:
    """A match stored at the number of a table open now (an older club's, whose table
    numbers started again: 0.1.0, docs/scaling.md): the open table's page, and once it
    closes the match it played, the last stored there, not the older one."""
    config = make_config(store_db, http_port=0)
    connect = Connector()
    try:
        with trio.fail_after(60):
            async with running_web_server(config) as (port, web_port):
                web = WebServer(port, web_port)
                ann, bob = [await connect.machine(port, n) for n in NAMES[:2]]
                await ann.send("new 2")
                table = (await ann.expect("ok", cmd="sit"))["table"]

                def older() -> None:
                    store = open_store(store_db)
                    try:
                        store.finish_match(
                            "m90001", int(table), ["x", "y"], "moscow", [], "x", "left",
                            [0, 0], public_table=True,
                        )  # fmt: skip
                    finally:
                        store.close()

                await trio.to_thread.run_sync(older)
                status, body = await web.get(f"/table/{table}")
                assert status == 200 and "m90001" not in body.decode()  # the table open now
                await bob.send(f"sit {table}")
                await bob.expect("ok", cmd="sit")
                await bob.send("leave!")
                match = (await ann.expect("event", kind="match-end"))["match"]
                page = await _linked(web, table, match)
                assert "m90001" not in page
    finally:
        await connect.aclose()


@pytest.mark.timeout(150)  # its fail_after(100), then its clean-up
async def test_the_web_face_of_workers_links_another_workers_closed_table(
    postgres_url: str, tmp_path: Path
) -> None:
    """The web face is worker 0's: a table worker 1 ran links its match there, a private
    one of worker 1 answers as no table's."""
    settings = settings_file(tmp_path, SETTINGS + "http_port = 0\n")
    with trio.fail_after(100):
        async with served_workers(postgres_url, settings) as workers:
            ann, bob, cat, dan = [await workers.connect(1, n) for n in NAMES]
            try:
                hidden, _ = await forfeited_at_once(ann, bob, private=True)
                table, match = await forfeited_at_once(cat, dan)
            finally:
                for client in (ann, bob, cat, dan):
                    await client.aclose()
            [http] = [e for e in workers.events if e.get("event") == "http_listening"]
            assert http["worker"] == 0  # (worker 1 ran both tables)
            web = WebServer(workers.port, int(http["port"]))
            page = await _linked(web, table, match)
            assert f"It has closed; its last match: {_link(match)}" in page
            await _as_no_tables(web, hidden)
