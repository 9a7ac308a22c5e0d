"""A finished match is freed by its reference count alone: nothing it keeps for its
records (the lazy records, the deal-end events) points back at it, so the cyclic
collector never has to walk or free it (issue #9: its collections were ~3 % of a deal).
Nor does playing one leave any other cycle behind (a deal, its events, a game of its
own, a plugin's hooks): the collector finds nothing to free once it is let go."""

from __future__ import annotations

import gc
import os
import random
import select
import signal
import weakref
from collections.abc import Callable, Iterator

import pytest

from deberc_net.game.events import DealAbandoned, DealEnded, MatchEnded
from deberc_net.game.match import Match
from deberc_net.game.record import Records
from deberc_net.plugins import RuleBook
from deberc_net.selfplay import selfplay

from .random_matches import told_match


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def garbage_in_a_child(play: Callable[[], None]) -> int:
    """What ``gc.collect()`` finds after ``play``, run in a child forked from this
    process: the same modules and caches, but no other thread. In a pytest worker a
    thread an earlier test left (a server stopping in its own thread) makes garbage of
    its own, which the collector here counted too: 4,287 objects once, in a whole run.
    A fork keeps only the thread that forks."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its answer on the pipe, then out without pytest's exit
        status = 1
        try:
            os.close(read)
            gc.collect()
            play()
            os.write(write, str(gc.collect()).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], 60)
        said = os.read(read, 64).decode() if ready else ""
    finally:
        os.close(read)
        if not said:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    assert said and status == 0, f"the child said {said!r}, exit status {status}"
    return int(said)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_match_is_freed_without_the_collector(players: int, no_collector: None) -> None:
    match = next(selfplay(RuleBook.load().ruleset(players), 1, f"freed/{players}"))
    assert match.over and len(match.records) > 1
    gone = weakref.ref(match)
    records = match.records
    del match
    assert gone() is None
    assert all(record["format"] for record in records)  # still readable, the match gone


def test_a_forfeited_match_is_freed_and_its_records_read_after(no_collector: None) -> None:
    match = Match(RuleBook.load().ruleset(2), seed="freed/forfeit", table="t", match_id="m2")
    seat = match.to_act
    assert seat is not None
    match.apply(seat, match.legal_calls(seat)[0])  # a deal begun: recorded as it stands
    [abandoned, ended] = match.forfeit(0)
    gone = weakref.ref(match)
    records = match.records
    del match
    assert gone() is None
    [record] = records
    assert (record["table"], record["match"], record["outcome"]) == ("t", "m2", "forfeit")
    assert isinstance(abandoned, DealAbandoned) and isinstance(ended, MatchEnded)
    assert abandoned.record is record and ended.forfeit is None


# a game of its own (Tertz), plugins' hooks and calls (the examples, dave, deberts,
# penalties, claims), every table size
RULE_SETS = [
    (2, "moscow", ()),
    (3, "kharkov", ("perezdacha",)),
    (4, "moscow", ("posled-20", "table-penalties", "manual-claim")),
    (2, "moscow", ("dave", "to-9-stakes", "dave-geometric")),
    (4, "kharkov", ("combos-need-trick", "deberts", "stake-10")),
    (2, "tertz", ("tertz-501",)),
]


@pytest.mark.parametrize(("players", "variant", "options"), RULE_SETS)
def test_self_play_leaves_nothing_for_the_collector(
    players: int, variant: str, options: tuple[str, ...], no_collector: None
) -> None:
    rules = RuleBook.load().ruleset(players, variant, options)
    for warm in selfplay(rules, 1, "warm"):  # what a first use builds once, kept
        assert warm.records[0]
    del warm
    records: list[Records] = []

    def play() -> None:
        for match in selfplay(rules, 2, f"garbage/{players}/{variant}"):
            records.append(match.records)  # unread, as self-play leaves them
        del match

    # not one object in a cycle: the match, its deals, events
    assert garbage_in_a_child(play) == 0
    play()  # (here too: the records read after)
    assert all(record["format"] for match_records in records for record in match_records)


@pytest.mark.parametrize("forfeit_after", [None, 30])
def test_a_match_played_call_by_call_leaves_nothing_for_the_collector(
    forfeit_after: int | None, no_collector: None
) -> None:
    # as a table plays it (Match.apply, every event kept), once with a forfeit mid-deal
    rules = RuleBook.load().ruleset(2)
    told_match(rules, "warm", random.Random(1), None)
    ends: list[type[object]] = []

    def play() -> None:
        told = told_match(rules, "garbage", random.Random(2), forfeit_after)[1]
        ends[:] = [type(e) for e in told if isinstance(e, DealEnded | DealAbandoned)]
        del told

    assert garbage_in_a_child(play) == 0
    play()  # (here too: what was told read after)
    assert ends[-1] is (DealEnded if forfeit_after is None else DealAbandoned)
