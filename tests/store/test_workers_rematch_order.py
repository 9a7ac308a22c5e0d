"""``serve --workers 2``: a rematch of worker 0's match seats bob, a player of worker 1,
and his 'ok cmd=sit' comes before the reply to his next line (docs/protocol.md §5.16)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import SETTINGS, Workers, playing_across, served_workers, settings_file


def _seated_error(line: str) -> bool:
    return line.startswith("error code=already-seated ")


async def _replies_until(client: LineClient, last: Callable[[str], bool]) -> list[str]:
    """The ok and error lines (each 'tag cmd-or-code') the client has from here up to
    the first line ``last`` knows; all of them left unread (the match's lines among
    them)."""
    mark = client.pos
    await client.read_until(last, 30)
    said = []
    for line in client.lines[mark : client.pos]:
        tag, f = fields(line)
        if tag in ("ok", "error"):
            said.append(f"{tag} {f.get('cmd') or f.get('code')}")
    client.pos = mark
    return said


async def _forfeit(ann: LineClient, bob: LineClient) -> None:
    """The rematch's match has started: ann leaves it (a forfeit), a rematch is on offer."""
    for client in (ann, bob):
        await client.read_until(lambda x: is_event(x, "start"), 30)
    await ann.send("leave!")
    for client in (ann, bob):
        await client.read_until(lambda x: is_event(x, "match-end"), 30)


async def _rematches(workers: Workers, opened: list[LineClient]) -> None:
    ann = await workers.connect(0, "ann")
    bob = await workers.connect(1, "bob")
    opened += [ann, bob]
    await playing_across(ann, bob)
    await ann.send("leave!")
    for client in (ann, bob):
        await client.read_until(lambda x: is_event(x, "match-end"), 30)
    for round_ in range(4):
        if round_ % 2 == 0:
            # bob's 'rematch', over the bus, completes it; his next line comes with it.
            # It was answered at once by worker 1, which had been told he sits at the
            # new table, and had been told his 'rematch' answered: before the table
            # had seated him
            await ann.send("rematch")
            await ann.expect("ok", cmd="rematch", waiting="bob")
            await bob.expect("rematch", waiting="bob", timeout=30)
            await bob.send_raw(b"rematch\r\nrematch\r\n")
            said = await _replies_until(bob, _seated_error)
            assert said == ["ok rematch", "ok sit", "error already-seated"], (round_, said)
        else:
            # ann's completes it; bob's next line comes as he is told it has
            await bob.send("rematch")
            await bob.expect("ok", cmd="rematch", waiting="ann", timeout=30)
            await ann.expect("rematch", waiting="ann")
            await ann.send("rematch")
            await bob.expect("rematch", asked="bob,ann", waiting="", timeout=30)
            await bob.send("rematch")
            said = await _replies_until(bob, _seated_error)
            assert said == ["ok sit", "error already-seated"], (round_, said)
        await _forfeit(ann, bob)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_rematch_seats_another_workers_player_before_his_next_reply(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(60):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            try:
                await _rematches(workers, opened)
            finally:
                await close_all(opened)
