"""``ladder run --processes N``: the boards shared out among N forked copies of the
ladder, each with its own server on the same database and its own copies of the bots;
the results counted in schedule order, so a seeded ladder gives what one process gives."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from deberc_net.ladder.parallel import Child, Dealer, PartsCounter, SentResults
from deberc_net.ladder.results import GameResult, Results, Summary
from deberc_net.ladder.runner import INTERRUPTED, LadderOptions
from deberc_net.ladder.schedule import schedule
from deberc_net.ladder.supervisor import BotSpec
from deberc_net.protocol.wire import LineBuffer, MatchEnd
from tests.hangup import as_from_a_terminal

from .helpers import (
    HEUR,
    LONG,
    PY,
    RAND,
    SPRT_LADDER,
    assert_stopped_early_for_the_stronger,
    deals_in,
    games_in,
    ladder,
    ladder_argv,
    played_matches,
    session,
    summary,
    unlisted,
    wait_for_kept_seatings,
    wait_for_session_to_end,
    withheld,
)

RAND_PROCESS = f"rand={PY} -m clients.random_bot --seed 1"


def test_two_processes_play_the_ladder_one_plays(tmp_path: Path) -> None:
    """An in-process bot against a bot run as a process, seeded: the same summary, the
    same stored games and the same deals, call by call, in two processes as in one."""
    # seven boards: each part is dealt three at first (--concurrency 1, and two more),
    # the seventh to the part that has played one of its boards first
    common = ("--bot", HEUR, "--bot", RAND_PROCESS, "--deals", "7", "--seed", "p1", "--json")
    one, two = tmp_path / "one.sqlite3", tmp_path / "two.sqlite3"
    # the one: the command's main in this process (the same ladder, a Python start-up
    # less: its process is not what the test is about; the parts' is)
    first = summary(ladder(tmp_path, *common, "--concurrency", "2", db=one))
    second = summary(
        ladder(tmp_path, *common, "--concurrency", "1", "--processes", "2", db=two, process=True)
    )
    assert second["games"] == 14 and second["crashes"] == {} and second["forfeits"] == {}
    for key in ("seconds", "deals_per_second"):
        first.pop(key), second.pop(key)
    assert second == first
    strip = [(g["board"], g["seating"], g["written"], g["reason"]) for g in games_in(one)]
    assert [(g["board"], g["seating"], g["written"], g["reason"]) for g in games_in(two)] == strip
    assert len({g["match_id"] for g in games_in(two)}) == 14  # the parts share the numbers
    assert deals_in(two) == deals_in(one) and len(deals_in(one)) == 14


def test_the_sprt_stops_every_process(tmp_path: Path) -> None:
    """The parts stop on the verdict (boards dealt to them and not started are never
    played) and release every board they started: no deal is left withheld. Past the
    verdict's boards, fewer are played than the SPRT's lead (docs/bots.md "Cores":
    twice what the parts can hold), not the 100 of the schedule; every game played is
    counted, its pairs after the verdict among them."""
    processes, concurrency = 2, 1  # (SPRT_LADDER's --concurrency)
    data = summary(ladder(tmp_path, *SPRT_LADDER, "--processes", str(processes), process=True))
    assert_stopped_early_for_the_stronger(data)
    db = tmp_path / "ladder.sqlite3"
    assert withheld(db) == [] and unlisted(db) == []
    assert data["games"] == len(games_in(db))  # every game stored is counted too
    assert len(played_matches(db)) == data["games"]  # and every game played is stored
    sprt = data["sprt"]
    # two players: the verdict's pairs are its boards, counted in schedule order
    boards_after = data["boards_played"] - sprt["pairs"]
    assert 0 <= boards_after < 2 * processes * (concurrency + 2), data
    assert data["games"] - 2 * sprt["pairs"] <= 2 * boards_after
    assert sprt["pairs_after_verdict"] <= boards_after  # (a board cut in half is no pair)


def test_games_waiting_for_one_never_played_are_counted_at_the_end() -> None:
    """After an SPRT stop with --processes, a part's game can come after a gap: a board
    dealt to another part, cleared from its queue unplayed. The game waited for it
    forever: stored, never in the summary (it failed so). Once every part has ended,
    the rest are counted in schedule order."""
    options = LadderOptions(bots=[BotSpec("a", "x"), BotSpec("b", "y")], deals=3)
    summary_ = Summary(options, "s")
    results = Results(options, summary_)
    games = list(schedule(["a", "b"], 2, 3, "s", "round-robin"))
    for index in (0, 4, 3):  # 1 and 2 never played
        results.add_result(index, GameResult(games[index], [10, 0], "deals", None, None))
    assert summary_.games == 1 and results.pending == 2
    results.count_the_rest()
    assert summary_.games == 3 and results.pending == 0
    assert [r.game for r in summary_.results] == [games[0], games[3], games[4]]


def test_a_bot_that_cannot_start_stops_every_process_with_status_2(tmp_path: Path) -> None:
    broken = f"broken={PY} -c 'import sys; sys.exit(1)'"
    done = ladder(
        tmp_path,
        "--bot",
        HEUR,
        "--bot",
        broken,
        "--deals",
        "4",
        "--processes",
        "2",
        "--json",
        timeout=30,
        process=True,
    )
    assert done.returncode == 2, done.stderr
    said = done.stderr.strip().splitlines()[-1]  # the part's own reason, as one process says it
    assert said.startswith("deberc-net ladder: bot 'broken' keeps exiting"), said
    assert "Traceback" not in done.stderr and "Group" not in said and done.stdout == ""


def test_processes_refused_where_they_cannot_work(tmp_path: Path) -> None:
    for extra, said in (
        (("--processes", "0"), "--processes takes a whole number from 1"),
        (("--processes", "2", "--server", "127.0.0.1:9"), "not --server"),
        (
            ("--processes", "2", "--distributed", "--db", "postgresql://nobody@127.0.0.1:9/x"),
            "--processes is for a run on this machine, not --distributed",
        ),
    ):
        done = ladder(tmp_path, "--bot", HEUR, "--bot", RAND, *extra, "--json")
        assert done.returncode == 2 and said in done.stderr and done.stdout == ""


def test_every_game_of_a_board_goes_to_one_part_boards_dealt_in_turn() -> None:
    games = list(schedule(["a", "b", "c"], 3, 5, "seed", "round-robin"))
    parts = Dealer(games, ahead=5).first(2)
    assert sorted(i for part in parts for i in part) == list(range(len(games)))
    boards = [{games[i].board for i in part} for part in parts]
    assert not boards[0] & boards[1]
    assert boards == [{1, 3, 5}, {2, 4}]  # boards count from 1
    assert all(part == sorted(part) for part in parts)  # each in schedule order
    assert len(Dealer(games, ahead=5).first(9)) == 5  # no part without a board


def test_a_part_is_dealt_a_board_once_it_has_played_one_until_none_is_left() -> None:
    """Each part holds ``ahead`` boards; a board played (every seating) brings the next
    one in schedule order, so a part that plays faster plays more of them."""
    games = list(schedule(["a", "b"], 2, 6, "seed", "round-robin"))  # 2 games a board
    dealer = Dealer(games, ahead=2)
    first = dealer.first(2)
    board = [[games[i].board for i in part] for part in first]
    assert board == [[1, 1, 3, 3], [2, 2, 4, 4]]
    dealer.played(1, first[1][0])
    assert dealer.deal(1) == []  # board 2 half played: nothing new yet
    dealer.played(1, first[1][1])
    assert [games[i].board for i in dealer.deal(1)] == [5, 5]
    assert dealer.deal(1) == []  # it holds two again
    for index in first[1][2:]:
        dealer.played(1, index)
    assert [games[i].board for i in dealer.deal(1)] == [6, 6]
    assert dealer.all_dealt and dealer.deal(0) == []
    stopped = Dealer(games, ahead=1)
    stopped.first(1)
    stopped.stopped = True  # the SPRT's verdict: nothing more is dealt
    assert stopped.all_dealt and stopped.deal(0) == []


def test_a_parts_results_go_up_together_when_sent() -> None:
    """A part holds its games' results until ``send`` (a board's last game, or every
    few games), then writes them all at once: one wake-up of the ladder for the board,
    the same lines the ladder reads one by one."""
    games = list(schedule(["a", "b"], 2, 1, "seed", "round-robin"))
    options = LadderOptions(bots=[BotSpec.parse("a=x"), BotSpec.parse("b=y")], seed="seed")
    read, write = os.pipe()
    gone: list[bool] = []
    try:
        os.set_blocking(read, False)
        sent = SentResults(
            options, Summary(options, "seed"), write, parent_gone=lambda: gone.append(True)
        )
        for index, (written, forfeit) in enumerate([([81, 81], None), ([0, 162], 1)]):
            end = MatchEnd(1, 1, None, [], "deals", written, None, forfeit)
            sent.add(index, games[index], end, f"m{index}")
        with pytest.raises(BlockingIOError):  # nothing written yet
            os.read(read, 65536)
        sent.send()
        lines = LineBuffer().feed(os.read(read, 65536))  # both, in one write
        assert [json.loads(line) for line in lines] == [
            {"index": 0, "written": [81, 81], "reason": "deals", "match_id": "m0", "forfeit": None},
            {
                "index": 1,
                "written": [0, 162],
                "reason": "deals",
                "match_id": "m1",
                "forfeit": games[1].seating[1],
            },
        ]
        sent.send()  # nothing held: nothing written
        with pytest.raises(BlockingIOError):
            os.read(read, 65536)
        os.close(read)
        read = -1
        sent.add(0, games[0], MatchEnd(1, 1, None, [], "deals", [81, 81], None, None), None)
        sent.send()  # no one reads any more: the part stops, as when its pipe down closes
        assert gone == [True]
    finally:
        os.close(write)
        if read >= 0:
            os.close(read)


def test_with_a_lead_no_board_is_dealt_that_far_past_the_first_unplayed_one() -> None:
    """An SPRT's ladder: a part that plays ahead while another holds an early board is
    dealt nothing ``lead`` boards past it (the verdict, counted in schedule order, would
    come with those played for nothing); once that board is played, the waiting part is
    dealt again. Without a lead it is dealt on (the ladder's speed)."""
    games = list(schedule(["a", "b"], 2, 8, "seed", "round-robin"))  # 2 games a board
    dealer = Dealer(games, ahead=1, lead=3)
    first = dealer.first(2)  # board 1 to part 0, board 2 to part 1
    for index in first[1]:
        dealer.played(1, index)
    second = dealer.deal(1)
    assert [games[i].board for i in second] == [3, 3]
    for index in second:
        dealer.played(1, index)
    assert dealer.deal(1) == []  # boards 1..3 dealt, 1 not played: board 4 would be 3 past
    for index in first[0]:
        dealer.played(0, index)
    assert [games[i].board for i in dealer.deal(1)] == [4, 4]  # the waiting part first
    assert [games[i].board for i in dealer.deal(0)] == [5, 5]
    free = Dealer(games, ahead=1)
    free.first(2)
    for index in range(2, 4):  # board 2 played, board 1 not
        free.played(1, index)
    while board := free.deal(1):
        for index in board:
            free.played(1, index)
    assert free.all_dealt


def test_a_part_the_lead_left_without_boards_is_dealt_as_another_plays_the_first() -> None:
    """The ladder's side of the lead (``PartsCounter``): a part left with no board (it
    played its own, the first unplayed board held by another) has nothing of its own
    to report, so it is dealt, and at the end told ``end``, as the other part plays:
    it never waits for good (without an SPRT verdict nothing else would end it). Each
    part's pipe down is a real pipe, read here. Failed with the ladder dealing only to
    the part whose game was played (rv51: no test failed then)."""
    games = list(schedule(["a", "b"], 2, 6, "seed", "round-robin"))  # 6 boards of 2
    options = LadderOptions(bots=[BotSpec.parse("a=x"), BotSpec.parse("b=y")], seed="seed")
    dealer = Dealer(games, ahead=1, lead=2)
    counter = PartsCounter(dealer, Summary(options, "seed"), None)
    pipes = [os.pipe() for _ in range(2)]
    try:
        for read, _ in pipes:
            os.set_blocking(read, False)
        counter.children = [Child(0, -1, write) for _, write in pipes]
        held = dealer.first(2)  # board 1 to part 0, board 2 to part 1
        dealt: list[set[int]] = [set(), set()]  # the boards dealt to each since
        ended = [False, False]

        def play(part: int) -> None:
            """``part`` plays every game it holds; what each part is told is read."""
            playing, held[part] = held[part], []
            for index in playing:
                counter.on_played(part, counter.children[part], index)
            for other in (0, 1):
                with contextlib.suppress(BlockingIOError):
                    for line in LineBuffer().feed(os.read(pipes[other][0], 65536)):
                        word, *indices = line.split()
                        ended[other] |= word == "end"
                        held[other] += [int(i) for i in indices]
                        dealt[other] |= {games[int(i)].board for i in indices}

        play(1)
        assert held[1] == []  # board 3 would be 2 past board 1, not played yet
        while held[0] or held[1]:
            play(0)
            play(1)
        assert dealt[1], "part 1 was never dealt again"
        assert sorted({1, 2} | dealt[0] | dealt[1]) == [1, 2, 3, 4, 5, 6]
        assert ended == [True, True]  # neither waits for more
    finally:
        for read, write in pipes:
            os.close(read)
            os.close(write)


def _parts(pid: int, count: int, within_s: float = 20) -> list[int]:
    """The ``count`` processes ``pid`` forked, once it has (Linux's /proc)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if len(children) >= count:
            return [int(child) for child in children]
        time.sleep(0.05)
    raise AssertionError(f"the ladder forked no {count} parts in {within_s} s")


def _gone(pid: int, within_s: float = 20) -> bool:
    """Whether process ``pid`` has exited (or is a zombie no one waited for) by then."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def _long_ladder(tmp_path: Path, *python: str, **popen: Any) -> subprocess.Popen[str]:
    """A ladder of two processes far longer than any test: one to stop. ``python``: the
    interpreter's own arguments before the ladder's (``-c`` code that then runs it)."""
    argv = ladder_argv(
        tmp_path / "ladder.sqlite3",
        *("--bot", HEUR, "--bot", RAND, "--deals", LONG, "--processes", "2", "--json"),
    )
    if python:
        argv[1:3] = python
    return subprocess.Popen(
        argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen
    )


# Ctrl-C the moment the ladder forks (as a person may press it at the start): Python runs
# its at-fork callbacks (logging's among them) in the parent then, and an exception
# there is printed and dropped: the KeyboardInterrupt was lost, the parts played on
CTRL_C_AT_FORK = """
import os, signal, sys
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
sys.argv[0] = "deberc-net"
from deberc_net.cli import main
raise SystemExit(main())
"""


def test_ctrl_c_as_the_ladder_forks_stops_every_process_with_one_line(tmp_path: Path) -> None:
    """The ladder stops its parts and says so in one line, status 2 (not 0 after every
    board); its output ends only once no part holds it open either."""
    with _long_ladder(tmp_path, "-c", CTRL_C_AT_FORK) as done:
        try:
            out, err = done.communicate(timeout=30)
        finally:
            if done.poll() is None:
                done.kill()
    assert done.returncode == 2, err
    assert err.strip() == "deberc-net ladder: interrupted: the ladder's processes are stopped"
    assert out == ""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("whole_group", [False, True], ids=["the-ladder", "every-process"])
def test_an_interrupted_ladder_of_processes_releases_every_board_its_parts_started(
    tmp_path: Path, signum: signal.Signals, whole_group: bool
) -> None:
    """Ctrl-C or SIGTERM to the ladder alone, or to its whole process group (a
    terminal's Ctrl-C, a service manager's stop: every part gets it too): each part
    releases the boards it started, every match played is listed, no part is left.
    Failed before: a part that wrote a result after the ladder stopped reading died of
    the broken pipe with its boards unreleased (Ctrl-C), and a part's SIGTERM killed it
    at once (SIGTERM to the group), and SIGTERM killed the ladder itself (status -15,
    no line: docs/bots.md says status 2)."""
    with _long_ladder(tmp_path, start_new_session=True) as done:
        try:
            parts = _parts(done.pid, 2)
            wait_for_kept_seatings(tmp_path / "ladder.sqlite3", 3)
            if whole_group:
                os.killpg(done.pid, signum)
            else:
                done.send_signal(signum)
            out, err = done.communicate(timeout=30)
            assert all(_gone(part) for part in parts)
        finally:
            if done.poll() is None:
                done.kill()
            for part in parts:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(part, signal.SIGKILL)
    assert done.returncode == 2, err
    assert err.strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert out == ""
    assert unlisted(tmp_path / "ladder.sqlite3") == []


def test_a_process_killed_outright_stops_the_others_with_status_2(tmp_path: Path) -> None:
    """A part killed (SIGKILL, as the OOM killer does) says nothing of how it ended: the
    ladder stops the other part at once, not after its thousands of boards, and says so."""
    with _long_ladder(tmp_path) as done:
        try:
            killed = _parts(done.pid, 2)[0]
            os.kill(killed, signal.SIGKILL)
            out, err = done.communicate(timeout=30)
        finally:
            if done.poll() is None:  # the other part played on: end the test's ladder
                done.kill()
    assert done.returncode == 2, err
    said = err.strip().splitlines()[-1]
    assert said == (
        f"deberc-net ladder: a ladder process (pid {killed}) ended before its games were played"
    ), said
    assert out == "" and "Traceback" not in err


@pytest.mark.parametrize("whole_group", [False, True], ids=["the-ladder", "every-process"])
def test_a_ladder_of_processes_whose_terminal_hangs_up_stops_them_all(
    tmp_path: Path, whole_group: bool
) -> None:
    """SIGHUP (its terminal gone) stops a ladder of processes as SIGTERM does: its parts
    release their boards and stop their bot processes, nothing of the session is left
    running, the one line, status 2. To the ladder alone (``kill -HUP``) or to its
    whole group (the terminal's hangup reaches its foreground group, ladder and parts).
    Failed before: the ladder died of it (status -1, no line)."""
    db = tmp_path / "ladder.sqlite3"
    argv = ladder_argv(
        db,
        *("--bot", HEUR, "--bot", RAND_PROCESS, "--deals", LONG, "--processes", "2"),
        *("--concurrency", "1", "--json"),
    )
    # SIGHUP at its default, as a terminal leaves it, even where this suite runs under
    # ``nohup`` (an ignored signal stays ignored across exec)
    argv = as_from_a_terminal(argv)
    with subprocess.Popen(
        argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    ) as done:  # fmt: skip
        try:
            parts = _parts(done.pid, 2)
            wait_for_kept_seatings(db, 3)
            if whole_group:
                os.killpg(done.pid, signal.SIGHUP)
            else:
                done.send_signal(signal.SIGHUP)
            out, err = done.communicate(timeout=30)
            assert all(_gone(part) for part in parts)
            # a bot process stopped by its part is given 0.5 s to exit, as it was by a
            # sleep of that length: here the wait ends as soon as the last has
            wait_for_session_to_end(done.pid, within_s=0.5)
        finally:
            if done.poll() is None:
                done.kill()
            left = session(done.pid)  # every process of its session, killed if found
    assert left == [], left
    assert done.returncode == 2, err
    assert err.strip() == f"deberc-net ladder: {INTERRUPTED}"
    assert out == ""
    assert unlisted(db) == []
