"""The live pages of another worker's table (``serve --workers``, docs/web.md): what its
owner sends them comes over the bus, in pieces and as one stream per session; the
pages get each line whole and once. A real worker (with its web face) in this process
on PostgreSQL; the table's owner played by the test on the real bus, sending what a
worker sends, when the test chooses."""

from __future__ import annotations

from typing import Any

import pytest
import trio
from trio_websocket import WebSocketConnection, open_websocket_url

from deberc_net.server.cluster.bus import LOBBY, Bus
from tests.server.client import LineClient, log_in_machine
from tests.web.live import lines_of

from .workers import OTHER, heard_one, told_table, until_listed, worker_and_bus

TABLE = 5000
OK = f"ok cmd=observe table={TABLE} text=watching\r\n"


def _event(seq: int) -> str:
    return f"event seq={seq} table={TABLE} kind=seated name=p{seq} seat=1\r\n"


async def _lines(page: WebSocketConnection) -> list[str]:
    with trio.fail_after(30):
        message = await page.get_message()
    assert isinstance(message, str)
    return lines_of(message)


async def _observed(heard: list[dict[str, Any]], count: int) -> dict[str, Any]:
    """The ``count``-th page's 'observe', forwarded to the owner."""
    with trio.fail_after(30):
        while True:
            posts = [m for m in heard if m.get("k") == "post" and m.get("m") == "observe"]
            if len(posts) >= count:
                return posts[count - 1]
            await trio.sleep(0.01)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_pages_of_another_workers_table_get_each_line_whole_and_once(
    postgres_url: str,
) -> None:
    heard: list[dict[str, Any]] = []
    web: list[int] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER, web) as (port, owner):
            table = told_table(TABLE, ["amy", None])
            owner.publish(LOBBY, {"k": "tables", "open": [table], "gone": []})
            watcher = await log_in_machine(await LineClient.connect(port), "watcher")
            await until_listed(watcher, "tables", f"id={TABLE} ")
            live = f"ws://127.0.0.1:{web[0]}/live/table/{TABLE}"
            async with open_websocket_url(live) as first:
                asked = await _observed(heard, 1)
                to, feed = f"w{asked['w']}", asked["s"]

                def text(session: int, said: str) -> None:
                    owner.publish(to, {"k": "text", "s": session, "text": said, "asks": 0})

                # the answer, and the start of a deal's record: the rest comes after
                # the page has had its first lines (that rest came to it as a line)
                record = 'record text={"match":"m1","pad":"' + "x" * 3000 + '"}\r\n'
                text(feed, OK + f"state seq=10 table={TABLE}\r\n" + record[:1000])
                assert await _lines(first) == [OK[:-2], f"state seq=10 table={TABLE}"]
                text(feed, record[1000:] + _event(11))
                assert await _lines(first) == [_event(11)[:-2]]
                # a second page: the owner's answer to it comes after a line it sent
                # the first page's stream later (so the page missed that line)
                async with open_websocket_url(live) as second:
                    mine = (await _observed(heard, 2))["s"]
                    text(feed, _event(12))
                    assert await _lines(first) == [_event(12)[:-2]]
                    text(mine, OK + f"state seq=11 table={TABLE}\r\n")
                    marked = await heard_one(heard, k="mark", s=mine)
                    assert f"w{marked['w']}" == to
                    text(mine, _event(12))  # the owner: what it sent before the mark
                    owner.publish(to, {"k": "marked", "s": mine})
                    text(feed, _event(13))
                    text(mine, _event(13))  # (the page's own session: stopped by now)
                    seen: list[str] = []
                    while _event(13)[:-2] not in seen:
                        seen += await _lines(second)
                    assert seen == [
                        OK[:-2],
                        f"state seq=11 table={TABLE}",
                        _event(12)[:-2],
                        _event(13)[:-2],
                    ]
                    assert await _lines(first) == [_event(13)[:-2]]
            await watcher.aclose()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_second_page_joins_without_the_mark_of_an_owner_that_never_marks(
    postgres_url: str,
) -> None:
    # a worker of an older version lives but never answers 'mark': the second page
    # showed nothing for as long as the table lasted (failed before)
    heard: list[dict[str, Any]] = []
    web: list[int] = []
    dead_ms = 2000

    async def beat(owner: Bus) -> None:
        table = told_table(TABLE, ["amy", None])
        while True:  # the owner lives
            owner.publish(LOBBY, {"k": "tables", "open": [table], "gone": []})
            await trio.sleep(0.25)

    with trio.fail_after(60):
        async with (
            worker_and_bus(postgres_url, heard, OTHER, web, dead_ms) as (port, owner),
            trio.open_nursery() as nursery,
        ):
            nursery.start_soon(beat, owner)
            watcher = await log_in_machine(await LineClient.connect(port), "watcher")
            await until_listed(watcher, "tables", f"id={TABLE} ")
            live = f"ws://127.0.0.1:{web[0]}/live/table/{TABLE}"
            async with open_websocket_url(live) as first:
                asked = await _observed(heard, 1)
                to = f"w{asked['w']}"
                state = f"state seq=10 table={TABLE}\r\n"
                owner.publish(to, {"k": "text", "s": asked["s"], "text": OK + state, "asks": 0})
                assert await _lines(first) == [OK[:-2], state[:-2]]
                async with open_websocket_url(live) as second:
                    mine = (await _observed(heard, 2))["s"]
                    owner.publish(to, {"k": "text", "s": mine, "text": OK + state, "asks": 0})
                    await heard_one(heard, k="mark", s=mine)
                    start = trio.current_time()
                    assert await _lines(second) == [OK[:-2], state[:-2]]
                    assert trio.current_time() - start >= dead_ms / 1000 / 2  # (it waited)
            await watcher.aclose()
            nursery.cancel_scope.cancel()
