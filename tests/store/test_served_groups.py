"""A served match's writes reach the store in its writer's groups (Store.group,
server/store_writer.py): the lobby hands the store's groups to its writer, so deals
queued at once are one SQLite transaction, and a match's last deal and its result are
one. Counted where SQLite writes them: the commits in the file's write-ahead log."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import trio

from tests.server.client import play_machine, seat_pair
from tests.server.conftest import Connector, make_config, running_server

TIME_LIMIT_S = 30
HELD_FOR = 3  # deals told while another program holds the file's write lock


def commits(db: Path) -> int:
    """The transactions committed in ``db``'s write-ahead log since it began anew: its
    frames of the log's present round (the header's salts) that end a commit (they say
    the database's size; other frames say 0)."""
    wal = Path(f"{db}-wal").read_bytes()
    page_size = int.from_bytes(wal[8:12], "big")
    salts = wal[16:24]
    count = 0
    for at in range(32, len(wal) - 24 + 1, 24 + page_size):
        frame = wal[at : at + 24]
        if frame[8:16] != salts:  # (a frame of an earlier round, written over from the start)
            break
        count += int.from_bytes(frame[4:8], "big") != 0
    return count


async def test_a_served_matchs_deals_queued_at_once_and_its_end_commit_together(
    tmp_path: Path,
) -> None:
    """Another program holds the file's write lock while the match's first deals are
    told (the server's writer waits for it at the first, the next ones queue): once it
    lets go, the deals queued meanwhile are one commit, and the match's last deal with
    its result another. Fewer commits than deals in all; a writer without the store's
    groups commits every deal and the result on their own, one more than the deals."""
    db = tmp_path / "deberc.sqlite3"
    connect = Connector()
    ann_calls, told = random.Random(1), 0

    def held_long_enough(line: str) -> bool:
        nonlocal told
        told += line.startswith("record ")
        return told == HELD_FOR

    with trio.fail_after(TIME_LIMIT_S):
        async with running_server(make_config(db, match_seed="known")) as port:
            ann, bob = await connect.machine(port, "ann"), await connect.machine(port, "bob")
            try:
                await seat_pair(ann, bob)
                await ann.expect("event", kind="start")  # its number drawn (a commit)
                before = commits(db)
                other = sqlite3.connect(db, isolation_level=None)
                other.execute("BEGIN IMMEDIATE")  # (the writer waits up to 5 s for it)
                try:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(play_machine, bob, random.Random(2))
                        await play_machine(ann, ann_calls, stop=held_long_enough)
                        other.execute("ROLLBACK")
                        await play_machine(ann, ann_calls)
                finally:
                    other.close()
                deals = sum(line.startswith("record ") for line in ann.lines)
                assert deals > HELD_FOR  # (else its end waited for the lock: a longer match)
                assert commits(db) - before < deals
            finally:
                await connect.aclose()
