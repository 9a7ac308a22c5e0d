"""A ladder's in-process bots (``--bot NAME=py:MODULE``): the client library's bots play
inside the ladder's process over memory streams, through the same server code, and meet
bots that run as processes over TCP."""

from __future__ import annotations

import gc
import signal
import stat
from pathlib import Path

from clients import random_bot
from clients.client import Brain
from deberc_net.ladder.runner import LadderOptions, run
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.start_up import collector_paused

from .helpers import HEUR, RAND, RAND2, deals_in, games_in, ladder, summary


def _strip(db: Path) -> list[tuple[int, list[str], list[int], str]]:
    return [(g["board"], g["seating"], g["written"], g["reason"]) for g in games_in(db)]


def test_an_in_process_bot_plays_exactly_as_its_process_does(tmp_path: Path) -> None:
    """The same seeded ladder, the heuristic bot as a process and then in-process,
    against the random bot as a process: the same games, the same results."""
    common = ("--bot", RAND, "--deals", "8", "--seed", "s2", "--concurrency", "1", "--json")
    as_process, in_process = tmp_path / "p.sqlite3", tmp_path / "i.sqlite3"
    first = summary(ladder(tmp_path, "--bot", HEUR, *common, db=as_process))
    second = summary(
        ladder(tmp_path, "--bot", "heur=py:clients.heuristic_bot", *common, db=in_process)
    )
    assert second["games"] == 16 and second["crashes"] == {} and second["forfeits"] == {}
    for key in ("seconds", "deals_per_second"):
        first.pop(key), second.pop(key)
    assert second == first
    assert _strip(in_process) == _strip(as_process)


def test_two_seeded_in_process_random_bots_are_deterministic_told_all_or_only_asks(
    tmp_path: Path,
) -> None:
    """Two random bots (each acting on its asks alone: told only those, docs/bots.md),
    then the same ladder with every line told (``--tell-all``): the same games."""
    args = (
        "--bot",
        "r1=py:clients.random_bot --seed 1",
        "--bot",
        "r2=py:clients.random_bot --seed 2",
        "--deals",
        "10",
        "--seed",
        "s3",
        "--concurrency",
        "2",
        "--json",
    )
    one, two = tmp_path / "one.sqlite3", tmp_path / "two.sqlite3"
    first, second = (
        summary(ladder(tmp_path, *args, db=one)),
        summary(ladder(tmp_path, *args, "--tell-all", db=two)),
    )
    assert first["games"] == 20 and first["crashes"] == {}
    assert second["pairs"] == first["pairs"]
    assert sorted(_strip(one)) == sorted(_strip(two))  # copies may finish in any order
    # and every deal alike, call by call, but for the time taken, the table and match
    # ids and which copy of a bot sat where (the order copies come free in)
    assert deals_in(one) == deals_in(two) and len(deals_in(one)) == 20


def test_a_bot_spec_knows_whether_its_brain_acts_on_its_asks_alone() -> None:
    assert BotSpec.parse("r=py:clients.random_bot --seed 1").asks_only
    assert not BotSpec.parse(HEUR).asks_only  # its brain does not say so
    assert not BotSpec.parse("r=python -m clients.random_bot").asks_only  # a process


def test_a_bad_in_process_bot_is_an_error_before_anything_runs(tmp_path: Path) -> None:
    for spec, why in (
        ("x=py:no_such_module_here", "cannot import no_such_module_here"),
        ("x=py:json", "json has no brain(name, seed)"),
        ("x=py:clients.random_bot --speed 1", "py:MODULE [--seed S]"),
    ):
        done = ladder(tmp_path, "--bot", RAND, "--bot", spec, "--deals", "1", timeout=30)
        assert done.returncode == 2, done.stderr
        assert why in done.stderr and "Traceback" not in done.stderr
        assert (
            not (tmp_path / "ladder.sqlite3").exists()
            or games_in(tmp_path / "ladder.sqlite3") == []
        )


def test_a_ladder_database_it_cannot_open_is_one_sentence(tmp_path: Path) -> None:
    """As `serve` says it (docs/settings.md): no traceback, status 2, nothing made."""
    (tmp_path / "notes.txt").write_text("not a database\n")
    (tmp_path / "notes.txt").chmod(0o644)  # (a database others may read is made 0600)
    for db, why in (
        (tmp_path / "nofolder" / "l.sqlite3", "there is no folder"),
        (tmp_path / "notes.txt", "is not an SQLite database (left as it is)"),
    ):
        done = ladder(tmp_path, "--bot", RAND, "--bot", HEUR, "--deals", "1", db=db)
        assert done.returncode == 2, done.stderr
        assert why in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "nofolder").exists()
    assert (tmp_path / "notes.txt").read_text() == "not a database\n"
    assert stat.S_IMODE((tmp_path / "notes.txt").stat().st_mode) == 0o644  # its mode too


def test_the_ladder_command_freezes_its_start_up_heap_and_a_library_run_does_not(
    tmp_path: Path,
) -> None:
    """``ladder run`` owns its process: once its server and bots have started, what they
    made is frozen (gc.freeze, out of the collector's older passes); ``run(options)``
    called by a program that goes on leaves its heap alone."""
    made_before: list[object] = []
    options = LadderOptions(
        bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)],
        deals=1,
        seed="s4",
        db=str(tmp_path / "lib.sqlite3"),
        progress=False,
    )
    assert run(options).games == 2
    assert any(other is made_before for other in gc.get_objects())  # not frozen
    args = ("--bot", RAND, "--bot", RAND2, "--deals", "1", "--seed", "s4", "--json")
    assert summary(ladder(tmp_path, *args))["games"] == 2
    assert not any(other is made_before for other in gc.get_objects())  # frozen
    assert gc.isenabled()  # (the command's start-up ran without it: start_up.py)


def test_a_collector_paused_for_the_start_up_is_on_again_once_the_bots_started(
    tmp_path: Path,
) -> None:
    """The CLI's ladder pauses the collector for its start-up (start_up.py): the run
    turns it back on where it freezes that heap, before the games, not at their end."""
    options = LadderOptions(
        bots=[BotSpec.parse(RAND), BotSpec.parse(RAND2)],
        deals=1,
        seed="s6",
        db=str(tmp_path / "ladder.sqlite3"),
        progress=False,
        freeze_heap=True,
    )
    try:
        with collector_paused():
            assert run(options).games == 2
            assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()  # the test's process is not the ladder's


# what a program's SIGTERM handler was while a ladder's in-process bots were made
handlers_seen: list[object] = []


def brain(name: str, seed: str | None) -> Brain:
    """An in-process bot (``py:tests.ladder.test_in_process``): the random bot, noting
    the SIGTERM handler in force as the ladder makes it."""
    handlers_seen.append(signal.getsignal(signal.SIGTERM))
    return random_bot.brain(name, seed)


def test_a_program_running_a_ladder_keeps_its_own_signal_handlers(tmp_path: Path) -> None:
    """``runner.run`` called by a program (not the CLI, which asks for it) leaves the
    program's SIGINT/SIGTERM handlers alone: only the CLI's ladder is interrupted by
    them (docs/bots.md). Failed before: run() put trio's in while the ladder ran."""

    def own(signum: int, frame: object) -> None:
        raise AssertionError("not sent")

    handlers_seen.clear()
    before = signal.signal(signal.SIGTERM, own)
    try:
        options = LadderOptions(
            bots=[BotSpec.parse("mine=py:tests.ladder.test_in_process"), BotSpec.parse(RAND2)],
            deals=1,
            seed="s5",
            db=str(tmp_path / "ladder.sqlite3"),
            progress=False,
        )
        assert run(options).games == 2
    finally:
        signal.signal(signal.SIGTERM, before)
    assert handlers_seen and all(handler is own for handler in handlers_seen)
