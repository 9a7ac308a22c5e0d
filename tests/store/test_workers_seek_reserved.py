"""``serve --workers``: a bot's ``seek reserved`` on one worker, made before that worker
heard of the table a ladder's admin reserved for it on another, is seated there once the
table's copy comes (docs/scaling.md, "seek reserved across workers"). A real worker in
this process on PostgreSQL, the test playing the admin's worker on the real bus."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from deberc_net.server.cluster.bus import LOBBY, channel
from tests.server.client import LineClient, log_in_machine

from .workers import OTHER, heard_one, told_table, worker_and_bus

TABLE = 9001  # the admin's worker's table (the real worker draws its own from 1)


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_seek_reserved_made_before_the_tables_copy_came_is_seated_there(
    postgres_url: str,
) -> None:
    # a ladder run --server against serve --workers 2: a bot on the worker that had not
    # yet heard of its reserved table waited, unseated, till its seat forfeited at the
    # away limit (2 min a game lost, 'never sat down'; failed before)
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            rand = await log_in_machine(await LineClient.connect(port), "rand-1")
            await rand.send("seek reserved")
            await rand.expect("ok", cmd="seek", reserved="1")
            here = (await heard_one(heard, k="in", name="rand-1"))["w"]
            reserved = told_table(TABLE, [None, None]) | {"reserved": ["heur-1", "rand-1"]}
            board = reserved | {"board": "b1"}
            for _ in range(2):  # told again, as at every beat: asked for once
                other.publish(LOBBY, {"k": "tables", "open": [board], "gone": []})
            sit = await heard_one(heard, k="post", table=TABLE, m="sit")
            assert sit["w"] == here and sit["who"][0] == "rand-1", sit
            # another table reserved for others seats nobody; one not reserved neither
            others = told_table(TABLE + 1, [None, None]) | {"reserved": ["heur-2", "rand-2"]}
            plain = told_table(TABLE + 2, [None, None])
            other.publish(LOBBY, {"k": "tables", "open": [others, plain], "gone": []})
            # the worker's answer comes after whatever it sent on reading the above (the
            # bus keeps a sender's order)
            other.publish(channel(here), {"k": "mark", "s": 1})
            await heard_one(heard, k="marked", s=1)
            sits = [m for m in heard if m.get("k") == "post" and m.get("m") == "sit"]
            assert [m["table"] for m in sits] == [TABLE], sits
            await rand.aclose()


@pytest.mark.timeout(100)  # its fail_after(60), then its clean-up
async def test_a_seek_reserved_after_a_board_over_elsewhere_skips_its_stale_copy(
    postgres_url: str,
) -> None:
    # the same ladder: a bot played a board at the admin's worker, and sought again at
    # its match's end; its worker's copy of that board, told waiting before the bot sat
    # and not yet told gone, took the seek: asked there, 'there is no table', the seek
    # lost, and the bot's next board forfeited at the away limit (failed before)
    heard: list[dict[str, Any]] = []
    with trio.fail_after(60):
        async with worker_and_bus(postgres_url, heard, OTHER) as (port, other):
            rand = await log_in_machine(await LineClient.connect(port), "rand-1")
            here = (await heard_one(heard, k="in", name="rand-1"))["w"]
            board = told_table(TABLE, [None, None]) | {"reserved": ["heur-1", "rand-1"]}
            other.publish(LOBBY, {"k": "tables", "open": [board], "gone": []})
            other.publish(channel(here), {"k": "mark", "s": 1})
            await heard_one(heard, k="marked", s=1)
            await rand.send("seek reserved")  # the copy waits: asked of its owner
            sit = await heard_one(heard, k="post", table=TABLE, m="sit")
            session, asked = sit["s"], sit["r"]
            # the owner seats him, answers, and (the match played) places him out
            seated = board | {"seats": [None, "rand-1"]}
            placed = {"k": "placed", "s": session, "seat": 1, "table": TABLE, "info": seated}
            other.publish(channel(here), placed)
            done = {"k": "text", "s": session, "text": "", "asks": 0, "done": [asked]}
            other.publish(channel(here), done)
            other.publish(channel(here), {"k": "placed", "s": session, "seat": None, "table": None})
            other.publish(channel(here), {"k": "mark", "s": 2})
            await heard_one(heard, k="marked", s=2)
            await rand.send("seek reserved")  # the copy still says waiting: old news
            await rand.expect("ok", cmd="seek", reserved="1")
            sits = [m for m in heard if m.get("k") == "post" and m.get("m") == "sit"]
            assert [m["table"] for m in sits] == [TABLE], sits
            # his next board, told: he is seated there
            following = told_table(TABLE + 3, [None, None]) | {"reserved": ["rand-1", "heur-1"]}
            other.publish(LOBBY, {"k": "tables", "open": [following], "gone": [TABLE]})
            await heard_one(heard, k="post", table=TABLE + 3, m="sit")
            await rand.aclose()
