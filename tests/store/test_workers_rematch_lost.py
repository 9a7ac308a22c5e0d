"""``serve --workers 2``: a rematch offer is kept in the memory of the worker whose
table the match was played at. When that worker stops (a rolling restart's SIGTERM)
or is lost (SIGKILL), its players at the other worker are told the offer is off,
not left to find none at their next 'rematch' (docs/protocol.md §5.16,
docs/scaling.md)."""

from __future__ import annotations

import os
import random
import signal

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event, play_machine

from .workers import Cluster, SharedWorkers, across_with_a_house_bot, playing_across, until_listed

# The tests share the module's cluster (tests/store/conftest.py: each waits there until
# the worker it killed or stopped is replaced, and its loss heard), each with names
# of its own: a rematch offer is kept by name for 60 s.


async def _ann_asks_a_rematch_of_worker_1(
    workers: Cluster, opened: list[LineClient], n: str
) -> tuple[LineClient, str]:
    """bob (worker 1) opens a table, ann (worker 0) sits; bob's 'leave!' ends the
    match; ann asks for a rematch, kept by worker 1: it waits for bob. ann's client,
    the table (their names with ``n``)."""
    bob = await workers.connect(1, f"bob{n}")
    ann = await workers.connect(0, f"ann{n}")
    opened += [ann, bob]
    table = await playing_across(bob, ann)
    await bob.send("leave!")
    for client in (ann, bob):
        await client.read_until(lambda x: is_event(x, "match-end"), 30)
    await ann.send("rematch")
    asked = await ann.expect("ok", cmd="rematch", timeout=30)
    assert (asked["table"], asked["waiting"]) == (table, f"bob{n}"), asked
    return ann, table


async def _rematch_off(client: LineClient) -> dict[str, str]:
    line = await client.read_until(lambda x: x.startswith("rematch ") and "off=-" not in x, 20)
    return fields(line)[1]


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_rematch_kept_by_a_killed_worker_is_told_off_at_the_other(
    shared_workers: SharedWorkers,
) -> None:
    # before, ann waited for bob's answer that never came: nobody told her the offer
    # had died with worker 1, its 'rematch' then refused as if none had been made
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            ann, table = await _ann_asks_a_rematch_of_worker_1(workers, opened, "1")
            os.kill(workers.pids[1], signal.SIGKILL)
            off = await _rematch_off(ann)
            assert off["table"] == table and off["off"] == "server-lost", off
            assert off["text"] == f"The rematch of table {table} is off: its server was lost."
            # its players named, as worker 1 told them (before: 'asked= waiting=')
            assert (off["asked"], off["waiting"], off["by"]) == ("ann1", "bob1", "-"), off
        finally:
            await close_all(opened)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_rematch_nobody_asked_kept_by_a_killed_worker_names_its_players_waiting(
    shared_workers: SharedWorkers,
) -> None:
    """Nobody asked (ann's worker heard no ask): the line still tells ann the offer is
    off, with both players waiting, by seat (docs/protocol.md §5.16)."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            bob = await workers.connect(1, "bob2")
            ann = await workers.connect(0, "ann2")
            opened += [ann, bob]
            table = await playing_across(bob, ann)
            await bob.send("leave!")
            await ann.read_until(lambda x: is_event(x, "match-end"), 30)
            os.kill(workers.pids[1], signal.SIGKILL)
            off = await _rematch_off(ann)
            assert (off["table"], off["off"], off["asked"], off["waiting"]) == (
                table,
                "server-lost",
                "",
                "bob2,ann2",
            ), off
        finally:
            await close_all(opened)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_the_leaver_of_a_match_kept_by_a_killed_worker_is_told_its_players(
    shared_workers: SharedWorkers,
) -> None:
    """ann (worker 0) ends the match at bob's table (worker 1) by her 'leave!': the offer
    stands for her too, and its loss names its players, as the others' lines do (before:
    'asked= waiting=', her seat gone before the match ended and its offer was made)."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            bob = await workers.connect(1, "bob3")
            ann = await workers.connect(0, "ann3")
            opened += [ann, bob]
            table = await playing_across(bob, ann)
            await ann.send("leave!")
            await ann.expect("ok", cmd="leave", timeout=30)
            await bob.read_until(lambda x: is_event(x, "match-end"), 30)
            await bob.send("rematch")
            await bob.expect("ok", cmd="rematch", timeout=30)
            await ann.read_until(lambda x: x.startswith("rematch ") and "off=-" in x, 30)
            os.kill(workers.pids[1], signal.SIGKILL)
            off = await _rematch_off(ann)
            assert (off["table"], off["off"], off["asked"], off["waiting"]) == (
                table,
                "server-lost",
                "bob3",
                "ann3",
            ), off
        finally:
            await close_all(opened)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_rematch_kept_by_a_stopping_worker_is_told_off_with_why(
    shared_workers: SharedWorkers,
) -> None:
    # a rolling restart's SIGTERM to worker 1: its offers go with it, told as it stops
    # (before: 'off=left by=bob', bob's connection closed by the stop, as if he had gone)
    workers = shared_workers
    opened: list[LineClient] = []
    before, listening = len(workers.events), "worker_listening"
    with trio.fail_after(90):
        try:
            ann, table = await _ann_asks_a_rematch_of_worker_1(workers, opened, "4")
            os.kill(workers.pids[1], signal.SIGTERM)
            off = await _rematch_off(ann)
            assert off["table"] == table and off["off"] == "server-stopped", off
            assert off["by"] == "-", off
            assert off["text"] == f"The rematch of table {table} is off: its server stopped."
            # told once: not again as the stopped worker's 'bye' is heard
            await ann.send("ping")
            await ann.expect("ok", cmd="ping", timeout=30)
            with trio.fail_after(30):  # its replacement serves: the 'bye' was heard
                while not [e for e in workers.events[before:] if e.get("event") == listening]:
                    await trio.sleep(0.1)
            await ann.send("ping")
            await ann.expect("ok", cmd="ping", timeout=30)
            offs = [x for x in ann.lines if x.startswith("rematch ") and "off=-" not in x]
            assert len(offs) == 1, offs
        finally:
            await close_all(opened)


async def _no_offer_told_off(ann: LineClient, bob: str) -> None:
    """Worker 1 killed: once ann's worker has forgotten it (``bob`` no longer listed),
    she was told of no rematch, there being none to lose."""
    await until_listed(ann, "who", bob, present=False)
    await ann.send("ping")
    await ann.expect("ok", cmd="ping", timeout=30)
    assert not [x for x in ann.lines if x.startswith("rematch ")], ann.lines


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_a_house_bots_match_kept_by_a_killed_worker_tells_no_rematch_off(
    shared_workers: SharedWorkers,
) -> None:
    """No rematch of a house bot's match is offered (docs/protocol.md §5.16), so ann
    (worker 0) hears of none as worker 1, which held the table, is lost (before: its
    worker kept an entry anyway, and told her 'off=server-lost' of an offer never made)."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            ann, bob = await across_with_a_house_bot(workers, opened, bob_at=1, suffix="5")
            await bob.send("leave!")
            await ann.read_until(lambda x: is_event(x, "match-end"), 30)
            os.kill(workers.pids[1], signal.SIGKILL)
            await _no_offer_told_off(ann, "bob5")
        finally:
            await close_all(opened)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_the_leaver_of_a_house_bots_match_kept_by_a_killed_worker_is_told_nothing(
    shared_workers: SharedWorkers,
) -> None:
    """ann's own 'leave!' ends it (her 'placed' came before the match's end): her worker
    hears no rematch was offered, and tells her nothing as worker 1 is lost."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            ann, bob = await across_with_a_house_bot(workers, opened, bob_at=1, suffix="6")
            await ann.send("leave!")
            await ann.expect("ok", cmd="leave", timeout=30)
            await bob.read_until(lambda x: is_event(x, "match-end"), 30)
            # her 'rematch' is refused (by worker 1, or by her own once it heard
            # no offer stands): either answer comes after that word to her worker
            await ann.send("rematch")
            await ann.read_until(lambda x: x.startswith("error "), 30)
            os.kill(workers.pids[1], signal.SIGKILL)
            await _no_offer_told_off(ann, "bob6")
        finally:
            await close_all(opened)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_one_who_asked_at_another_worker_is_told_where_it_stands(
    shared_workers: SharedWorkers,
) -> None:
    """A rematch of three, kept by worker 0: dan (worker 1) asked, then eve; dan is told
    where it stands, not asked to agree (a tryout), carl is asked; both lines rendered
    at worker 0 in each one's own style (docs/protocol.md §5.16)."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            carl = await workers.connect(0, "carl7")
            dan = await workers.connect(1, "dan7")
            eve = await workers.connect(0, "eve7")
            opened += [carl, dan, eve]
            await carl.send("new 3 short")
            table = (await carl.expect("ok", cmd="sit"))["table"]
            await until_listed(dan, "tables", f"id={table} ")
            for player in (dan, eve):
                await player.send(f"sit {table}")
                await player.expect("ok", cmd="sit", timeout=30)
            async with trio.open_nursery() as nursery:
                for i, player in enumerate((carl, dan, eve)):
                    nursery.start_soon(play_machine, player, random.Random(i), None, 30)
            for person in (carl, dan):
                await person.send("style human")
                await person.read_until(lambda x: x.startswith("Style"), 30)
            # (asked of worker 0, which renders his lines there: in the style it tells)
            await dan.send("rematch")
            await dan.read_until(lambda x: x.startswith("You ask for a rematch"), 30)
            await eve.send("rematch")
            await eve.expect("ok", cmd="rematch", timeout=30)
            standing = f"Rematch of table {table} asked by dan7, eve7, waiting for carl7"
            told = await dan.read_until(lambda x: x.startswith("Rematch of table"), 30)
            assert told == f"{standing}.", told
            told = await carl.read_until(lambda x: x.startswith(standing), 30)  # (his 2nd)
            assert told.startswith(f"{standing}: 'rematch' to agree"), told
        finally:
            await close_all(opened)
