"""A match a clean stop cuts off (the server's store closed while it ran) leaves at least
the trace a crash leaves (docs/scaling.md): listed with no winner and reason
``shutdown``, never shown as a draw."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import trio

from tests.server.client import LineClient, fields, play_machine, seat_pair
from tests.server.conftest import Connector

from .servers import web_server


def _record_line(line: str) -> bool:
    return line.startswith("record ")


async def test_a_match_cut_off_by_a_clean_stop_is_listed_as_stopped_never_as_a_draw(
    db_path: Path, connect: Connector
) -> None:
    with trio.fail_after(60):
        async with web_server(db_path) as web:
            ann = await connect.machine(web.port, "ann")
            bob = await connect.machine(web.port, "bob")
            await seat_pair(ann, bob, "2 to-1001")
            records: list[str] = []

            async def play(client: LineClient, seed: int) -> None:  # one deal, no more
                records.append(await play_machine(client, random.Random(seed), _record_line))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(play, ann, 1)
                nursery.start_soon(play, bob, 2)
            first = json.loads(fields(records[0])[1]["text"])
            totals = ",".join(map(str, first["totals"]))
        # the server stopped with the match running: a new one on the same file
        async with web_server(db_path) as web:
            ann = await connect.machine(web.port, "ann")
            await ann.send("games")
            assert (await ann.expect("games"))["count"] == "1"
            game = await ann.expect("game")
            assert (game["match"], game["winner"], game["reason"]) == ("m1", "-", "shutdown")
            assert game["totals"] == totals
            await ann.send("finger")
            assert (await ann.expect("finger"))["last"] == "m1"
            await ann.send("history")
            assert (await ann.expect("history"))["match"] == "m1"

            status, body = await web.get("/api/games/m1")
            assert status == 200
            replay = json.loads(body)
            assert (replay["winner"], replay["reason"], replay["stopped"]) == (
                None,
                "shutdown",
                True,
            )
            assert replay["totals"] == first["totals"] and len(replay["deals"]) == 1
            status, body = await web.get("/games/m1")
            page = body.decode()
            assert status == 200 and "a draw" not in page
            # said once: it read 'the server shut down while it ran (shutdown)'
            said = "not finished: the server shut down while it ran, after its last stored deal."
            assert said in page and "(shutdown)" not in page
            status, body = await web.get("/api/players/ann")
            player = json.loads(body)
            assert (player["won"], player["lost"], player["drawn"], player["stopped"]) == (
                0,
                0,
                0,
                1,
            )
            assert [(g["match"], g["result"]) for g in player["games"]] == [("m1", "stopped")]
            status, body = await web.get("/players/ann")
            assert status == 200 and "stopped <strong>1</strong>" in body.decode()

            # a crash's match (docs/scaling.md) is shown stopped too, by its own reason
            with sqlite3.connect(db_path) as db:
                db.execute("UPDATE matches SET reason = 'server-lost' WHERE id = 'm1'")
            status, body = await web.get("/games/m1")
            page = body.decode()
            assert "not finished: the server was lost while it ran, after" in page
            assert "(server-lost)" not in page
            # one a clean stop left before such matches were listed: its deals, no row
            with sqlite3.connect(db_path) as db:
                db.execute("DELETE FROM matches WHERE id = 'm1'")
            status, body = await web.get("/api/games/m1")
            replay = json.loads(body)
            assert (replay["winner"], replay["reason"], replay["stopped"]) == (
                None,
                "shutdown",
                True,
            )
