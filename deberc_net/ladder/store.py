"""Ladder results in the same SQLite file as the server: runs, games, ratings."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL DEFAULT (datetime('now')),
    settings TEXT NOT NULL,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS ladder_games (
    run_id INTEGER NOT NULL,
    board INTEGER NOT NULL,
    seating TEXT NOT NULL,
    match_id TEXT,
    written TEXT NOT NULL,
    reason TEXT NOT NULL,
    forfeit TEXT
);
CREATE TABLE IF NOT EXISTS ladder_ratings (
    bot TEXT PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    updated TEXT NOT NULL DEFAULT (datetime('now'))
);
"""


class LadderStore:
    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def start_run(self, settings: dict[str, Any]) -> int:
        cur = self.db.execute("INSERT INTO ladder_runs (settings) VALUES (?)",
                              (json.dumps(settings),))
        return int(cur.lastrowid or 0)

    def add_game(self, run: int, board: int, seating: list[str], match_id: str | None,
                 written: list[int], reason: str, forfeit: str | None) -> None:
        self.db.execute(
            "INSERT INTO ladder_games VALUES (?, ?, ?, ?, ?, ?, ?)",
            (run, board, json.dumps(seating), match_id, json.dumps(written), reason, forfeit),
        )

    def finish_run(self, run: int, summary: dict[str, Any], ratings: list[dict[str, Any]],
                   games: dict[str, int]) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE ladder_runs SET summary = ? WHERE id = ?",
                            (json.dumps(summary), run))
            for row in ratings:
                self.db.execute(
                    "INSERT INTO ladder_ratings (bot, mu, sigma, rating, games) VALUES "
                    "(?, ?, ?, ?, ?) ON CONFLICT(bot) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, rating = excluded.rating, "
                    "games = ladder_ratings.games + excluded.games, updated = datetime('now')",
                    (row["bot"], row["mu"], row["sigma"], row["rating"], games.get(row["bot"], 0)),
                )

    def leaderboard(self) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT bot, rating, mu, sigma, games, updated FROM ladder_ratings "
            "ORDER BY rating DESC"
        ).fetchall()
        return [dict(zip(("bot", "rating", "mu", "sigma", "games", "updated"), r, strict=True))
                for r in rows]
