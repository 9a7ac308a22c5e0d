"""``serve --workers``: a table number not known here (yet) is looked for up to LOOK_S
(two snapshots) before it is refused: ann opens a table on one worker and bob, on
another, types ``sit T`` at once — refused 'there is no table T' until its copy came, a
quarter of a second or so later (a tryout, s44; docs/scaling.md, "A table just opened
elsewhere"). A real worker in this process on PostgreSQL, the test playing the other
worker on the real bus (its numbers drawn from the store, as a worker draws them: a
number never drawn is refused at once, tests/store/test_workers_never_drawn.py)."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import psycopg
import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, Bus
from deberc_net.server.cluster.looks import LOOK_S
from tests.server.client import LineClient, fields, log_in_machine

from .workers import OTHER, heard_one, told_table, until_listed, worker_and_bus

TABLE = 9201  # the other worker's table (the real worker draws its own from 1)
DRAWN = 9300  # the highest number the other worker drew: a table of none yet below it


def drawn_elsewhere(url: str) -> None:
    """The other worker draws its table numbers, up to DRAWN (its block, as
    ``new_table_numbers`` takes one from the sequence)."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("SELECT setval('table_numbers', %s)", (DRAWN,))


async def heard_here(port: int, other: Bus) -> LineClient:
    """bob, logged in at the real worker once it has heard the other (ann is listed)."""
    bob = await log_in_machine(await LineClient.connect(port), "bob")
    claim = {"k": "in", "name": "ann", "guest": True, "token": "annstoken1"}
    other.publish(LOBBY, claim | {"fresh": True, "at": time.time(), "s": 1})
    await until_listed(bob, "who", "ann")
    return bob


def opened(other: Bus, table: int) -> None:
    """The other worker tells its new table (its snapshot)."""
    other.publish(LOBBY, {"k": "tables", "open": [told_table(table, ["ann", None])], "gone": []})


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_sit_and_an_observe_before_the_tables_copy_came_wait_for_it(
    postgres_url: str,
) -> None:
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            drawn_elsewhere(postgres_url)
            bob = await heard_here(port, other)
            carl = await log_in_machine(await LineClient.connect(port), "carl")
            here = (await heard_one(heard, k="in", name="bob"))["w"]
            await bob.send(f"sit {TABLE}")
            await carl.send(f"observe {TABLE + 1}")
            # not refused at once (before: 'there is no table 9201' here)
            assert await bob.drain(0.1) == [], "refused before its copy could come"
            opened(other, TABLE)
            opened(other, TABLE + 1)
            sit = await heard_one(heard, k="post", table=TABLE, m="sit")
            assert sit["w"] == here and sit["who"][0] == "bob", sit
            watch = await heard_one(heard, k="post", table=TABLE + 1, m="observe")
            assert watch["who"][0] == "carl", watch
            for client in (bob, carl):
                await client.aclose()


@pytest.mark.timeout(100)
async def test_a_number_no_table_has_is_refused_after_the_look_one_line_at_a_time(
    postgres_url: str,
) -> None:
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            drawn_elsewhere(postgres_url)
            bob = await heard_here(port, other)
            started = trio.current_time()
            await bob.send(f"sit {DRAWN}")  # drawn, no table: looked for, then refused
            refused = await bob.expect("error", code="unknown-table")
            took = trio.current_time() - started
            assert f"there is no table {DRAWN}" in refused["text"], refused
            assert LOOK_S * 0.9 <= took < LOOK_S * 4, took  # looked for, then said
            # a loop of them: one look at a time, each line answered in order after
            # the one before (none piles up), the worker answering the others meanwhile
            loop = 4
            started = trio.current_time()
            for _ in range(loop):
                await bob.send(f"sit {DRAWN - 1}")
            await bob.send("ping")
            # the worker is not held meanwhile: another's line is answered at once
            dave = await log_in_machine(await LineClient.connect(port), "dave")
            await dave.send("ping")
            await dave.expect("ok", cmd="ping")
            assert trio.current_time() - started < loop * LOOK_S * 0.9, "held"
            answers = []
            for _ in range(loop + 1):
                answers.append(fields(await bob.read_until(lambda x: True, 30))[0])
            assert answers == ["error"] * loop + ["ok"], answers
            assert trio.current_time() - started >= loop * LOOK_S * 0.9
            # a malformed one, and one named at a table known here, are told at once
            await bob.send("new 2")
            table = (await bob.expect("ok", cmd="sit"))["table"]
            started = trio.current_time()
            await bob.send("observe x")
            await bob.expect("error", code="bad-argument")
            await bob.send(f"sit {table}")  # (seated: told so, not looked for)
            await bob.expect("error", code="already-seated")
            assert trio.current_time() - started < LOOK_S, "looked for"
            await bob.send(f"rules {DRAWN}")  # (a number, not known: looked for, refused)
            await bob.expect("error", code="unknown-table")
            await bob.send(f"rules {table}")
            await bob.expect("rules")
            for client in (bob, dave):
                await client.aclose()


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            json.load(reply)
            return int(reply.status)
    except urllib.error.HTTPError as failed:
        return int(failed.code)


@pytest.mark.timeout(100)
async def test_the_web_page_of_a_table_just_opened_elsewhere_waits_for_its_copy(
    postgres_url: str,
) -> None:
    heard: list[dict[str, Any]] = []
    web: list[int] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER, web) as (port, other):
            drawn_elsewhere(postgres_url)
            bob = await heard_here(port, other)
            statuses: list[int] = []

            async def ask(table: int) -> None:
                url = f"http://127.0.0.1:{web[0]}/api/tables/{table}"
                statuses.append(await trio.to_thread.run_sync(_get, url))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(ask, TABLE)
                await trio.sleep(0.1)  # (its request on its way first: 404 before)
                opened(other, TABLE)
            assert statuses == [200], statuses
            await ask(TABLE + 50)  # none has it: still 404
            assert statuses == [200, 404], statuses
            await bob.aclose()
