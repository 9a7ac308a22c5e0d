"""An ignore list under ``serve --workers 2`` (docs/protocol.md §5.21, docs/scaling.md):
ann, on worker 0, at a table worker 1 owns, is not told the table 'say' of bob, whom
she ignores, though the table's owner renders her lines: her list travels with her
messages to it, and each change of it reaches her stand-in there at once. A lobby
'say' and an 'invite' from the other worker are kept from her by her own worker."""

from __future__ import annotations

import pytest
import trio

from tests.server.client import LineClient, close_all, is_event

from .workers import SharedWorkers, until_listed

# The two tests share the module's cluster (tests/store/conftest.py), each with names
# of its own: the first one's ann is still seated at bob's table as it ends.


async def _said_before(ann: LineClient, mark: str) -> str:
    """The 'say' lines ann is told before her own ``mark``, said at her table now (its
    owner tells her what it told before first, in order), joined by '|'."""
    await ann.send(f"say {mark}")
    said: list[str] = []
    while True:
        line = await ann.read_until(lambda x: x.startswith("say "), 30)
        if line.endswith(f" text={mark}"):
            return "|".join(said)
        said.append(line)


async def _told_over_the_bus(dave: LineClient, carl: LineClient, mark: str) -> None:
    """What ann's worker published before now has reached bob's: a lobby 'say' of
    dave's (ann's worker) heard by carl (bob's), on the one ordered bus. Not one of
    ann's messages, which carry her list themselves."""
    await dave.send(f"say {mark}")
    await carl.expect("say", text=mark, timeout=30)


@pytest.mark.timeout(130)
async def test_a_player_ignores_one_at_a_table_another_worker_owns(
    shared_workers: SharedWorkers,
) -> None:
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            ann = await workers.connect(0, "ann")
            bob = await workers.connect(1, "bob")
            carl = await workers.connect(1, "carl")
            dave = await workers.connect(0, "dave")
            opened += [ann, bob, carl, dave]
            await until_listed(ann, "who", "bob")
            await until_listed(ann, "who", "carl")
            await until_listed(bob, "who", "ann")  # (his 'invite ann' finds her)
            await ann.send("ignore bob")
            await ann.expect("ok", cmd="ignore", name="bob")

            # the lobby: bob's line, then carl's, over the bus in that order
            await bob.send("say lobby hello")
            await bob.expect("say", text="lobby hello")
            await carl.send("say carl here")
            await ann.expect("say", text="carl here", timeout=30)
            assert not [x for x in ann.lines if x.startswith("say from=bob ")]

            # his table (worker 1's): her list came with her 'sit'
            await bob.send("new 2 private")
            table = (await bob.expect("ok", cmd="sit"))["table"]
            await bob.send("invite ann")
            await bob.expect("ok", cmd="invite", name="ann")
            # what bob's worker published before now has reached ann's: carl's say
            # (bob's own lines are few: 'say' and 'invite' share an allowance)
            await carl.send("say after the invitation")
            await ann.expect("say", text="after the invitation", timeout=30)
            await until_listed(ann, "tables", f"id={table} ")  # she was let in
            assert not [x for x in ann.lines if x.startswith("invite ")]
            await ann.send(f"sit {table}")
            await ann.read_until(lambda x: is_event(x, "start"), 30)
            await bob.send("say at the table")
            await bob.expect("say", text="at the table")
            assert await _said_before(ann, "mark-1") == ""

            # changed while she sits there: her stand-in is told at once
            await ann.send("unignore bob")
            await ann.expect("ok", cmd="unignore", name="bob")
            await _told_over_the_bus(dave, carl, "sync-1")
            await bob.send("say hear me now")
            await bob.expect("say", text="hear me now")
            told = await _said_before(ann, "mark-2")
            assert told.startswith("say from=bob ") and told.endswith("text=hear me now")
            await ann.send("ignore bob")
            await ann.expect("ok", cmd="ignore", name="bob")
            await _told_over_the_bus(dave, carl, "sync-2")
            await bob.send("say and now")
            await bob.expect("say", text="and now")
            assert await _said_before(ann, "mark-3") == ""
            await ann.send("say can you hear me")  # he hears her: his list is empty
            await bob.expect("say", text="can you hear me", timeout=30)
        finally:
            await close_all(opened)


@pytest.mark.timeout(130)
async def test_an_invitation_kept_from_her_on_another_worker_is_told_at_unignore(
    shared_workers: SharedWorkers,
) -> None:
    """bob's table and 'invite ann' on worker 1, ann on worker 0 ignoring him: her own
    worker keeps the invitation, and tells it at her 'unignore bob', the table's copy
    there saying it still waits and invites her (a tryout, s43: it was never told)."""
    workers = shared_workers
    opened: list[LineClient] = []
    with trio.fail_after(90):
        try:
            ann = await workers.connect(0, "ann2")
            bob = await workers.connect(1, "bob2")
            carl = await workers.connect(1, "carl2")
            opened += [ann, bob, carl]
            await until_listed(ann, "who", "bob2")
            # bob's worker knows her too: his 'invite ann2' was refused unknown-player
            # once under load (s48), her presence not yet there
            await until_listed(bob, "who", "ann2")
            await ann.send("ignore bob2")
            await ann.expect("ok", cmd="ignore", name="bob2")
            await bob.send("new 2 private")
            table = (await bob.expect("ok", cmd="sit"))["table"]
            await bob.send("invite ann2")
            await bob.expect("ok", cmd="invite", name="ann2")
            await carl.send("say after the invitation")  # (bob's worker's, in order)
            await ann.expect("say", text="after the invitation", timeout=30)
            await until_listed(ann, "tables", f"id={table} ")
            assert not [x for x in ann.lines if x.startswith("invite ")]
            await ann.send("unignore bob2")
            await ann.expect("ok", cmd="unignore", name="bob2")
            told = await ann.expect("invite", timeout=30)
            assert (told["from"], told["table"]) == ("bob2", table)
        finally:
            await close_all(opened)
