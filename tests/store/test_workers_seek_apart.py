"""A seeker whose match another left keeps his seek and is kept apart from the leaver
(docs/protocol.md §5.5) under ``serve --workers`` too, where seeks are matched across
workers (docs/scaling.md): a seek that goes to another worker tells whom its player is
kept apart from, and his address; a 'leave' told to the table's worker tells the
leaver's address; the table's worker tells a player of another worker who left him,
and his worker keeps him his place there (a program's next 'seek' first in line)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from tests.server.client import LineClient, close_all, fields, is_event

from .workers import SETTINGS, Workers, served_workers, settings_file

# twice the time a match across workers takes: SETTINGS' seek_patience_ms (0.2 s), a
# look every 0.25 s, the seeks told every 0.25 s or so
NOT_MATCHED_S = 1.5


async def _griefs(workers: Workers, worker: int, name: str, game: str, source: str) -> None:
    """``name`` seeks ``game`` at ``worker`` from ``source``, is matched, and leaves the
    match at once; then quits."""
    grief = await workers.connect(worker, name, source=source)
    try:
        await grief.send(f"seek {game}")
        await grief.expect("ok", cmd="sit", timeout=30)
        await grief.read_until(lambda x: is_event(x, "start"), 30)
        await grief.send("leave!")
        await grief.expect("ok", cmd="leave")
        await grief.send("quit")
        await grief.wait_closed()
    finally:
        await grief.aclose()


async def _is_kept_apart(workers: Workers, worker: int, name: str, game: str, source: str) -> None:
    """``name`` from ``source`` seeks ``game`` at ``worker`` and is matched with nobody."""
    grief = await workers.connect(worker, name, source=source)
    try:
        await grief.send(f"seek {game}")
        await grief.expect("ok", cmd="seek")
        await trio.sleep(NOT_MATCHED_S)
        await grief.send("quit")
        await grief.wait_closed()
        assert not [x for x in grief.lines if x.startswith("ok cmd=sit")], grief.lines
    finally:
        await grief.aclose()


async def _a_griefer_at_the_other_worker(
    workers: Workers, victim_at: int, game: str, label: str, opened: list[LineClient]
) -> None:
    """A victim at ``victim_at``, a griefer from one address at the other worker: two
    of his names abort the victim's match (each time the victim seeks again, first in
    line), the third is kept apart; an honest seeker from elsewhere meets the victim."""
    victim = await workers.connect(victim_at, f"{label}victim")
    opened.append(victim)
    await victim.send(f"seek {game}")
    await victim.expect("ok", cmd="seek")
    other = 1 - victim_at
    for n in range(2):
        await _griefs(workers, other, f"{label}grief{n}", game, "127.0.0.2")
        await victim.read_until(lambda x: is_event(x, "match-end"), 30)
        kept = fields(await victim.read_until(lambda x: x.startswith("info "), 30))[1]
        assert kept["text"].startswith(f"{label}grief{n} left before the first deal ended: "), kept
        await victim.send(f"seek {game}")  # a program seeks itself, first in line (§5.5)
        await victim.expect("ok", cmd="seek")
    await _is_kept_apart(workers, other, f"{label}grief2", game, "127.0.0.2")
    honest = await workers.connect(other, f"{label}honest", source="127.0.0.9")
    opened.append(honest)
    await honest.send(f"seek {game}")
    table = (await honest.expect("ok", cmd="sit", timeout=30))["table"]
    assert (await victim.expect("ok", cmd="sit", timeout=30))["table"] == table


@pytest.mark.timeout(120)  # its fail_after(80), then its clean-up
async def test_a_seeker_left_is_kept_apart_from_the_leaver_across_workers(
    postgres_url: str, tmp_path: Path
) -> None:
    opened: list[LineClient] = []
    with trio.fail_after(80):
        async with served_workers(postgres_url, settings_file(tmp_path, SETTINGS)) as workers:
            try:
                # seeks go to the worker with the smaller id: in one of these the victim
                # is another worker's (his worker told who left him), in the other the
                # leaver is (his 'leave' told his address). The two at once: games and
                # names of their own (nobody of one can meet anybody of the other), so
                # their waits for no match (NOT_MATCHED_S each) overlap
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(_a_griefer_at_the_other_worker, workers, 0, "2", "a", opened)
                    nursery.start_soon(
                        _a_griefer_at_the_other_worker, workers, 1, "2 to-301", "b", opened
                    )
            finally:
                await close_all(opened)
