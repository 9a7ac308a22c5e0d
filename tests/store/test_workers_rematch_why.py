"""``serve --workers 2``: a rematch called off is refused with why (docs/protocol.md
§5.16), to a player of the table's worker and to one of another worker, whose own step
called it off (his worker keeps the offer's entry, withdrawn, and asks there); and a
line of his that is no command names his match just over (§8), at his worker too; and
one of a house bot's match, which offers none, is told so, there or after another game."""

from __future__ import annotations

import pytest
import trio

from tests.server.client import LineClient, close_all, is_event

from .workers import SharedWorkers, across_with_a_house_bot, playing_across

# The tests share the module's cluster (tests/store/conftest.py), each with names of its
# own: a rematch offer is kept by name for 60 s after its match.


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_rematch_called_off_says_why_across_workers(
    shared_workers: SharedWorkers,
) -> None:
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(60):
        try:
            ann = await workers.connect(0, "ann")
            bob = await workers.connect(1, "bob")
            opened += [ann, bob]
            table = await playing_across(ann, bob)  # worker 0's table
            await ann.send("leave!")
            for client in (ann, bob):
                await client.read_until(lambda x: is_event(x, "match-end"), 30)
            await ann.send("rematch")
            await ann.expect("ok", cmd="rematch", waiting="bob")
            await bob.expect("rematch", waiting="bob", timeout=30)  # his worker knows
            await bob.send("seek 3")  # bob goes to another game, at worker 1
            await bob.expect("ok", cmd="seek", timeout=30)
            await ann.expect("rematch", off="elsewhere", by="bob", timeout=30)
            await ann.send("rematch")
            assert await ann.expect("error") == {
                "code": "not-allowed",
                "text": f"the rematch of table {table} is off: bob went to another game",
            }
            await bob.send("rematch")  # asked at worker 0, which tells him why
            assert await bob.expect("error", timeout=30) == {
                "code": "not-allowed",
                "text": f"the rematch of table {table} is off: you went to another game",
            }
            await bob.send("pas")  # worker 1: told which match of his is over
            assert await bob.expect("error", timeout=30) == {
                "code": "unknown-command",
                "text": f"your match at table {table} is over: 'pas' is not a command,"
                " and you sit at no table. Type 'help'.",
            }
        finally:
            await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_house_bots_match_at_another_worker_says_why_no_rematch(
    shared_workers: SharedWorkers,
) -> None:
    """ann (worker 1) played at bob's table (worker 0) with a house bot: her 'rematch'
    was told "no rematch is on offer for you: one is asked within 60 s of your match's
    end", 2 s after it (her worker kept nothing of a match that offered none); now the
    reason, as at one worker, before her next game and after it."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(60):
        try:
            ann, bob = await across_with_a_house_bot(workers, opened, bob_at=0, suffix="2")
            await bob.send("leave!")
            await ann.read_until(lambda x: is_event(x, "match-end"), 30)
            house_bot = {
                "code": "not-allowed",
                "text": "a house bot plays one match only: open a table and ask 'bot' again",
            }
            await ann.send("rematch")
            assert await ann.expect("error", timeout=30) == house_bot
            await ann.send("new 2")  # another game, at her worker
            await ann.expect("ok", cmd="sit")
            await ann.send("leave")
            await ann.expect("ok", cmd="leave")
            await ann.send("rematch")
            assert await ann.expect("error", timeout=30) == house_bot
        finally:
            await close_all(opened)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_going_elsewhere_calls_off_another_workers_offer_after_a_house_bots_match(
    shared_workers: SharedWorkers,
) -> None:
    """ann played a house bot at her own worker (0: no rematch of it), then bob at his
    (1), and left that match: bob asked for a rematch. Her 'new' at worker 0 within
    the house bot's 60 s called off nothing: her worker took the house bot's offer, of
    which there was nothing to call off, for the last, and bob waited out the 60 s
    untold (docs/protocol.md §5.16: a player who opens a table calls it off)."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(60):
        try:
            ann = await workers.connect(0, "ann3")
            bob = await workers.connect(1, "bob3")
            opened += [ann, bob]
            await ann.send("new 2")
            await ann.expect("ok", cmd="sit")
            await ann.send("bot random")
            await ann.expect("ok", cmd="bot", timeout=30)
            await ann.read_until(lambda x: is_event(x, "start"), 30)
            await ann.send("leave!")
            await ann.expect("ok", cmd="leave", timeout=30)
            table = await playing_across(bob, ann)
            await ann.send("leave!")
            await ann.expect("ok", cmd="leave", timeout=30)
            await bob.read_until(lambda x: is_event(x, "match-end"), 30)
            await bob.send("rematch")
            asked = await bob.expect("ok", cmd="rematch", timeout=30)
            assert (asked["table"], asked["waiting"]) == (table, "ann3"), asked
            await ann.send("new 2")
            await ann.expect("ok", cmd="sit", timeout=30)
            off = await bob.read_until(lambda x: x.startswith("rematch "), 30)
            assert f"rematch table={table} asked=bob3 waiting=ann3 off=elsewhere by=ann3 " in off
        finally:
            await close_all(opened)
