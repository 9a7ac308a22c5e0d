"""`deberc-net ladder run` end to end: bots as processes over TCP, duplicate boards,
statistics and ratings in SQLite, the leaderboard, and bots that crash, hang, talk
nonsense or cannot start at all."""

from __future__ import annotations

import contextlib
import itertools
import json
import sqlite3
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from deberc_net.cli import main

from .helpers import (
    EAGER,
    HEUR,
    PY,
    RAND,
    RAND2,
    RAW_HEAD,
    SPRT_LADDER,
    assert_stopped_early_for_the_stronger,
    games_in,
    ladder,
    one_board_on,
    pair_of,
    records_in,
    run_cli,
    script,
    summary,
)

CRASH = """\
import os, random, sys
from pathlib import Path
from clients.client import bot_arguments, run_bot
args = bot_arguments("dies once, mid-game").parse_args()
marker = Path(sys.argv[0]).with_name("crashed-" + args.name)
rng = random.Random(1)
asks = []
def choose(view):
    asks.append(view)
    if len(asks) == 3 and not marker.exists():
        marker.write_text("mid-game")
        os._exit(3)  # no goodbye: the connection just drops
    return rng.choice(view.legal)
run_bot(choose, args)
"""
HANG = (
    RAW_HEAD
    + """\
while sock.recv(65536):  # reads everything, answers nothing
    pass
"""
)
ILLEGAL = (
    RAW_HEAD
    + """\
from deberc_net.protocol.wire import fields_of
CARDS = [r + s for s in "shdc" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
for line in sock.makefile("r", encoding="utf-8", newline="\\r\\n"):
    tag, kv = fields_of(line)
    if tag == "ask":  # a card it does not hold: refused, every time
        hand = set(kv["hand"].split(","))
        bad = next(c for c in CARDS if c not in hand)
        sock.sendall(f"{bad} seq={kv['seq']}\\n".encode())
"""
)


def test_heuristic_beats_random_and_a_one_copy_ladder_is_deterministic(
    tmp_path: Path,
) -> None:
    args = (
        "--bot",
        HEUR,
        "--bot",
        RAND,
        "--deals",
        "30",
        "--seed",
        "s1",
        "--concurrency",
        "1",
        "--json",
    )
    first, second = tmp_path / "one.sqlite3", tmp_path / "two.sqlite3"
    data = summary(ladder(tmp_path, *args, db=first))
    assert data["games"] == data["deals"] == 60 and data["boards"] == 30
    p = pair_of(data, "heur", "rand")
    assert p["deals"] == 60 and p["duplicate_sets"] == 30
    assert p["points_per_deal"] > 0
    assert p["points_per_deal"] - p["points_per_deal_margin"] > 0  # the 95% CI is above 0
    assert p["score"] > 0.55 and p["elo"] > 0 and p["los"] > 0.95
    assert p["elo"] - p["elo_margin"] > 0
    assert [r["bot"] for r in data["ratings"]] == ["heur", "rand"]
    assert data["crashes"] == {} and data["forfeits"] == {}

    # one copy of each bot, seeded: the same ladder again gives the same results
    again = summary(ladder(tmp_path, *args, db=second))
    for key in ("seconds", "deals_per_second"):
        data.pop(key), again.pop(key)
    assert again == data
    strip = [(g["board"], g["seating"], g["written"], g["reason"]) for g in games_in(first)]
    assert strip == [
        (g["board"], g["seating"], g["written"], g["reason"]) for g in games_in(second)
    ]

    # duplicate boards: each deck was dealt exactly twice, with the seats swapped
    by_deck: dict[tuple[str, ...], list[list[str]]] = defaultdict(list)
    for record in records_in(first):
        by_deck[tuple(record["deck"])].append(record["players"])
    assert len(by_deck) == 30
    for players in by_deck.values():
        assert len(players) == 2 and players[0] == players[1][::-1]

    table = subprocess.run(
        [sys.executable, "-m", "deberc_net", "ladder", "table", "--db", str(first)],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0] == "moscow for 2 players:"  # each game its own, named as the server does
    assert "heur" in lines[2] and "rand" in lines[3]  # the leaderboard, best first
    # (the text table above is the command's process; its JSON here, the same main)
    as_json = run_cli(["ladder", "table", "--db", str(first), "--json"])
    assert as_json.returncode == 0, as_json.stderr
    rows = json.loads(as_json.stdout)
    assert [(r["bot"], r["games"]) for r in rows] == [("heur", 60), ("rand", 60)]
    assert rows[0]["rating"] > rows[1]["rating"]


def test_three_bots_three_players_play_all_six_seatings(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            HEUR,
            "--bot",
            RAND,
            "--bot",
            RAND2,
            "--players",
            "3",
            "--deals",
            "1",
            "--json",
            db=db,
        )
    )
    assert data["games"] == 6 * 1 and data["players"] == 3
    games = games_in(db)
    assert sorted(tuple(g["seating"]) for g in games) == sorted(
        itertools.permutations(["heur", "rand", "rand2"])
    )
    assert all(len(g["written"]) == 3 and g["reason"] == "deals" for g in games)
    assert {(p["a"], p["b"]) for p in data["pairs"]} == {
        ("heur", "rand"),
        ("heur", "rand2"),
        ("rand", "rand2"),
    }
    assert all(p["deals"] == 6 and p["duplicate_sets"] == 1 for p in data["pairs"])
    assert {r["bot"] for r in data["ratings"]} == {"heur", "rand", "rand2"}


def test_four_players_two_bots_both_pair_orientations(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            HEUR,
            "--bot",
            RAND,
            "--players",
            "4",
            "--deals",
            "2",
            "--json",
            db=db,
        )
    )
    assert data["games"] == 2 * 2
    seatings = Counter(tuple(g["seating"]) for g in games_in(db))
    assert seatings == {("heur", "rand", "heur", "rand"): 2, ("rand", "heur", "rand", "heur"): 2}
    assert all(len(g["written"]) == 2 for g in games_in(db))  # two sides
    assert pair_of(data, "heur", "rand")["deals"] == 4


def test_three_players_two_bots_with_one_copy_each_plays_every_game(tmp_path: Path) -> None:
    # a seating like (heur, heur, rand) needs two copies of heur whatever --concurrency says
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            HEUR,
            "--bot",
            RAND,
            "--players",
            "3",
            "--deals",
            "1",
            "--concurrency",
            "1",
            "--json",
        )
    )
    assert data["games"] == 6  # (h, h, r) and (h, r, r), three seatings each


def test_three_players_two_bots_have_points_per_deal_over_each_board(tmp_path: Path) -> None:
    # a board's groups (h, h, r) and (h, r, r), three seatings each, each seating with
    # two pairs of seats of different bots: twelve of the pair's deals, on one deck, one
    # complete set (counted as three a group once, no set was ever complete:
    # 'points/deal: none', a Node.js bot's tryout; then as two sets, one a group)
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            HEUR,
            "--bot",
            RAND,
            "--players",
            "3",
            "--deals",
            "2",
            "--seed",
            "s33",
            "--json",
        )
    )
    pair = pair_of(data, "heur", "rand")
    assert pair["deals"] == 2 * 6 * 2
    assert pair["duplicate_sets"] == 2  # one a board
    assert pair["points_per_deal"] is not None


def test_gauntlet_text_report_and_progress(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    done = ladder(
        tmp_path,
        "--bot",
        HEUR,
        "--bot",
        RAND,
        "--bot",
        RAND2,
        "--schedule",
        "gauntlet",
        "--deals",
        "1",
        db=db,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(tuple(g["seating"]) for g in games_in(db)) == [
        ("heur", "rand"),
        ("heur", "rand2"),
        ("rand", "heur"),
        ("rand2", "heur"),
    ]
    out = done.stdout
    assert "gauntlet" in out and "heur v rand:" in out and "heur v rand2:" in out
    assert "rand v rand2" not in out and "Ratings" in out
    assert "ladder: 4/4 games" in done.stderr  # the progress, a line at a time off a tty


def test_sprt_stops_early_with_a_verdict(tmp_path: Path) -> None:
    assert_stopped_early_for_the_stronger(summary(ladder(tmp_path, *SPRT_LADDER)))


def test_variant_and_options_accepted_unknown_refused(tmp_path: Path) -> None:
    # 'Харьков' and 'To-301' as 'seek 2 Харьков To-301' takes them on the wire
    # (docs/protocol.md §5.3): played, stored by their names (refused before)
    db = tmp_path / "l.sqlite3"
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            HEUR,
            "--bot",
            RAND,
            "--variant",
            "Харьков",
            "--option",
            "To-301",
            "--deals",
            "1",
            "--json",
            db=db,
        )
    )
    assert data["variant"] == "kharkov" and data["options"] == ["to-301"]
    assert data["games"] == 2
    assert {(r["variant"], tuple(r["options"])) for r in records_in(db)} == {
        ("kharkov", ("to-301",))
    }

    bad = ladder(
        tmp_path, "--bot", HEUR, "--bot", RAND, "--option", "nonsense", "--json", timeout=20
    )
    assert bad.returncode == 2 and "nonsense" in bad.stderr and bad.stdout == ""
    three = ladder(
        tmp_path,
        "--bot",
        HEUR,
        "--bot",
        RAND,
        "--bot",
        RAND2,
        "--sprt",
        "0,20,0.05,0.05",
        timeout=20,
    )
    assert three.returncode == 2 and "two bots" in three.stderr
    spec = ladder(tmp_path, "--bot", HEUR, "--bot", "no-command", timeout=20)
    assert spec.returncode == 2 and "NAME=COMMAND" in spec.stderr
    # one option in two spellings is one option given twice
    twice = ladder(
        tmp_path, "--bot", HEUR, "--bot", RAND, "--option", "To-301", "--option", "to-301"
    )
    assert twice.returncode == 2 and "--option to-301 is given more than once" in twice.stderr


def test_no_server_and_no_database_are_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = ladder(
        tmp_path,
        "--bot",
        HEUR,
        "--bot",
        RAND,
        "--server",
        "127.0.0.1:1",
        "--admin-password",
        "x",
        timeout=20,
    )
    assert gone.returncode == 2 and "cannot connect to 127.0.0.1:1" in gone.stderr
    assert "Traceback" not in gone.stderr
    assert main(["ladder", "table", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "no database" in capsys.readouterr().err


def test_a_distributed_ladder_and_its_workers_need_postgres(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "local.sqlite3"
    # a process: 'ladder run' sets up logging to its standard error
    refused = ladder(
        tmp_path, "--bot", HEUR, "--bot", RAND, "--distributed", db=db, timeout=20, process=True
    )
    assert refused.returncode == 2
    assert "--distributed needs --db postgresql://" in refused.stderr
    assert main(["ladder", "worker", "--db", str(db)]) == 2
    assert "--db takes a postgresql:// address" in capsys.readouterr().err
    url = "postgresql://nobody@127.0.0.1:1/none"
    for lease in ("0", "-5", "nan", "inf", "1e308", "86401"):  # the database refused nan, inf
        assert main(["ladder", "worker", "--db", url, "--lease-s", lease]) == 2
        assert "--lease-s takes seconds above 0, at most 86400" in capsys.readouterr().err
    assert not db.exists()  # refused before anything was opened


# ------------------------------------------------------------- misbehaving bots
def test_a_bot_that_crashes_mid_game_is_restarted_and_resumes_its_seat(
    tmp_path: Path,
) -> None:
    db = tmp_path / "l.sqlite3"
    crash, eager = script(tmp_path, "crash", CRASH), script(tmp_path, "eager", EAGER)
    # a restart (a Python start-up) may take more than the default 5 s away on a loaded
    # machine: this test is about resuming, not about the limit
    args = ("--bot", eager, "--bot", crash, "--deals", "2", "--away-ms", "60000", "--json")
    data = summary(ladder(tmp_path, *args, db=db))
    assert data["games"] == 4
    crashed = sorted(p.name for p in tmp_path.glob("crashed-*"))
    assert crashed and set(crashed) <= {"crashed-crash-1", "crashed-crash-2"}
    assert data["crashes"] == {"crash": len(crashed)}
    assert data["forfeits"] == {}  # back in time: its games went on with it
    assert [g["reason"] for g in games_in(db)] == ["deals"] * 4


def test_an_away_limit_below_one_millisecond_is_refused(tmp_path: Path) -> None:
    eager = script(tmp_path, "eager", EAGER)
    for value in ("0", "-5"):
        done = ladder(tmp_path, "--bot", eager, "--bot", eager, "--away-ms", value, "--json")
        assert done.returncode == 2 and done.stdout == ""
        assert "--away-ms must be at least 1" in done.stderr


def test_a_bot_that_hangs_forfeits_on_the_clock(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    hang, eager = script(tmp_path, "hang", HANG), script(tmp_path, "eager", EAGER)
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            eager,
            "--bot",
            hang,
            "--deals",
            "1",
            "--clock-ms",
            "300",
            "--json",
            db=db,
        )
    )
    assert data["games"] == 2 and data["forfeits"] == {"hang": 2}
    p = pair_of(data, "eager", "hang")
    assert (p["wins"], p["losses"], p["forfeits"]) == (2, 0, {"hang": 2})
    assert [(g["reason"], g["forfeit"]) for g in games_in(db)] == [("timeouts", "hang")] * 2
    # a forfeit is a loss in the ratings too (docs/bots.md): the forfeiting bot drops
    rated = {r["bot"]: r for r in data["ratings"]}
    assert rated["eager"]["mu"] > 25 > rated["hang"]["mu"]
    assert [r["bot"] for r in data["ratings"]] == ["eager", "hang"]


def test_a_bot_that_only_sends_illegal_calls_forfeits_on_timeouts(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    illegal, eager = script(tmp_path, "illegal", ILLEGAL), script(tmp_path, "eager", EAGER)
    data = summary(
        ladder(
            tmp_path,
            "--bot",
            eager,
            "--bot",
            illegal,
            "--deals",
            "1",
            "--clock-ms",
            "300",
            "--json",
            db=db,
        )
    )
    assert data["games"] == 2 and data["forfeits"] == {"illegal": 2}
    assert [(g["reason"], g["forfeit"]) for g in games_in(db)] == [("timeouts", "illegal")] * 2


def test_a_bot_that_cannot_start_stops_the_ladder_with_status_2(tmp_path: Path) -> None:
    broken = f"broken={PY} -c 'import sys; sys.exit(1)'"
    done = ladder(  # the command's process: its exit status and standard error
        tmp_path, "--bot", HEUR, "--bot", broken, "--deals", "2", "--json", timeout=30, process=True
    )
    assert done.returncode == 2, done.stderr
    assert "bot 'broken'" in done.stderr and "keeps exiting" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


# ------------------------------------------------------------ --server HOST:PORT
async def test_a_ladder_on_a_given_server(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    port = await start_server(admins=["ladder-admin"])
    await register("ladder-admin", "pw-1")  # an admin's name is the owner's to register
    done = await one_board_on(port, tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["games"] == 2
    # the run's row keeps its command line, not the password (an operator's tryout)
    with contextlib.closing(sqlite3.connect(tmp_path / "results.sqlite3")) as db:
        (settings,) = db.execute("SELECT settings FROM ladder_runs").fetchone()
    assert "pw-1" not in settings and "--admin-password" in settings
    # from the environment, where 'ps' does not show it
    done = await one_board_on(port, tmp_path, password_from_env=True)
    assert done.returncode == 0, done.stderr.decode()


async def test_a_server_that_refuses_reserve_is_an_error_not_a_hang(
    tmp_path: Path,
    start_server: Callable[..., Awaitable[int]],
    register: Callable[[str, str], Awaitable[None]],
) -> None:
    await register("ladder-admin", "pw-1")  # its password logs in (made by its owner)
    port = await start_server()  # ladder-admin is no admin here
    done = await one_board_on(port, tmp_path)
    assert done.returncode == 2
    assert b"not-allowed" in done.stderr and b"Traceback" not in done.stderr


def test_run_cli_returns_a_usage_error_as_a_process_would() -> None:
    # argparse exits (SystemExit 2) on a bad argument: in-process, the status comes back
    done = run_cli(["ladder", "run", "--no-such-option"])
    assert done.returncode == 2 and "usage: deberc-net ladder run" in done.stderr
    assert "error:" in done.stderr and done.stdout == ""


def test_a_three_player_ladder_leaves_the_two_player_ratings_as_they_were(
    tmp_path: Path,
) -> None:
    """Ratings are per game (docs/bots.md): a three-player run starts from and writes
    the three-player ratings. Failed before: one row per bot, which the three-player
    run carried on from and overwrote."""
    db = tmp_path / "l.sqlite3"
    common = ("--bot", HEUR, "--bot", RAND, "--deals", "2", "--seed", "g", "--json")
    summary(ladder(tmp_path, *common, db=db))
    before = json.loads(run_cli(["ladder", "table", "--db", str(db), "--json"]).stdout)
    summary(ladder(tmp_path, *common, "--players", "3", db=db))
    after = json.loads(run_cli(["ladder", "table", "--db", str(db), "--json"]).stdout)
    assert [r for r in after if r["players"] == 2] == before
    three = [(r["bot"], r["games"]) for r in after if r["players"] == 3]
    assert sorted(three) == [("heur", 12), ("rand", 12)]
    text = run_cli(["ladder", "table", "--db", str(db)]).stdout
    assert "moscow for 2 players:" in text and "moscow for 3 players:" in text


def test_ladder_runs_help_says_py_bots_play_in_memory() -> None:
    """Failed before: 'play a ladder between bots over TCP', though py: bots play in the
    ladder's process over memory streams (docs/bots.md)."""
    done = run_cli(["ladder", "--help"])
    said = " ".join(done.stdout.split())
    assert done.returncode == 0
    assert "run play a ladder between bots (commands over TCP, py: bots in memory)" in said
