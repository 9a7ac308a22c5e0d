"""``serve --workers 2``: 'history' (and 'sheet', 'last') at no table tells a player's
own last match, or the one he watched to its end if that ended later (docs/protocol.md
§5.12, §5.17). The store keeps whole seconds, so a tie is the watched one's: his own
match's end forgets the one watched before. His own match at another worker's table
did not: his worker never heard of its end, and told him the match he had watched."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import SETTINGS, Workers, playing_across, served_workers, settings_file


async def _watched_then_own_elsewhere(
    workers: Workers, eve: LineClient, ann: LineClient, bob: LineClient, cid: LineClient
) -> str:
    """eve (worker 0) watches ann and bob's match at worker 0 to its end (bob leaves
    it), then plays her own at cid's table at worker 1, which cid leaves at once:
    the id of her own match."""
    await ann.send("new 2")
    table = (await ann.expect("ok", cmd="sit"))["table"]
    await eve.send(f"observe {table}")
    await eve.expect("ok", cmd="observe")
    await bob.send(f"sit {table}")
    await eve.read_until(lambda x: is_event(x, "start"), 10)
    await bob.send("leave!")
    await eve.read_until(lambda x: is_event(x, "match-end"), 10)
    await playing_across(cid, eve)
    await cid.send("leave!")
    end = await eve.read_until(lambda x: is_event(x, "match-end"), 10)
    return fields(end)[1]["match"]


async def _told(client: LineClient) -> str:
    """The match 'history' at no table tells ``client`` (asked till its table's end
    has reached its worker: a 'history' at the table is no answer here)."""
    while True:
        await client.send("history")
        line = await client.read_until(lambda x: x.startswith(("history ", "error ")), 10)
        if line.startswith("history ") and " match=" in line:
            return fields(line)[1]["match"]
        await trio.sleep(0.05)  # (a real server's bus: no virtual time)


@pytest.mark.timeout(130)  # its fail_after(90), then its clean-up
async def test_her_own_match_at_another_worker_forgets_the_one_she_watched(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(90):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            try:
                eve, ann, bob = [await workers.connect(0, n) for n in ("eve", "ann", "bob")]
                cid = await workers.connect(1, "cid")
                opened += [eve, ann, bob, cid]
                for _ in range(3):  # (both ends in one second: most times, not always)
                    own = await _watched_then_own_elsewhere(workers, eve, ann, bob, cid)
                    assert await _told(eve) == own
            finally:
                await close_all(opened)
