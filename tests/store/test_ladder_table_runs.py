"""``ladder table --json --runs``: one object with all that the text table says (the
leaderboard, the runs not counted and why, the board keys whose results await a
release) and every run's summary, settings and stop (docs/bots.md), from an SQLite file
as from PostgreSQL. Before, ``--json`` printed the leaderboard alone, and a program had
no way to a run's faults, clock's calls, seed or margins but the SQL; ``--json`` alone
still prints the leaderboard's list, as its readers read it."""

from __future__ import annotations

import json
from pathlib import Path

from deberc_net.ladder.store import open_ladder_store
from tests.ladder.helpers import RAND, RAND2, ladder, run_cli, summary
from tests.store.distributed import query

from .records import raw

RATED = {"bot": "heur", "mu": 3.0, "sigma": 2.5, "rating": 30.0}
COUNTED = {"bots": ["heur"], "seed": "s1", "deals": 1, "clock_calls": {"heur": 2}}


def test_the_runs_and_what_the_text_says_below_the_ratings_on_both_stores(
    store_db: str,
) -> None:
    store = open_ladder_store(store_db)
    try:
        counted = store.start_run({"argv": ["ladder", "run", "--seed", "s1"]})
        store.finish_run(counted, COUNTED, [RATED], {"heur": 1})
        playing = store.start_run({"argv": []})  # a single-machine run: no boards
        queued = store.start_run({"argv": [], "distributed": {}})
        failed = store.start_run({"argv": [], "distributed": {}})
        leaderboard = store.leaderboard()
    finally:
        store.close()
    raw(
        store_db,
        "UPDATE ladder_runs SET stopped = 'failed', stop_reason = 'worker h/1/ab: no bot'"
        f" WHERE id = {failed}",
        *(
            "INSERT INTO ladder_boards (run_id, board, spec, done)"
            f" VALUES ({queued}, {board}, '{{}}', {played})"
            for board, played in ((1, "TRUE"), (2, "FALSE"), (3, "FALSE"))
        ),
        *(
            f"INSERT INTO running (match_id, board, result) VALUES ('{match}', 'k1', '{{}}')"
            for match in ("m1", "m2")
        ),
    )
    plain = run_cli(["ladder", "table", "--db", store_db, "--json"])
    assert plain.returncode == 0 and json.loads(plain.stdout) == leaderboard  # as ever
    done = run_cli(["ladder", "table", "--db", store_db, "--json", "--runs"])
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)
    assert set(table) == {"leaderboard", "runs", "withheld"}
    assert table["leaderboard"] == leaderboard
    assert table["withheld"] == [{"board": "k1", "results": 2}]
    runs = {run["id"]: run for run in table["runs"]}
    assert [run["id"] for run in table["runs"]] == [failed, queued, playing, counted]
    assert runs[counted]["counted"] and runs[counted]["summary"] == COUNTED
    assert runs[counted]["settings"] == {"argv": ["ladder", "run", "--seed", "s1"]}
    assert (runs[counted]["boards_done"], runs[counted]["boards_queued"]) == (None, None)
    assert not runs[playing]["counted"] and runs[playing]["summary"] is None
    assert (runs[playing]["boards_done"], runs[playing]["boards_queued"]) == (0, 0)
    assert (runs[queued]["boards_done"], runs[queued]["boards_queued"]) == (1, 3)
    assert runs[queued]["stopped"] is None
    assert runs[failed]["stopped"] == "failed"
    assert runs[failed]["stop_reason"] == "worker h/1/ab: no bot"
    for run in table["runs"]:
        assert set(run) == {
            "id", "started", "counted", "summary", "settings", "stopped", "stop_reason",
            "boards_done", "boards_queued",
        }  # fmt: skip
        assert len(run["started"]) == len("2026-12-07 04:01:52")  # UTC, as SQLite says it


def test_a_runs_summary_is_its_ladder_run_json(tmp_path: Path) -> None:
    """What ``ladder run --json`` printed (the faults, the clock's calls, the seed, each
    pair's margins) is the run's ``summary`` there, and its command line its settings."""
    db = tmp_path / "ladder.sqlite3"
    data = summary(ladder(tmp_path, "--bot", RAND, "--bot", RAND2, "--deals", "2", "--json"))
    done = run_cli(["ladder", "table", "--db", str(db), "--json", "--runs"])
    assert done.returncode == 0, done.stderr
    (run,) = json.loads(done.stdout)["runs"]
    assert run["summary"] == data and run["counted"]
    assert {"fallbacks", "clock_calls", "seed", "pairs"} <= set(run["summary"])
    assert run["summary"]["pairs"][0]["elo_margin"] == data["pairs"][0]["elo_margin"]
    assert isinstance(run["settings"]["argv"], list)  # (here the tests' own: run in process)


def test_a_postgresql_addresss_password_is_neither_stored_nor_told(
    postgres_url: str, tmp_path: Path
) -> None:
    """``ladder run --db postgresql://USER:PASSWORD@…`` stored its command line with
    the password, in every copy of the database, and ``ladder table --json --runs``
    printed it: stored now without it, and a row stored before is told without it."""
    user, _, rest = postgres_url.removeprefix("postgresql://").partition("@")
    secret = f"postgresql://{user}:s3cret-pw@{rest}"  # (the test server trusts: unused)
    # (a process: in this one the stored command line would be pytest's)
    played = ladder(
        tmp_path, "--bot", RAND, "--bot", RAND2, "--deals", "1", db=secret, process=True
    )
    assert played.returncode == 0, played.stderr
    store = open_ladder_store(postgres_url)
    try:
        before = store.start_run({"argv": ["ladder", "run", "--db", secret]})  # as stored
    finally:
        store.close()
    (stored,) = [
        json.loads(row[0])["argv"]
        for row in query(postgres_url, "SELECT settings FROM ladder_runs WHERE id <> %s", before)
    ]
    assert "--db" in stored and "s3cret-pw" not in " ".join(stored)
    assert f"postgresql://{user}:***@{rest}" in stored
    done = run_cli(["ladder", "table", "--db", postgres_url, "--json", "--runs"])
    assert done.returncode == 0, done.stderr
    assert "s3cret-pw" not in done.stdout
    told = {run["id"]: run["settings"]["argv"] for run in json.loads(done.stdout)["runs"]}
    assert told[before] == ["ladder", "run", "--db", f"postgresql://{user}:***@{rest}"]


def test_runs_without_json_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite3"
    open_ladder_store(db).close()
    done = run_cli(["ladder", "table", "--db", str(db), "--runs"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "deberc-net ladder table: --runs goes with --json\n"


def test_a_distributed_runs_bot_command_is_told_without_an_addresss_password(
    store_db: str,
) -> None:
    """A distributed run keeps its bots' commands whole in its queue settings (its
    workers run them), and ``ladder table --json --runs`` printed them whole, a
    PostgreSQL address's password in one with them, which its argv shows as ``***``
    (docs/bots.md): told hidden as the argv is. The row still holds them."""
    command = "py:clients.random_bot --db postgresql://ann:s3cret-pw@db.example/d"
    spec = {"bots": [["rand", command]], "seed": "s1"}
    store = open_ladder_store(store_db)
    try:
        run = store.start_run({"argv": ["ladder", "run"], "distributed": spec})
    finally:
        store.close()
    done = run_cli(["ladder", "table", "--db", store_db, "--json", "--runs"])
    assert done.returncode == 0, done.stderr
    assert "s3cret-pw" not in done.stdout
    (told,) = [r["settings"] for r in json.loads(done.stdout)["runs"] if r["id"] == run]
    hidden = "py:clients.random_bot --db postgresql://ann:***@db.example/d"
    assert told["distributed"] == {"bots": [["rand", hidden]], "seed": "s1"}
