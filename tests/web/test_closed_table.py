"""A closed table's page (docs/web.md): still 404, it is not open, but a public table
links the match it last played (a reload after m12 ended lost the link the live page
had shown); a private table's number answers as a number no table has, byte for byte
(docs/security.md §1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio

from deberc_net.server.store.sqlite import SQLiteStore
from tests.server.client import forfeited_at_once
from tests.server.conftest import Connector

from .conftest import WebServer

NONE = 987654  # a number no table has
NAMES = ("ann", "bob", "cat", "dan")


@pytest.mark.timeout(60)
async def test_a_closed_public_tables_page_links_its_last_match_a_private_ones_nothing(
    start_web: Callable[..., Any], connect: Connector
) -> None:
    web: WebServer = await start_web()
    with trio.fail_after(30):
        ann, bob, cat, dan = [await connect.machine(web.port, n) for n in NAMES]
        hidden, _ = await forfeited_at_once(ann, bob, private=True)
        table, match = await forfeited_at_once(cat, dan)
        link = f'<a href="/games/{match}">{match}</a>'
        while True:  # its task ends a moment after the match
            status, body = await web.get(f"/table/{table}")
            if link in body.decode():
                break
            assert status == 404
            await trio.sleep(0.1)  # (within the requests an address may make)
        page = body.decode()
        assert status == 404 and f"No open table {table}." in page
        assert f"It has closed; its last match: {link}" in page
        status, body = await web.get(f"/table/{table}", headers={"Accept-Language": "ru"})
        russian = body.decode()
        assert status == 404 and f"Нет открытого стола {table}." in russian
        assert f"Он закрыт; его последняя партия: {link}" in russian
        assert (await web.get(f"/games/{match}"))[0] == 200  # the link leads to it

        # the private table closed first: its number is still no table's
        status, body = await web.get(f"/table/{hidden}")
        _, none = await web.get(f"/table/{NONE}")
        assert status == 404 and body == none.replace(str(NONE).encode(), hidden.encode())


@pytest.mark.timeout(60)
async def test_an_open_private_tables_page_reads_the_store_as_a_missing_numbers(
    start_web: Callable[..., Any], connect: Connector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its time too: the page of a number no table has reads the store for the match
    it last played; an open private table's skipped that read (a hostile pass, s45)."""
    read: list[int] = []
    last_match_at = SQLiteStore.last_match_at

    def counted(store: SQLiteStore, table_id: int) -> str | None:
        read.append(table_id)
        return last_match_at(store, table_id)

    monkeypatch.setattr(SQLiteStore, "last_match_at", counted)
    web: WebServer = await start_web()
    with trio.fail_after(30):
        ann = await connect.machine(web.port, "ann")
        await ann.send("new 2 private")
        hidden = int((await ann.expect("ok", cmd="sit"))["table"])
        status, body = await web.get(f"/table/{hidden}")
        _, none = await web.get(f"/table/{NONE}")
        assert status == 404 and body == none.replace(str(NONE).encode(), str(hidden).encode())
        assert read == [hidden, NONE]  # before: [NONE]
