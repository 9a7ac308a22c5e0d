"""A finished ladder run stored for the ladders' pages' tests, with the faults and the
clock's calls its summary counts, and its page's table of them read back."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from deberc_net.ladder.stats import PairStats
from deberc_net.ladder.store import StoredGame, open_ladder_store

RU = {"Accept-Language": "ru"}
FIRST_FAULT = "choose raised RuntimeError('x') at greedy.py:42"
FIRST_CLOCK = "match m1 deal 1: play Jh"
COUNTED = {
    "fallbacks": {"heur": 12},
    "bot_errors": {"heur": 3},
    "first_faults": {"heur": FIRST_FAULT},
    "clock_calls": {"rand": 2},
    "first_clock_calls": {"rand": FIRST_CLOCK},
}


def store_run(db_path: Path, counted: dict[str, Any]) -> int:
    """A finished run of one game of heur v rand, its summary with ``counted``."""
    pair = PairStats("heur", "rand", 2)
    pair.add((0, ("heur", "rand")), 162, 0)
    summary = {
        "bots": ["heur", "rand"], "players": 2, "variant": "moscow", "options": [],
        "boards": 1, "seed": "s1", "schedule": "round-robin", "games": 1, "deals": 1,
        "ratings": [], "pairs": [pair.as_dict()], "sprt": None, **counted,
    }  # fmt: skip
    store = open_ladder_store(db_path)
    try:
        run = store.start_run({})
        store.add_games(run, [StoredGame(0, ["heur", "rand"], "m1", [162, 0], "score", None)])
        store.finish_run(run, summary, [], {})
        return run
    finally:
        store.close()


def faults_table(page: str) -> list[list[str]]:
    """The rows of a run's page's table of its bots' faults, cell by cell."""
    table = page.split('id="bot-faults"', 1)[1].split("</table>", 1)[0]
    rows = table.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [html.unescape(cell.split("</td>", 1)[0]) for cell in row.split("<td>")[1:]]
        for row in rows.split("<tr>")[1:]
    ]
