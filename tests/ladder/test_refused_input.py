"""`deberc-net ladder run` refusing what it cannot play as asked: a seed its reserve
line cannot carry, a clock, copies or an option that make no ladder, bots that cannot
meet or start. Each is one line and status 2, said before anything is started or
stored; a run whose bots fail once it has started is stored as failed, not as one
being played (docs/bots.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from deberc_net.ladder import runner
from deberc_net.ladder.store import open_ladder_store

from .helpers import PY, RAND, RAND2, ladder, records_in, run_cli, script


def refused(tmp_path: Path, said: str, *args: str) -> None:
    """The ladder with ``args`` is refused with ``said`` (status 2), its store untouched."""
    db = tmp_path / "refused.sqlite3"
    done = ladder(tmp_path, *args, "--json", db=db)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not db.exists(), f"{args}: stored"  # not even opened


@pytest.mark.parametrize(
    "seed",
    [
        "spring cup",
        "s1 x=1",
        "cup deals=3",
        "",
        "tab\there",
        "no\u00a0break",
        "zero\u200bwidth",
        "line\nend",
        "x" * 101,
    ],
)
def test_a_seed_the_reserve_line_cannot_carry_is_refused(tmp_path: Path, seed: str) -> None:
    said = "--seed takes 1-100 printable characters and no space, got "
    refused(tmp_path, said + repr(seed), "--bot", RAND, "--bot", RAND2, "--seed", seed)


def test_a_seed_with_what_a_shell_reads_plays_and_is_told_quoted(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    seed = "cup=1;$x'"  # '=' is safe in the reserve line: the server splits at the first
    done = ladder(tmp_path, "--bot", RAND, "--bot", RAND2, "--deals", "2", "--seed", seed, db=db)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(
        "Seed: cup=1;$x'; --seed 'cup=1;$x'\"'\"'' plays the same boards again."
    ), done.stdout[-300:]
    decks = {(r["seed"], tuple(r["deck"])) for r in records_in(db)}
    # every board its own seed and deck, both seatings of a board the same one
    assert len(decks) == 2 and {s.split("/board")[0] for s, _ in decks} == {seed}, decks


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--clock-ms", "-3000"), "--clock-ms must be at least 1"),
        (("--clock-ms", "0"), "--clock-ms must be at least 1"),
        (("--concurrency", "0"), "--concurrency must be at least 1"),
        (("--deals", "0"), "--deals must be at least 1"),
        (("--away-ms", "-1"), "--away-ms must be at least 1"),
        (
            ("--variant", "kharkov", "--option", "to-301", "--option", "to-301"),
            "--option to-301 is given more than once",
        ),
        (("--processes", "2", "--server", "127.0.0.1:9"), "not --server"),
    ],
)
def test_settings_that_make_no_ladder_are_refused(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    refused(tmp_path, said, "--bot", RAND, "--bot", RAND2, *args)


def test_bots_that_cannot_meet_or_start_are_refused_before_anything_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DEBERC_ADMIN_PASSWORD", raising=False)
    refused(tmp_path, "bot names must differ", "--bot", RAND, "--bot", RAND.replace("1", "2"))
    refused(tmp_path, "a ladder needs at least two bots", "--bot", RAND)
    refused(
        tmp_path,
        "cannot start bot 'gone': no program 'no-such-bot-program' on this machine",
        *("--bot", RAND, "--bot", "gone=no-such-bot-program --fast"),
    )
    refused(
        tmp_path,
        "--server needs --admin-password for 'ladder-admin'",
        *("--bot", RAND, "--bot", RAND2, "--server", "127.0.0.1:9"),
    )


def _table(db: Path) -> str:
    done = run_cli(["ladder", "table", "--db", str(db)])
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_run_whose_bot_cannot_run_is_stored_as_failed(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    broken = f"broken={PY} -c 'import sys; sys.exit(1)'"
    done = ladder(tmp_path, "--bot", RAND, "--bot", broken, "--deals", "2", "--json", db=db)
    assert done.returncode == 2 and "bot 'broken' keeps exiting" in done.stderr, done.stderr
    table = _table(db)
    assert "run 1 failed: bot 'broken' keeps exiting" in table and "not counted" in table
    assert "being played now" not in table, table
    store = open_ladder_store(db)
    try:
        (run,) = store.runs()
    finally:
        store.close()
    assert run.summary is None and run.stop is not None
    assert run.stop.told() == "failed: a bot could not run"  # what /ladders shows


def test_a_run_whose_bots_never_log_in_is_stored_as_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "l.sqlite3"
    monkeypatch.setattr(runner, "STARTUP_S", 1.0)  # (30 s: docs/bots.md)
    mute = script(tmp_path, "mute", "import time\ntime.sleep(60)\n")
    done = ladder(tmp_path, "--bot", RAND, "--bot", mute, "--concurrency", "1", "--json", db=db)
    assert done.returncode == 2, done.stderr
    assert "bot instances did not log in within 1 s: mute-1" in done.stderr, done.stderr
    table = _table(db)
    assert "run 1 failed: bot instances did not log in within 1 s: mute-1; not counted" in table
    assert "being played now" not in table, table


def test_a_run_whose_bot_cannot_run_in_a_part_is_stored_as_failed(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    broken = f"broken={PY} -c 'import sys; sys.exit(1)'"
    args = ("--bot", RAND, "--bot", broken, "--deals", "4", "--processes", "2", "--json")
    done = ladder(tmp_path, *args, db=db, timeout=30, process=True)
    assert done.returncode == 2 and "bot 'broken' keeps exiting" in done.stderr, done.stderr
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT summary, stopped FROM ladder_runs").fetchall()
    assert rows == [(None, "failed")]
