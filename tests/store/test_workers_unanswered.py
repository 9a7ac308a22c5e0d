"""What a worker does when another one lives but does not answer as it should
(``serve --workers``, docs/scaling.md): a real worker in this process on PostgreSQL,
the other played by the test on the real bus, sending what a worker sends (or not)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, Bus
from tests.server.client import LineClient, fields, log_in_machine
from tests.stall_meter import stall_meter

from .workers import OTHER, heard_one, told_table, until_listed, worker_and_bus

TABLE = 5000
DEAD_MS = 2000
REFUSED = f"error code=table-full text=table {TABLE} is full\r\n"


def _tell_table(owner: Bus) -> None:
    table = told_table(TABLE, ["amy", None])
    owner.publish(LOBBY, {"k": "tables", "open": [table], "gone": []})


def _text(sid: int, text: str, answering: dict[str, Any]) -> dict[str, Any]:
    """The owner's text to session ``sid``, the answer of request ``answering``."""
    return {"k": "text", "s": sid, "text": text, "asks": 0, "done": [answering["r"]]}


async def _pong_within(bob: LineClient, limit_s: float) -> None:
    """bob's pong comes within ``limit_s`` of this process's running (the worker is in
    it): a stall of the machine's meanwhile is not a wait of the worker's."""
    with stall_meter() as meter:
        start = time.monotonic()
        await bob.expect("ok", cmd="ping")
        ran = meter.ran_s(start, time.monotonic())
    assert ran < limit_s, f"the pong came {ran:.2f} s on"


async def _answered_before_the_pong(
    bob: LineClient, owner: Bus, sid: int, sit: dict[str, Any]
) -> None:
    """The owner refuses ``sit`` (sent with a 'ping' behind it) a moment later: only
    then is the pong sent."""
    await trio.sleep(0.3)  # (the pong would have come by now)
    owner.publish(f"w{sit['w']}", _text(sid, REFUSED, sit))
    line = await bob.read_until(lambda x: "cmd=ping" in x or "table-full" in x)
    assert fields(line)[0] == "error", line
    await bob.expect("ok", cmd="ping")


@asynccontextmanager
async def _worker_and_owner(
    postgres_url: str, heard: list[dict[str, Any]], dead_ms: int = DEAD_MS
) -> AsyncIterator[tuple[int, Bus, trio.Nursery]]:
    """A worker in this process (its port) and the owner of table TABLE, which the test
    plays on the bus (``heard``: what it hears), with a nursery for its beats;
    ``dead_ms``: the worker's server_dead_ms."""
    with trio.fail_after(60):
        async with (
            worker_and_bus(postgres_url, heard, OTHER, dead_ms=dead_ms) as (port, owner),
            trio.open_nursery() as nursery,
        ):
            yield port, owner, nursery
            nursery.cancel_scope.cancel()


async def _beat(owner: Bus) -> None:
    """The other worker lives: it tells its table every quarter second."""
    while True:
        _tell_table(owner)
        await trio.sleep(0.25)


@pytest.mark.timeout(100)  # its _worker_and_owner's fail_after(60), then its clean-up
async def test_a_line_waits_no_longer_than_server_dead_ms_for_a_living_owners_answer(
    postgres_url: str,
) -> None:
    # the table's owner lives (it beats) but never says its answer is done (its
    # message lost, an older version, a failure there): bob's input was never read
    # again, his 'ping' never answered (failed before)
    heard: list[dict[str, Any]] = []
    async with _worker_and_owner(postgres_url, heard) as (port, owner, nursery):
        nursery.start_soon(_beat, owner)
        bob = await log_in_machine(await LineClient.connect(port), "bob")
        await until_listed(bob, "tables", f"id={TABLE} ")
        start = trio.current_time()
        await bob.send_raw(f"sit {TABLE}\nping\n".encode())
        await heard_one(heard, k="post", m="sit", table=TABLE)
        await bob.read_until(lambda x: fields(x)[0] == "ok" and "cmd=ping" in x, 30)
        # it waited for the answer first, as long as the owner could still give it
        assert trio.current_time() - start >= DEAD_MS / 1000
        # that owner is not waited for again (a worker of an older version never
        # says it is done: each line waited server_dead_ms) ...
        asked = await heard_one(heard, k="post", m="sit", table=TABLE)
        to, sid = f"w{asked['w']}", asked["s"]
        await bob.send_raw(f"observe {TABLE}\nping\n".encode())
        await _pong_within(bob, DEAD_MS / 1000 / 2)
        observe = await heard_one(heard, k="post", m="observe", table=TABLE)
        # ... until it says an answer is done: then it is, as it should be
        owner.publish(to, _text(sid, REFUSED, asked))
        await bob.expect("error", code="table-full")
        heard.clear()
        await bob.send_raw(f"sit {TABLE}\nping\n".encode())
        again = await heard_one(heard, k="post", m="sit", table=TABLE)
        # the late answer of the 'observe' is none of this 'sit': the waits were
        # counted, not matched to their requests, and it let this line go, its
        # pong before its answer (failed before)
        owner.publish(to, _text(sid, f"ok cmd=observe table={TABLE}\r\n", observe))
        await bob.expect("ok", cmd="observe")
        await _answered_before_the_pong(bob, owner, sid, again)
        await bob.aclose()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_worker_back_from_the_dead_is_asked_what_it_holds_when_it_says_hello(
    postgres_url: str,
) -> None:
    # a worker taken for dead that comes back saying 'hello' first (it had taken the
    # others for dead too) was told everything, but never asked what it holds: its
    # players and tables stayed forgotten here (failed before)
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER, dead_ms=DEAD_MS) as (port, owner):
            bob = await log_in_machine(await LineClient.connect(port), "bob")
            _tell_table(owner)
            await until_listed(bob, "tables", f"id={TABLE} ")
            await until_listed(bob, "tables", f"id={TABLE} ", present=False)  # silent: dead
            told = len(heard)
            owner.publish(LOBBY, {"k": "hello"})
            with trio.fail_after(30):
                while not [
                    m for m in heard[told:] if m.get("k") == "hello" and m.get("w") != OTHER
                ]:
                    await trio.sleep(0.01)
            _tell_table(owner)  # (what the hello asks for)
            await until_listed(bob, "tables", f"id={TABLE} ")
            await bob.aclose()


@pytest.mark.timeout(100)  # its _worker_and_owner's fail_after(60), then its clean-up
async def test_a_late_done_from_a_worker_taken_for_dead_does_not_release_a_newer_wait(
    postgres_url: str,
) -> None:
    # a worker silent past server_dead_ms is forgotten (bob's wait for it with it);
    # back, its answer of that old request let bob's next line go before its own
    # answer (the waits were counted: failed before)
    heard: list[dict[str, Any]] = []
    async with _worker_and_owner(postgres_url, heard) as (port, owner, nursery):
        bob = await log_in_machine(await LineClient.connect(port), "bob")
        _tell_table(owner)
        await until_listed(bob, "tables", f"id={TABLE} ")
        await bob.send_raw(f"sit {TABLE}\nping\n".encode())
        sit = await heard_one(heard, k="post", m="sit", table=TABLE)
        to, sid = f"w{sit['w']}", sit["s"]
        await bob.read_until(lambda x: fields(x)[0] == "ok" and "cmd=ping" in x, 30)
        await until_listed(bob, "tables", f"id={TABLE} ", present=False)  # silent: forgotten
        nursery.start_soon(_beat, owner)  # back
        await until_listed(bob, "tables", f"id={TABLE} ")
        heard.clear()
        await bob.send_raw(f"sit {TABLE}\nping\n".encode())
        again = await heard_one(heard, k="post", m="sit", table=TABLE)
        owner.publish(to, _text(sid, REFUSED, sit))  # the old one's answer, late
        await bob.expect("error", code="table-full")
        await _answered_before_the_pong(bob, owner, sid, again)
        await bob.aclose()


@pytest.mark.timeout(100)  # its _worker_and_owner's fail_after(60), then its clean-up
async def test_an_owner_that_counts_its_answers_done_still_lets_the_next_line_go(
    postgres_url: str,
) -> None:
    # an owner of the version before request ids (a rolling upgrade) says how many
    # requests an answer ended ('done': 1), not which: reading it as ids failed
    # (TypeError, the message's wait kept), so each line waited server_dead_ms for
    # its pong (failed before)
    heard: list[dict[str, Any]] = []
    # a longer wait than the others' (nothing here waits it out when all is well): a
    # loaded machine's bus round trip took longer than half of 2 s (failed once)
    dead_ms = 3 * DEAD_MS
    async with _worker_and_owner(postgres_url, heard, dead_ms) as (port, owner, nursery):
        nursery.start_soon(_beat, owner)
        bob = await log_in_machine(await LineClient.connect(port), "bob")
        await until_listed(bob, "tables", f"id={TABLE} ")
        for _ in range(2):
            heard.clear()
            await bob.send_raw(f"sit {TABLE}\nping\n".encode())
            sit = await heard_one(heard, k="post", m="sit", table=TABLE)
            await trio.sleep(0.3)  # (the pong would have come by now)
            counted = {"k": "text", "s": sit["s"], "text": REFUSED, "asks": 0, "done": 1}
            owner.publish(f"w{sit['w']}", counted)
            line = await bob.read_until(lambda x: "cmd=ping" in x or "table-full" in x)
            assert fields(line)[0] == "error", line  # (its answer first)
            await _pong_within(bob, dead_ms / 1000 / 2)  # not held till the wait ran out
        await bob.aclose()
