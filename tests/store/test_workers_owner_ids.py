"""An owner's answers to a stand-in's requests at two of its tables (``serve
--workers``, docs/scaling.md): each names its own request, whichever table answers
first. A real worker in this process on PostgreSQL owns the tables; the test plays the
player's worker on the real bus."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, channel
from tests.server.client import LineClient, is_event, log_in_machine

from .workers import OTHER, heard_one, worker_and_bus

ZED = 7  # the session id of the player the test's worker holds
WHO = ["zed", True, "machine", "en", "rank", None, "all"]


async def _opened(port: int, name: str) -> tuple[LineClient, int]:
    """``name`` logged in at the worker, at a two-seat table of his own: its id."""
    client = await log_in_machine(await LineClient.connect(port), name)
    await client.send("new 2")
    return client, int((await client.expect("ok", cmd="sit"))["table"])


def _post(table: int, request: int, kind: str, **more: Any) -> dict[str, Any]:
    """zed's line for ``table`` as his worker forwards it, its request id ``request``."""
    body = {"k": "post", "table": table, "req": True, "m": kind, "s": ZED, "who": WHO}
    return body | {"r": request} | more


async def _answer(heard: list[dict[str, Any]], text: str) -> dict[str, Any]:
    """The first text to zed holding ``text`` (waiting for it)."""
    with trio.fail_after(30):
        while True:
            for message in heard:
                if message["k"] == "text" and text in message["text"]:
                    return message
            await trio.sleep(0.01)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_stand_ins_answer_names_its_own_request_when_another_table_lags(
    postgres_url: str,
) -> None:
    # zed's 'leave!' at his table waits there on the database (the match's end is
    # written before anyone is told); his worker, its wait run out, sends his next line
    # ('observe' of another table), which is answered at once: the answer named the
    # 'leave!' (the owner took its stand-in's ids oldest first, not per table), so his
    # worker ended the wait of a line not yet answered (failed before)
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, bus):
            amy, first = await _opened(port, "amy")
            bob, second = await _opened(port, "bob")
            owner = channel((await heard_one(heard, k="in", name="bob"))["w"])
            bus.publish(LOBBY, {"k": "tables", "open": [], "gone": []})
            bus.publish(owner, _post(first, 100, "sit", seat=None, seeking=None))
            await heard_one(heard, k="text", done=[100])
            await amy.read_until(lambda x: is_event(x, "deal"))  # the match runs
            with psycopg.connect(postgres_url) as db:
                db.execute("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE")  # its end waits
                heard.clear()
                bus.publish(owner, _post(first, 101, "leave", confirmed=True))
                bus.publish(owner, _post(second, 102, "observe"))
                answer = await _answer(heard, "cmd=observe")
                assert answer.get("done") == [102], answer
                db.rollback()  # the match's end is written: the 'leave!' is answered
            await heard_one(heard, k="text", done=[101])
            await amy.aclose()
            await bob.aclose()
