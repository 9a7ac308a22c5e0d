"""``serve --workers 2``: a leaver's forfeit that gives a person of another worker his
seek back (first in line, docs/protocol.md §5.5) tells nobody a rematch is on offer
(§5.16), as at one worker: his own worker keeps his seek, which calls the offer off at
once. The table's worker told its own players "'rematch' within 60 s plays again" all
the same, and their 'rematch' was then refused, or taken and called off a moment later
(a reviewer's doubt, s39). A program's seek is not kept (its next 'seek' goes first):
the offer stands, and is told."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, is_event, log_in_machine

from .workers import SETTINGS, SharedWorkers, served_workers, settings_file, until_listed

OFFERED = "'rematch' within 60 s plays again with the same players."

# The first three tests share the module's cluster (tests/store/conftest.py), each with
# names of its own (a rematch offer is kept by name for 60 s); the others hold or kill
# a worker, and start their own.


@pytest.mark.parametrize("ann_is", ["a person", "a program"])
@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_seek_kept_at_another_worker_offers_the_table_s_players_no_rematch(
    shared_workers: SharedWorkers, ann_is: str
) -> None:
    workers = shared_workers
    n = "1" if ann_is == "a person" else "2"  # (names of its own: the cluster is shared)
    opened: list[LineClient] = []
    with trio.fail_after(60):
        try:
            bob = await workers.connect(0, f"bob{n}")  # a program, at the table's worker
            opened.append(bob)
            await bob.send("new 3")
            table = (await bob.expect("ok", cmd="sit"))["table"]
            carl = await workers.reach(0, f"carl{n}")  # a person there, who sought nothing
            opened.append(carl)
            await carl.send(f"login carl{n}")
            await carl.take(lambda x: x.startswith(f"Hello, carl{n}"))
            await carl.send(f"sit {table}")
            await carl.take(lambda x: x.startswith(f"You sit at table {table}"))
            ann = await workers.reach(1, f"ann{n}")  # at the other worker
            opened.append(ann)
            if ann_is == "a program":
                await log_in_machine(ann, f"ann{n}")
            else:
                await ann.send(f"login ann{n}")
                await ann.take(lambda x: x.startswith(f"Hello, ann{n}"))
            await ann.send("seek 3")  # she sits at bob's table (docs/scaling.md)
            await bob.read_until(lambda x: is_event(x, "start"), 30)
            await bob.send("leave!")  # in the first deal: her seek is given back
            await ann.read_until(lambda x: f"bob{n} left before the first deal ended: " in x, 30)
            if ann_is == "a program":  # its seek kept for its own next 'seek'
                await carl.take(lambda x: x == OFFERED, 30)
                return
            # her seek kept calls the offer off: her 'rematch', asked at the table's
            # worker after that (docs/protocol.md §5.16), is told so
            off = f"Error (not-allowed): the rematch of table {table} is off: "
            await ann.send("rematch")
            said = await ann.take(lambda x: x.startswith("Error "), 30)
            assert said.startswith(off + "you were put back in"), said  # (wrapped)
            await carl.send("rematch")
            said = await carl.take(lambda x: x.startswith("Error "), 30)
            assert said.startswith(off + f"ann{n} was put back in"), said
            assert OFFERED not in carl.lines, carl.lines
            assert OFFERED not in ann.lines, ann.lines
        finally:
            await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_person_of_another_worker_is_told_a_rematch_is_on_offer(
    shared_workers: SharedWorkers,
) -> None:
    """A person is told the offer (§5.16) wherever his connection is: one of another
    worker than the table's was told nothing (the table's worker told its own only)."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(60):
        try:
            bob = await workers.connect(0, "bob3")
            opened.append(bob)
            await bob.send("new 2")
            table = (await bob.expect("ok", cmd="sit"))["table"]
            ann = await workers.connect(1, "ann3")
            opened.append(ann)
            await until_listed(ann, "tables", f"id={table} ")
            await ann.send("style human")  # a person, who sits (she sought nothing)
            await ann.take(lambda x: "Style human" in x)
            await ann.send(f"sit {table}")
            await bob.read_until(lambda x: is_event(x, "start"), 30)
            await bob.send("leave!")
            await ann.take(lambda x: x == OFFERED, 30)
        finally:
            await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_no_rematch_is_taken_before_the_kept_seekers_worker_tells_the_offer_off(
    postgres_url: str, tmp_path: Path
) -> None:
    """The window: the table's worker (0) ended the match, ann's (1) keeps her seek and
    calls the offer off a hop later. carl's 'rematch' in between was taken ('ok
    cmd=rematch'), then called off (a brief of s40). Worker 1 is held (SIGSTOP) over the
    whole window, so carl's word falls in it for sure: the offer is off as it is made,
    decided by worker 0, which knows a person's seek is kept (docs/scaling.md)."""
    opened: list[LineClient] = []
    # (worker 1 is held for a few round trips of worker 0's: never taken for dead)
    held = SETTINGS.replace("server_dead_ms = 10000", "server_dead_ms = 30000")
    assert held != SETTINGS
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings_file(tmp_path, held)) as workers:
            stopped = False
            try:
                bob = await workers.connect(0, "bob")
                carl = await workers.connect(0, "carl")
                opened += [bob, carl]
                await bob.send("new 3")
                table = (await bob.expect("ok", cmd="sit"))["table"]
                await carl.send(f"sit {table}")
                await carl.expect("ok", cmd="sit")
                ann = await workers.reach(1, "ann")  # a person, who seeks
                opened.append(ann)
                await ann.send("login ann")
                await ann.take(lambda x: x.startswith("Hello, ann"))
                await ann.send("seek 3")  # she sits at bob's table (docs/scaling.md)
                await carl.read_until(lambda x: is_event(x, "start"), 30)
                os.kill(workers.pids[1], signal.SIGSTOP)
                stopped = True
                await bob.send("leave!")  # in the first deal: her seek is given back
                await carl.read_until(lambda x: is_event(x, "match-end"), 30)
                await carl.send("rematch")  # worker 1 has told worker 0 nothing yet
                off = f"the rematch of table {table} is off: "
                assert await carl.expect("error", timeout=30) == {
                    "code": "not-allowed",
                    "text": off + "ann was put back in line for the same game",
                }
                os.kill(workers.pids[1], signal.SIGCONT)
                stopped = False
                await ann.read_until(lambda x: "bob left before the first deal ended: " in x, 30)
                await ann.send("rematch")  # asked at worker 0, which tells her own step
                said = await ann.take(lambda x: x.startswith("Error "), 30)
                assert said.startswith(f"Error (not-allowed): {off}you were put back in"), said
                await carl.send("ping")
                await carl.expect("ok", cmd="ping", timeout=30)
                assert not [x for x in carl.lines if x.startswith("rematch ")], carl.lines
            finally:
                if stopped:
                    os.kill(workers.pids[1], signal.SIGCONT)
                await close_all(opened)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
@pytest.mark.parametrize("leaver", ["opener", "joiner"])
async def test_an_offer_off_as_it_was_made_is_told_off_to_nobody_as_its_worker_is_lost(
    postgres_url: str, tmp_path: Path, leaver: str
) -> None:
    """ann's seek kept calls the offer off as the match ends, told to nobody (§5.16);
    the table's worker lost within its 60 s, the player at her worker was then told
    'rematch … off=server-lost' of it: an offer he never heard of, off already. The
    opener bob leaving, dan, who stayed; the joiner bob leaving, he himself: his
    'placed' came before the offer, whose players his worker heard after
    (rematch_asked), not that it was off."""
    opener_name, joiner_name = ("bob", "dan") if leaver == "opener" else ("carl", "bob")
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            try:
                opener = await workers.connect(0, opener_name)
                opened.append(opener)
                await opener.send("new 3")
                table = (await opener.expect("ok", cmd="sit"))["table"]
                joiner = await workers.connect(1, joiner_name)  # a program: seeks nothing
                opened.append(joiner)
                await until_listed(joiner, "tables", f"id={table} ")
                await joiner.send(f"sit {table}")
                await joiner.expect("ok", cmd="sit", timeout=30)
                ann = await workers.reach(1, "ann")  # a person, who seeks
                opened.append(ann)
                await ann.send("login ann")
                await ann.take(lambda x: x.startswith("Hello, ann"))
                await ann.send("seek 3")  # she sits at the opener's table (scaling.md)
                await joiner.read_until(lambda x: is_event(x, "start"), 30)
                leaving, staying = (opener, joiner) if leaver == "opener" else (joiner, opener)
                await leaving.send("leave!")  # in the first deal: her seek is given back
                await ann.read_until(lambda x: "bob left before the first deal ended: " in x, 30)
                await staying.read_until(lambda x: is_event(x, "match-end"), 30)
                await staying.send("rematch")  # off as it was made, for her seek kept
                said = await staying.expect("error", timeout=30)
                assert said["text"].endswith("ann was put back in line for the same game"), said
                os.kill(workers.pids[0], signal.SIGKILL)
                await until_listed(joiner, "who", opener_name, present=False)
                await joiner.send("ping")
                await joiner.expect("ok", cmd="ping", timeout=30)
                assert not [x for x in joiner.lines if x.startswith("rematch ")], joiner.lines
            finally:
                await close_all(opened)
