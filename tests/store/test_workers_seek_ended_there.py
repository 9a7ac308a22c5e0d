"""``serve --workers 2``: a seek sent on to wait at the other worker (seeks flow to the
smaller server id, docs/scaling.md "Seeks across workers") and ended there, no table
able to open for it: its table failed as it drew its match number, or its table's
number could not be drawn (the database's sequences held at their end here). The
seeker is told by the same words as the seeker of that worker, and his own worker
forgets his seek as that worker does: his 'unseek' is refused as one who waits for
nothing (before, his worker still took him for one waiting there, answered it ok, and
would have put him back in line should that worker be lost); he seeks again freely."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
import trio

from tests.server.client import LineClient, close_all, fields

from .workers import SETTINGS, served_workers, settings_file

# no house bots; a player may take and leave 40 seats at once (the tables that use the
# numbers drawn ahead)
CHURN = "seat_churn_burst = 40.0\nseat_churn_per_address_burst = 40.0\n"
NOT_SEEKING = "error code=not-allowed text=you are not waiting for a game"


def _cap(url: str, sequence: str, capped: bool = True) -> None:
    """``sequence`` at its end: its next number is refused (two drawn here first: its
    lowest must stay below its highest); not ``capped``: free again."""
    with psycopg.connect(url, autocommit=True) as db:
        if not capped:
            db.execute(f"ALTER SEQUENCE {sequence} NO MAXVALUE")
            return
        row = db.execute(f"SELECT max(nextval('{sequence}')) FROM generate_series(1, 2)")
        (last,) = row.fetchone() or (None,)
        db.execute(f"ALTER SEQUENCE {sequence} MAXVALUE {last}")


async def _unseek_refused(client: LineClient) -> None:
    await client.send("unseek")
    said = await client.read_until(lambda x: fields(x)[0] in ("ok", "error"), 10)
    assert said == NOT_SEEKING, (client.label, said)


async def _both_seek(ann: LineClient, dora: LineClient) -> None:
    """ann seeks at her worker, then dora at hers: her seek goes on to ann's."""
    for client in (ann, dora):
        await client.send("seek 2")
        await client.expect("ok", cmd="seek", timeout=10)


@pytest.mark.timeout(120)  # its fail_after(80), then its clean-up
async def test_a_seek_ended_at_the_other_worker_is_told_and_forgotten_at_its_own(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = settings_file(tmp_path, SETTINGS.replace("house_bots = true\n", CHURN))
    opened: list[LineClient] = []
    with trio.fail_after(80):
        async with served_workers(postgres_url, settings) as workers:
            try:
                there = min((0, 1), key=workers.server)  # where seeks go on to wait
                ann = await workers.connect(there, "ann")
                max_ = await workers.connect(there, "max")
                dora = await workers.connect(1 - there, "dora")
                opened += [ann, max_, dora]
                # 1. the table opens at ann's worker and fails as it draws its match
                # number: both are told it, a table neither sat at
                _cap(postgres_url, "match_numbers")
                await _both_seek(ann, dora)
                line = await ann.read_until(lambda x: "closed=" in x, 10)
                assert line.endswith("failed and closes; sorry"), line
                assert await dora.read_until(lambda x: "closed=" in x, 10) == line
                for client in (ann, dora):
                    await _unseek_refused(client)  # (dora's: ok, before)
                # 2. no table number left at ann's worker, and its draw fails: both are
                # refused 'busy'
                _cap(postgres_url, "match_numbers", capped=False)
                await ann.send("seek 2")
                await ann.expect("ok", cmd="seek")
                _cap(postgres_url, "table_numbers")
                for _ in range(40):  # max uses up its numbers drawn ahead (not a game of 2)
                    await max_.send("new 3")
                    said = await max_.read_until(lambda x: fields(x)[0] in ("ok", "error"))
                    if said.startswith("error"):
                        assert "code=busy" in said, said
                        break
                    await max_.send("leave")
                    await max_.expect("ok", cmd="leave")
                else:
                    raise AssertionError("no 'new' was refused: the numbers never ran out")
                await dora.send("seek 2")
                await dora.expect("ok", cmd="seek")
                busy = await ann.read_until(lambda x: fields(x)[0] == "error", 10)
                assert "code=busy" in busy and "cannot reach its database" in busy, busy
                assert await dora.read_until(lambda x: fields(x)[0] == "error", 10) == busy
                for client in (ann, dora):
                    await _unseek_refused(client)  # (dora's: ok, before)
                await dora.send("seek 2")  # she seeks again, at her own worker
                await dora.expect("ok", cmd="seek")
            finally:
                await close_all(opened)
