"""Ladder results for the pages: read-only from the SQLite file a ladder run with ``--db``
shares with the server (deberc_net/ladder/store.py writes it)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import attrs


@attrs.frozen
class LadderRun:
    id: int
    started: str
    summary: dict[str, Any] | None  # the run's report (None while it runs or if it broke)
    games: list[dict[str, Any]]  # board, seating, match_id, written, reason, forfeit


@attrs.frozen
class Ladders:
    leaderboard: list[dict[str, Any]]  # bot, rating, mu, sigma, games, updated
    runs: list[LadderRun]  # newest first, without their games


def _connect(path: str) -> sqlite3.Connection | None:
    """Read-only: the web face never writes ladder tables (None: no such file)."""
    if not Path(path).exists():
        return None
    return sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)


def _has_ladders(db: sqlite3.Connection) -> bool:
    found = db.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
        "('ladder_runs', 'ladder_games', 'ladder_ratings')"
    ).fetchone()
    return bool(found and found[0] == 3)


def ladders(path: str) -> Ladders:
    db = _connect(path)
    if db is None:
        return Ladders([], [])
    try:
        if not _has_ladders(db):
            return Ladders([], [])
        board = db.execute(
            "SELECT bot, rating, mu, sigma, games, updated FROM ladder_ratings ORDER BY rating DESC"
        ).fetchall()
        keys = ("bot", "rating", "mu", "sigma", "games", "updated")
        runs = db.execute(
            "SELECT id, started, summary FROM ladder_runs ORDER BY id DESC"
        ).fetchall()
    finally:
        db.close()
    return Ladders(
        [dict(zip(keys, row, strict=True)) for row in board],
        [LadderRun(i, started, json.loads(s) if s else None, []) for i, started, s in runs],
    )


def ladder_run(path: str, run: int) -> LadderRun | None:
    db = _connect(path)
    if db is None:
        return None
    try:
        if not _has_ladders(db):
            return None
        row = db.execute(
            "SELECT id, started, summary FROM ladder_runs WHERE id = ?", (run,)
        ).fetchone()
        if row is None:
            return None
        games = db.execute(
            "SELECT board, seating, match_id, written, reason, forfeit FROM ladder_games "
            "WHERE run_id = ? ORDER BY rowid",
            (run,),
        ).fetchall()
    finally:
        db.close()
    keys = ("board", "seating", "match_id", "written", "reason", "forfeit")
    listed = []
    for game in games:
        entry = dict(zip(keys, game, strict=True))
        entry["seating"], entry["written"] = (
            json.loads(entry["seating"]),
            json.loads(entry["written"]),
        )
        listed.append(entry)
    return LadderRun(row[0], row[1], json.loads(row[2]) if row[2] else None, listed)
