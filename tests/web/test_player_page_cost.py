"""A player's page and its JSON read and draw his last 500 rated matches, not all of
them (docs/web.md, "Plots"; docs/security.md §8). A bench of a big club
(bench/big_club.py): a player rated in 10,000 matches cost 150 ms of CPU a page (all
his points read, drawn and dotted: 800 KB), and a rated house bot's page and 'finger'
read the bot's whole history and each match's deals. Real sockets, a real SQLite file;
the server runs in this process: its CPU is ours."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deberc_net.server.store import open_store

RATED = 10_000


def fill(db_path: Path, name: str, player: Callable[[int], str]) -> None:
    """``name`` rated in RATED matches, the last 60 of them listed, each played by
    ``player(number)`` against bob."""
    open_store(db_path).close()  # (the schema made) the rows written at once
    with sqlite3.connect(db_path) as db:
        db.executemany(
            "INSERT INTO rating_history (key, variant, players, match_id, rating)"
            " VALUES (?, 'moscow', 2, ?, ?)",
            [(name, f"m{n}", float(n % 97)) for n in range(1, RATED + 1)],
        )
        listed = range(RATED - 59, RATED + 1)
        db.executemany(
            "INSERT INTO matches (id, table_id, players, variant, options, winner, reason,"
            " totals) VALUES (?, 1, ?, 'moscow', '[]', 'bob', 'target', '[301, 10]')",
            [(f"m{n}", json.dumps([player(n), "bob"])) for n in listed],
        )
        db.executemany(  # (with its match's time and place, as the store writes them)
            "INSERT INTO match_players (match_id, key, finished, seq)"
            " SELECT id, ?, finished, rowid FROM matches WHERE id = ?",
            [(p, f"m{n}") for n in listed for p in (player(n), "bob")],
        )
        db.executemany(  # (a deal each, its players: all a house bot's page read of it)
            "INSERT INTO deals (match_id, deal_no, record) VALUES (?, 1, ?)",
            [(f"m{n}", json.dumps({"players": [player(n), "bob"]})) for n in listed],
        )
    db.close()


async def test_a_page_of_a_player_rated_in_10000_matches_draws_his_last_500(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    fill(db_path, "hero", lambda n: "hero")
    web = await start_web()
    started = time.process_time()
    for _ in range(5):
        status, page = await web.get("/players/hero")
        assert status == 200
        status, body = await web.get("/api/players/hero")
        assert status == 200
    spent = time.process_time() - started
    assert spent < 0.6, spent  # 0.9 s before here, 0.1 s now
    history = json.loads(body)["rating_history"]
    assert [p["match"] for p in history] == [f"m{n}" for n in range(RATED - 499, RATED + 1)]
    dots = re.findall(r'<circle class="point" cx="([0-9.]+)"', page.decode())
    assert len(dots) == 500


async def test_a_house_bots_page_and_finger_read_its_newest_matches_only(
    start_web: Callable[..., Any], db_path: Path
) -> None:
    fill(db_path, "house-heuristic", lambda n: f"house-heuristic-{n}")
    web = await start_web()
    started = time.process_time()
    for _ in range(5):
        status, body = await web.get("/api/players/house-heuristic")
        assert status == 200
    spent = time.process_time() - started
    assert spent < 0.3, spent  # 0.5 s before here, 0.05 s now
    games = json.loads(body)["games"]
    assert [g["match"] for g in games] == [f"m{n}" for n in range(RATED, RATED - 50, -1)]
    assert games[0]["players"] == [f"house-heuristic-{RATED}", "bob"]
