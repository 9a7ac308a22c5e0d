"""Running ladders from the tests: the reference bots' commands, the CLI as a process,
and what it stored."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from deberc_net.server.store import open_store

PY = shlex.quote(sys.executable)
# The reference bots in the ladder's own process (docs/bots.md "In-process bots"): the
# same protocol bytes through the same server code, without starting a Python per bot.
# tests/ladder/test_in_process.py shows they play exactly as their processes do, and
# the tests on supervising bots (crash, hang, cannot start) run processes.
HEUR = "heur=py:clients.heuristic_bot"
RAND = "rand=py:clients.random_bot --seed 1"
RAND2 = "rand2=py:clients.random_bot --seed 2"


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body, encoding="utf-8")
    return f"{name}={PY} {shlex.quote(str(path))}"


def ladder_argv(db: Path | str, *args: str) -> list[str]:
    return [sys.executable, "-m", "deberc_net", "ladder", "run", "--db", str(db), *args]


def ladder(
    tmp_path: Path, *args: str, db: Path | str | None = None, timeout: float = 50
) -> subprocess.CompletedProcess[str]:
    argv = ladder_argv(db or tmp_path / "ladder.sqlite3", *args)
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=tmp_path)


def summary(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("\n") == 1  # --json: the summary as one object on one line
    data = json.loads(done.stdout)
    assert isinstance(data, dict)
    return data


def games_in(db: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT board, seating, match_id, written, reason, forfeit FROM ladder_games ORDER BY rowid"
    ).fetchall()
    con.close()
    keys = ("board", "seating", "match_id", "written", "reason", "forfeit")
    out = [dict(zip(keys, r, strict=True)) for r in rows]
    for row in out:
        row["seating"], row["written"] = json.loads(row["seating"]), json.loads(row["written"])
    return out


def records_in(db: Path) -> list[dict[str, Any]]:
    store = open_store(db)  # the ladder's server stores its deal records in the same file
    try:
        return [json.loads(body) for body in store.records()]
    finally:
        store.close()


def pair_of(data: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    (found,) = [p for p in data["pairs"] if (p["a"], p["b"]) == (a, b)]
    return found
