"""Fill an SQLite store with a big club, to measure what a read costs at that size.

20,000 registered players rated in Moscow for two, 200,000 finished matches (a deal
record each; match mN played at public table N), one player (``hero``) in 10,000 of
them (his last match whole, 8 deals), a rated house bot (``house-heuristic``) rated in
5,000, and ladder runs (run 50 of 20,000 games still running, run 51 of 20,000
finished). The rows are written with plain SQL at once, not a match at a time, as the
store writes them (migration 15's columns of ``match_players`` too).

    .venv/bin/python bench/big_club.py /dev/shm/big.sqlite3 [--matches 200000]

Then measure a server on it: ``bench/big_club_measure.py`` (docs/security.md §2, §8).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from deberc_net.ladder.stats import PairStats
from deberc_net.server.accounts import set_password
from deberc_net.server.store import open_store


def real_deals() -> list[dict[str, object]]:
    """A real match's deals (a selfplay's), to copy into every stored match."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "deals.jsonl"
        subprocess.run(
            [sys.executable, "-m", "deberc_net", "selfplay", "--games", "1", "--seed", "7",
             "--records", str(out)],
            check=True, capture_output=True,
        )  # fmt: skip
        return [json.loads(line) for line in out.read_text().splitlines()]


def fill(db: Path, matches: int, players: int, hero_games: int, bot_games: int) -> None:
    open_store(db).close()  # the schema
    deals = real_deals()
    rng = random.Random(1)
    names = [f"p{i:05d}" for i in range(players)]
    con = sqlite3.connect(db)
    con.execute("PRAGMA synchronous=OFF")
    con.executemany(
        "INSERT INTO accounts (key, name, salt, hash) VALUES (?, ?, ?, ?)",
        [(n, n, b"s" * 16, b"h" * 64) for n in names],
    )
    con.commit()
    store = open_store(db)
    set_password(store, "hero", "hero-password")  # (a real login: his password hashed)
    store.close()
    hero_every = matches // hero_games
    bot_every = matches // bot_games
    rows, seats, records, history = [], [], [], []
    for number in range(1, matches + 1):
        match = f"m{number}"
        pair = rng.sample(names, 2)
        if number % hero_every == 0:
            pair[0] = "hero"
        elif number % bot_every == 1:
            pair[0] = f"house-heuristic-{number}"
        finished = f"2026-{1 + number * 11 // matches:02d}-01 00:00:00"
        rows.append(
            (match, number, json.dumps(pair), "moscow", "[]", pair[0], "target", "[301, 120]",
             finished, True)
        )  # fmt: skip
        seats += [(match, p, finished, number) for p in pair]  # (its rowid: its number)
        whole = pair[0] == "hero" and number + hero_every > matches  # his last: whole
        for deal in deals if whole else deals[:1]:
            records.append(
                (match, deal["deal_no"], json.dumps({**deal, "match": match, "players": pair}))
            )
        for p in pair:
            rated = "house-heuristic" if p.startswith("house-heuristic-") else p
            history.append((rated, "moscow", 2, match, rng.uniform(0, 40)))
        if len(rows) >= 20_000:
            flush(con, rows, seats, records, history)
    flush(con, rows, seats, records, history)
    con.executemany(
        "INSERT INTO player_ratings (key, name, variant, players, mu, sigma, rating, games,"
        " wins, losses, draws) VALUES (?, ?, 'moscow', 2, 25, 8, ?, 20, 10, 10, 0)",
        [(n, n, rng.uniform(0, 40)) for n in [*names, "hero", "house-heuristic"]],
    )
    ladder(con, rng)
    con.commit()
    con.execute("ANALYZE")
    con.close()


def flush(con: sqlite3.Connection, rows: list, seats: list, records: list, history: list) -> None:  # type: ignore[type-arg]
    con.executemany(
        "INSERT INTO matches (id, table_id, players, variant, options, winner, reason, totals,"
        " finished, public_table) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    con.executemany(
        "INSERT INTO match_players (match_id, key, finished, seq) VALUES (?, ?, ?, ?)", seats
    )
    con.executemany("INSERT INTO deals (match_id, deal_no, record) VALUES (?, ?, ?)", records)
    con.executemany(
        "INSERT INTO rating_history (key, variant, players, match_id, rating)"
        " VALUES (?, ?, ?, ?, ?)",
        history,
    )
    con.commit()
    for kept in (rows, seats, records, history):
        kept.clear()


def ladder(con: sqlite3.Connection, rng: random.Random) -> None:
    """50 ladder runs of 2,000 games, the last of 20,000 (no summary: the games alone),
    and a finished run of 20,000 (``finished_run``)."""
    games = []
    for run in range(1, 51):
        con.execute("INSERT INTO ladder_runs (id, settings) VALUES (?, '{}')", (run,))
        for board in range(20_000 if run == 50 else 2_000):
            seating = json.dumps(["heuristic", "random"][:: rng.choice((1, -1))])
            games.append((run, board // 2, seating, f"m{board + 1}", "[162, 0]", "target"))
    con.executemany(
        "INSERT INTO ladder_games (run_id, board, seating, match_id, written, reason)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        games,
    )
    finished_run(con, rng)
    con.execute(
        "INSERT INTO ladder_ratings (variant, players, bot, mu, sigma, rating, games) VALUES"
        " ('moscow', 2, 'heuristic', 30, 2, 24, 60000), ('moscow', 2, 'random', 20, 2, 14, 60000)"
    )


def finished_run(con: sqlite3.Connection, rng: random.Random, run: int = 51) -> None:
    """Run 51: 20,000 games of heuristic v random, each won by either, and its summary
    (a finished run: its page draws each pair's Elo over its games)."""
    pair, games = PairStats("heuristic", "random", 2), []
    for board in range(20_000):
        seating = ["heuristic", "random"][:: rng.choice((1, -1))]
        written = [162, 0] if rng.random() < 0.6 else [0, 162]
        mine, theirs = written[seating.index("heuristic")], written[seating.index("random")]
        pair.add((board // 2, ("heuristic", "random")), mine, theirs)
        games.append((run, board // 2, json.dumps(seating), f"m{board + 1}", json.dumps(written)))
    summary = {
        "bots": ["heuristic", "random"], "players": 2, "variant": "moscow", "options": [],
        "boards": 10_000, "seed": "big", "schedule": "round-robin", "games": 20_000,
        "deals": 20_000, "pairs": [pair.as_dict()], "sprt": None,
        "ratings": [{"bot": "heuristic", "mu": 30, "sigma": 2, "rating": 24},
                    {"bot": "random", "mu": 20, "sigma": 2, "rating": 14}],
    }  # fmt: skip
    con.execute(
        "INSERT INTO ladder_runs (id, settings, summary) VALUES (?, '{}', ?)",
        (run, json.dumps(summary)),
    )
    con.executemany(
        "INSERT INTO ladder_games (run_id, board, seating, match_id, written, reason)"
        " VALUES (?, ?, ?, ?, ?, 'target')",
        games,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--matches", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--hero-games", type=int, default=10_000)
    parser.add_argument("--bot-games", type=int, default=5_000)
    args = parser.parse_args()
    if args.db.exists():
        sys.exit(f"{args.db} exists: give a new file")
    fill(args.db, args.matches, args.players, args.hero_games, args.bot_games)
    print(f"{args.db}: {args.db.stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
