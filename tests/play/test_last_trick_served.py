"""The Last line over a real server's lines: every taken trick, each deal's final one
too (it is shown from the deal's end until the next deal, when no ask comes), with who
laid each card. The client's state is the fold of a played match's lines."""

from __future__ import annotations

import random
from pathlib import Path

import trio

from clients.play.draw import table_text
from clients.play.state import TableState, fold
from tests.server.client import is_event, machine_client, play_machine, seat_pair
from tests.server.conftest import make_config, running_server


async def test_each_deals_final_trick_keeps_who_laid_its_cards(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with running_server(make_config(tmp_path / "db.sqlite3")) as port:
            ann = await machine_client(port, "ann")
            bob = await machine_client(port, "bob")
            await seat_pair(ann, bob, "2 moscow to-301")
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play_machine, ann, random.Random(3))
                nursery.start_soon(play_machine, bob, random.Random(4))
            await ann.aclose()
            await bob.aclose()
    state, finals = TableState(), 0
    for line in ann.lines:
        state = fold(state, line)
        if is_event(line, "trick"):
            assert all(seat >= 0 for seat, _ in state.last_trick), (line, state.last_trick)
        if is_event(line, "deal-end") and state.last_trick:  # (a void deal took none)
            finals += 1
            last = table_text(state).splitlines()[5]
            assert last.count("ann ") + last.count("bob ") == 2, last
            assert "not seen" not in last, last
    assert finals >= 2  # deals played to their end
