"""One name, one login under ``serve --workers`` (docs/scaling.md) when the workers'
clocks disagree (hosts on one database) and with more than two workers: a real worker
in this process on PostgreSQL, and the other workers played by the test on the real
bus, sending what a worker sends."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio

from deberc_net.server.accounts import set_password
from deberc_net.server.cluster.bus import LOBBY, Bus
from deberc_net.server.store import open_store
from tests.server.client import LineClient, log_in_machine

from .workers import OTHER, heard_one, told_table, worker_and_bus

THIRD = 900002  # the bus id of a third worker the test plays


@asynccontextmanager
async def third_worker(postgres_url: str) -> AsyncIterator[Bus]:
    """The bus of a third worker the test plays (it hears nothing), running."""
    third = Bus(postgres_url, THIRD, lambda _: None)
    third.open()
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(third.run)
            yield third
            nursery.cancel_scope.cancel()
    finally:
        third.close()


async def _claimed_elsewhere(other: Bus, watcher: LineClient, name: str, token: str) -> None:
    """A guest's claim of ``name`` (his ``token``) on the worker the test plays, heard
    here: ``watcher``'s 'who' lists him."""
    claim = {"k": "in", "name": name, "guest": True, "fresh": True, "token": token}
    other.publish(LOBBY, claim | {"at": time.time(), "s": 1})
    with trio.fail_after(30):
        while True:
            await watcher.send("who")
            if name in (await watcher.expect("who"))["names"].split(","):
                return
            await trio.sleep(0.05)


async def _said_in(heard: list[dict[str, Any]], name: str) -> dict[str, Any]:
    while True:
        for message in heard:
            if message.get("k") == "in" and message.get("name") == name:
                return message
        await trio.sleep(0.01)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_later_login_on_a_host_whose_clock_is_behind_still_takes_the_name(
    postgres_url: str, tmp_path: Path
) -> None:
    # the tie-break compared the logins' wall clocks even when the second knew of the
    # first: a host 60 s behind logged 'bob' in again, the first worker kept its
    # connection, the second kept its own: two holders of one name (failed before)
    store = open_store(postgres_url)
    set_password(store, "bob", "goodpass1")
    store.close()
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, bus):
            bob = await log_in_machine(await LineClient.connect(port), "bob", "goodpass1")
            first = await _said_in(heard, "bob")
            # the other worker heard it, then bob logged in there (its clock 60 s behind)
            bus.publish(
                LOBBY,
                {
                    "k": "in",
                    "name": "bob",
                    "guest": False,
                    "token": None,
                    "fresh": False,
                    "at": time.time() - 60,
                    "s": 7,
                    "over": [first["w"], first.get("s")],
                },
            )
            await bob.expect("bye")
            await bob.aclose()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_third_worker_keeps_the_login_that_won_a_race(
    postgres_url: str, tmp_path: Path
) -> None:
    # two workers claimed the guest name 'racer' at once, each before hearing of the
    # other: the first claim keeps it (the second worker closes its connection). A third
    # worker heard both and kept the last it heard, the loser's: its 'who' listed a
    # ghost, and the loser's token took the name there from the winner (failed before)
    heard: list[dict[str, Any]] = []
    at = time.time()
    with trio.fail_after(60):
        async with (
            worker_and_bus(postgres_url, heard, OTHER) as (port, first),
            third_worker(postgres_url) as third,
        ):
            watcher = await log_in_machine(await LineClient.connect(port), "watcher")
            claim = {"k": "in", "name": "racer", "guest": True, "fresh": True}
            first.publish(LOBBY, claim | {"token": "tokenfirst", "at": at, "s": 1})
            first.publish(LOBBY, {"k": "say", "name": "someone", "text": "first"})
            await watcher.expect("say", text="first")  # heard in this order
            third.publish(LOBBY, claim | {"token": "tokenlater", "at": at + 0.5, "s": 1})
            third.publish(LOBBY, {"k": "say", "name": "someone", "text": "after"})
            await watcher.expect("say", text="after")
            await watcher.send("who")
            assert (await watcher.expect("who"))["names"].split(",").count("racer") == 1
            loser = await LineClient.connect(port)
            await loser.send("style machine")
            await loser.send("login racer token=tokenlater")
            await loser.expect("error", code="name-in-use")
            winner = await log_in_machine(
                await LineClient.connect(port), "racer", token="tokenfirst"
            )
            for client in (watcher, loser, winner):
                await client.aclose()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_claim_that_lost_the_race_leaves_no_seat_table_or_token(
    postgres_url: str, tmp_path: Path
) -> None:
    # the losing claim had opened a table ('new'): it kept its seat there, with no
    # connection, and its token, which took the name back from the winner (and the
    # winner's own token was refused here) (failed before)
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            watcher = await log_in_machine(await LineClient.connect(port), "watcher")
            loser = await log_in_machine(await LineClient.connect(port), "racer")
            mark = await _said_in(heard, "racer")
            await loser.send("new 2")
            await loser.expect("ok", cmd="sit")
            # the other worker's claim of the name, made before it heard of this one's
            claim = {"k": "in", "name": "racer", "guest": True, "fresh": True, "s": 1}
            other.publish(LOBBY, claim | {"token": "tokenfirst", "at": mark["at"] - 1})
            await loser.expect("bye")
            await loser.aclose()
            with trio.fail_after(30):  # its table closes: nobody else sat there
                while True:
                    await watcher.send("tables")
                    if (await watcher.expect("tables"))["count"] == "0":
                        break
                    await trio.sleep(0.3)  # (the lists allowance: 'tables' too often)
            again = await LineClient.connect(port)
            await again.send("style machine")
            await again.send(f"login racer token={loser.token}")
            await again.expect("error", code="name-in-use")
            winner = await log_in_machine(
                await LineClient.connect(port), "racer", token="tokenfirst"
            )
            for client in (watcher, again, winner):
                await client.aclose()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_claim_that_lost_the_race_leaves_its_seat_at_another_workers_table(
    postgres_url: str, tmp_path: Path
) -> None:
    # the losing claim sat at a table of the other worker: its stand-in there kept
    # the seat, which the winner then held without having sat (failed before)
    heard: list[dict[str, Any]] = []
    table = told_table(5000, ["amy", None])
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            other.publish(LOBBY, {"k": "tables", "open": [table], "gone": []})
            loser = await log_in_machine(await LineClient.connect(port), "racer")
            mark = await _said_in(heard, "racer")
            # the worker knows of the table before he sits: the 'say' after it heard
            # (in order); hearing its 'in' said nothing of that, and a sit sent first was
            # refused there, never posted (under load: heard_one below timed out)
            other.publish(LOBBY, {"k": "say", "name": "someone", "text": "told"})
            await loser.expect("say", text="told")
            await loser.send("sit 5000")
            sit = await heard_one(heard, k="post", m="sit", table=5000)
            # the other worker, the table's owner, seats him there and says so
            seated = table | {"seats": ["amy", "racer"]}
            to = f"w{sit['w']}"
            other.publish(
                to, {"k": "placed", "s": sit["s"], "seat": 1, "table": 5000, "info": seated}
            )
            text = "ok cmd=sit table=5000 seat=1\r\n"
            other.publish(
                to, {"k": "text", "s": sit["s"], "text": text, "asks": 0, "done": [sit["r"]]}
            )
            await loser.expect("ok", cmd="sit")
            claim = {"k": "in", "name": "racer", "guest": True, "fresh": True, "s": 1}
            other.publish(LOBBY, claim | {"token": "tokenfirst", "at": mark["at"] - 1})
            await loser.expect("bye")
            left = await heard_one(heard, k="post", m="leave", table=5000)
            assert left["s"] == sit["s"] and left["confirmed"] is True
            await loser.aclose()


async def _racing_claims_at_a_table_here(postgres_url: str, seated_first: bool) -> list[str]:
    """amy's table is this worker's; 'racer' claimed on worker OTHER sits there, and a
    claim of 'racer' made before it on THIRD wins the race, heard here after the sit
    was handled (``seated_first``) or before it came. What amy was told."""
    heard: list[dict[str, Any]] = []
    at = time.time()
    claim = {"k": "in", "name": "racer", "guest": True, "fresh": True, "s": 1}
    who = ["racer", True, "machine", "en", "rank", None, "all"]
    with trio.fail_after(60):
        async with (
            worker_and_bus(postgres_url, heard, OTHER) as (port, loser),
            third_worker(postgres_url) as third,
        ):
            amy = await log_in_machine(await LineClient.connect(port), "amy")
            await amy.send("new 3")  # (two seats free: it waits)
            table = (await amy.expect("ok", cmd="sit"))["table"]
            here = (await _said_in(heard, "amy"))["w"]
            loser.publish(LOBBY, claim | {"token": "tokenlater", "at": at})
            sit = {"k": "post", "table": int(table), "req": True, "r": 7, "m": "sit"}
            sit |= {"seat": None, "seeking": None, "s": 1, "who": who}
            if seated_first:
                loser.publish(f"w{here}", sit)
                await amy.read_until(lambda x: "kind=seated name=racer" in x)
                third.publish(LOBBY, claim | {"token": "tokenfirst", "at": at - 1})
                await amy.read_until(lambda x: "kind=left name=racer" in x)
            else:
                lobby = await log_in_machine(await LineClient.connect(port), "lobby")
                third.publish(LOBBY, claim | {"token": "tokenfirst", "at": at - 1})
                third.publish(LOBBY, {"k": "say", "name": "someone", "text": "x"})
                await lobby.expect("say", text="x")  # (the claim heard here by now)
                await lobby.aclose()
                loser.publish(f"w{here}", sit)
                await heard_one(heard, k="text", s=1, done=[7])  # answered
            await amy.send("ping")
            await amy.expect("ok", cmd="ping")
            await amy.aclose()
    return amy.lines


@pytest.mark.timeout(100)  # its _racing_claims_at_a_table_here's fail_after(60), then its clean-up
async def test_a_claim_that_lost_the_race_leaves_the_seat_it_took_at_a_third_workers_table(
    postgres_url: str,
) -> None:
    # the owner of the table (neither of the two racing workers) kept the losing
    # claim's seat: the winner held a seat he never took (failed before)
    await _racing_claims_at_a_table_here(postgres_url, seated_first=True)


@pytest.mark.timeout(100)  # its _racing_claims_at_a_table_here's fail_after(60), then its clean-up
async def test_a_claim_that_lost_the_race_takes_no_seat_with_a_sit_still_on_its_way(
    postgres_url: str,
) -> None:
    # the losing claim's sit came after the owner heard of the winner: it was seated
    # all the same (failed before)
    lines = await _racing_claims_at_a_table_here(postgres_url, seated_first=False)
    assert not [x for x in lines if "name=racer" in x], lines


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_login_taking_over_another_workers_connection_keeps_its_spelling(
    postgres_url: str, tmp_path: Path
) -> None:
    # 'login sasha token=T' took over Sasha's connection on the other worker and was
    # welcomed as 'sasha': two spellings of one player in 'who' and at the table
    # (failed before; on one worker the connection's spelling was kept already)
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            watcher = await log_in_machine(await LineClient.connect(port), "watcher")
            await _claimed_elsewhere(other, watcher, "Sasha", "tokensasha")
            back = await LineClient.connect(port)
            await back.send("style machine")
            await back.send("login sasha token=tokensasha")
            welcome = await back.expect("ok", cmd="login")
            assert welcome["name"] == "Sasha"
            # and so the other workers are told it (the one that held it closes its own)
            said = await _said_in(heard, "Sasha")
            assert said["token"] == "tokensasha"
            assert not [m for m in heard if m.get("k") == "in" and m.get("name") == "sasha"]
            for client in (watcher, back):
                await client.aclose()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_login_that_takes_a_name_from_another_worker_leaves_no_copy_of_it(
    postgres_url: str, tmp_path: Path
) -> None:
    # a tryout: a guest's claim on one worker raced a registration of the name on
    # another, which went on as it heard the claim and won; the guest was told 'bye'
    # there (which tells the others nothing), but this worker kept its copy of the
    # guest: 'who' listed the name twice, and after the winner left, 'finger' said
    # online=1 for good. A login here with the guest's token takes the name over the
    # same way (a login that knew of the other and took it)
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            watcher = await log_in_machine(await LineClient.connect(port), "watcher")
            await _claimed_elsewhere(other, watcher, "Vera", "tokenvera")
            vera = await LineClient.connect(port)
            await vera.send("style machine")
            await vera.send("login vera token=tokenvera")  # the name is held here now
            await vera.expect("ok", cmd="login")
            await watcher.send("who")
            names = (await watcher.expect("who"))["names"].split(",")
            assert sorted(n.casefold() for n in names) == ["vera", "watcher"]
            await vera.aclose()
            with trio.fail_after(30):  # her 'left' is the only word of her leaving
                while [m for m in heard if m.get("k") == "left"] == []:
                    await trio.sleep(0.05)
            await watcher.send("who")
            assert (await watcher.expect("who"))["names"].split(",") == ["watcher"]
            await watcher.send("finger vera")  # a guest gone, who never played: unknown
            assert (await watcher.expect("error"))["code"] == "unknown-player"
            await watcher.aclose()
