"""Ladder results for the pages: read-only from the SQLite file a ladder run with ``--db``
shares with the server (deberc_net/ladder/store.py writes it)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import attrs

from deberc_net.ladder.results import count_pairs
from deberc_net.ladder.stats import PairStats

from .plot import Rule, Series, line_chart

ELO_LIMIT = 800.0  # a pair with no loss yet has infinite Elo: the plot stops at ±800


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


def elo_curves(run: LadderRun) -> dict[tuple[str, str], list[float]]:
    """Each pair's Elo (first against second, as in the pairs table) after each game
    counted for it, from the run's stored games in the order they were counted."""
    pairs: dict[tuple[str, str], PairStats] = {}
    curves: dict[tuple[str, str], list[float]] = {}
    for game in run.games:
        written = game["written"]
        bots = game["seating"][: len(written)]  # side i's first seat is seat i
        key = (game["board"], tuple(sorted(set(game["seating"]))))
        for pair in count_pairs(pairs, key, bots, written, game["forfeit"]):
            curves.setdefault(pair, []).append(pairs[pair].elo()[0])
    return dict(sorted(curves.items()))


def sprt_rules(run: LadderRun) -> list[Rule]:
    """The SPRT's two hypotheses as Elo lines, from the pair's side (the test is from
    the first bot's side, the pairs from the alphabetically first bot's)."""
    s = run.summary
    if not s or not s.get("sprt") or len(s["bots"]) != 2:
        return []
    sign = 1 if s["bots"][0] == min(s["bots"]) else -1
    elo0, elo1 = sign * s["sprt"]["elo0"] + 0.0, sign * s["sprt"]["elo1"] + 0.0  # no -0
    return [
        Rule(f"SPRT H0 {elo0:+g}", elo0),
        Rule(f"SPRT H1 {elo1:+g}", elo1),
    ]


def elo_plot(run: LadderRun) -> str | None:
    """The SVG of Elo against games counted, one line per pair (None: no game yet)."""
    curves = elo_curves(run)
    if not curves:
        return None
    return line_chart(
        [Series(f"{a} v {b}", values) for (a, b), values in curves.items()],
        rules=sprt_rules(run),
        x_label="games counted for the pair (each board once per seating)",
        y_label="Elo (first v second)",
        title=f"Ladder run {run.id}: Elo against games played",
        limit=ELO_LIMIT,
    )
