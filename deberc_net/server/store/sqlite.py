"""The SQLite store: accounts, finished matches and every deal record.

Plain ``sqlite3`` calls, made from a worker thread by the server (one at a time), so
the event loop never waits on the disk. Each write is its own transaction: a finished
deal is on disk before anyone is told the next one started.

The decks of a running match must not be knowable: its deals are stored without the
match seed and are not exported until the match ends, when the seed is filled in. The
file is created readable by its owner only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    key TEXT PRIMARY KEY,  -- name_key(name): one account however a name is written
    name TEXT NOT NULL,
    salt BLOB NOT NULL,
    hash BLOB NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL,
    players TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    winner TEXT,
    reason TEXT NOT NULL,
    totals TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS deals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id TEXT NOT NULL,
    deal_no INTEGER NOT NULL,
    record TEXT NOT NULL,
    UNIQUE (match_id, deal_no)
);
CREATE TABLE IF NOT EXISTS match_players (
    match_id TEXT NOT NULL,
    key TEXT NOT NULL  -- name_key(the player's name)
);
CREATE INDEX IF NOT EXISTS match_players_key ON match_players (key);
CREATE TABLE IF NOT EXISTS running (  -- matches whose records are withheld (and seedless)
    match_id TEXT PRIMARY KEY
);
"""


def name_key(name: str) -> str:
    """One person however a name is written: compatibility forms (full-width letters)
    folded, case folded in any alphabet (АНЯ is аня)."""
    return unicodedata.normalize("NFKC", name).casefold()


class Store:
    def __init__(self, path: str | Path, *, serving: bool = False) -> None:
        """``serving``: opened by a server, so the matches an earlier run left running
        are over (their records, seedless, become exportable)."""
        self.path = str(path)
        if self.path != ":memory:" and not os.path.exists(self.path):
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))  # SQLite gives
            # its -wal and -shm files the same mode
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            if serving:
                self._db.execute("DELETE FROM running")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # accounts
    def account(self, name: str) -> tuple[bytes, bytes] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT salt, hash FROM accounts WHERE key = ?", (name_key(name),)
            ).fetchone()
        return (row[0], row[1]) if row else None

    def add_account(self, name: str, salt: bytes, digest: bytes) -> bool:
        """Register ``name``; False if it is taken already."""
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO accounts (key, name, salt, hash) VALUES (?, ?, ?, ?)",
                    (name_key(name), name, salt, digest),
                )
            except sqlite3.IntegrityError:
                return False
        return True

    def forget_account(self, name: str) -> None:
        """Drop an account (the ladder re-makes its admin on its own server each run)."""
        with self._lock:
            self._db.execute("DELETE FROM accounts WHERE key = ?", (name_key(name),))

    # records
    def add_deal(self, record: dict[str, Any]) -> None:
        """Store a deal of a running match: withheld, and without the seed."""
        body = json.dumps({**record, "seed": None}, ensure_ascii=False, separators=(",", ":"))
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT OR IGNORE INTO running (match_id) VALUES (?)",
                             (record["match"],))
            self._db.execute(
                "INSERT OR REPLACE INTO deals (match_id, deal_no, record) VALUES (?, ?, ?)",
                (record["match"], record["deal_no"], body),
            )

    def finish_match(
        self, match_id: str, table_id: int, players: list[str], variant: str,
        options: list[str], winner: str | None, reason: str, totals: list[int],
        seeds: dict[int, str] | None = None,
    ) -> None:
        """The match is over: its row, and its deals released with their seeds (by deal
        number) filled in."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            rows = self._db.execute("SELECT id, record FROM deals WHERE match_id = ?",
                                    (match_id,)).fetchall()
            for row_id, body in rows:
                record = json.loads(body)
                filled = {**record, "seed": (seeds or {}).get(record["deal_no"])}
                self._db.execute("UPDATE deals SET record = ? WHERE id = ?", (json.dumps(
                    filled, ensure_ascii=False, separators=(",", ":")), row_id))
            self._db.execute("DELETE FROM running WHERE match_id = ?", (match_id,))
            self._db.execute(
                "INSERT OR REPLACE INTO matches (id, table_id, players, variant, options, winner,"
                " reason, totals) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, table_id, json.dumps(players), variant, json.dumps(options), winner,
                 reason, json.dumps(totals)),
            )
            self._db.executemany(
                "INSERT INTO match_players (match_id, key) VALUES (?, ?)",
                [(match_id, name_key(p)) for p in set(players)],
            )

    def records(self) -> Iterator[str]:
        """Every stored deal except those of matches still running."""
        with self._lock:
            rows = self._db.execute(
                "SELECT record FROM deals WHERE match_id NOT IN (SELECT match_id FROM running)"
                " ORDER BY id").fetchall()
        for (body,) in rows:
            yield body

    def recent_games(self, name: str, limit: int = 10) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT m.id, m.table_id, m.players, m.variant, m.winner, m.reason, m.totals,"
                " m.finished FROM matches m JOIN match_players p ON p.match_id = m.id"
                " WHERE p.key = ? ORDER BY m.finished DESC, m.rowid DESC LIMIT ?",
                (name_key(name), limit),
            ).fetchall()
        return [
            {"match": r[0], "table": r[1], "players": json.loads(r[2]), "variant": r[3],
             "winner": r[4], "reason": r[5], "totals": json.loads(r[6]), "finished": r[7]}
            for r in rows
        ]

    def max_match_number(self) -> int:
        """Match ids are ``m<N>``; a restarted server continues after the last one."""
        with self._lock:
            rows = self._db.execute(
                "SELECT match_id FROM deals UNION SELECT id FROM matches"
            ).fetchall()
        numbers = [int(r[0][1:]) for r in rows if r[0].startswith("m") and r[0][1:].isdigit()]
        return max(numbers, default=0)
