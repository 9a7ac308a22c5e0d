"""The table's clocks as a pure object: driven with plain numbers, no trio, no sleeps."""

from __future__ import annotations

import math
import random

from deberc_net.game import calls as C
from deberc_net.game.clock import Clocks, automatic_call
from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset

from .decks import SIMPLE, build_deck, parse


def clocks(**overrides: int) -> Clocks:
    settings = {"players": 2, "call_ms": 10_000, "away_limit_ms": 60_000, "max_timeouts": 3}
    settings.update(overrides)
    return Clocks(**settings)


def test_nothing_is_due_before_anyone_is_asked() -> None:
    c = clocks()
    assert c.deadline() == math.inf
    assert c.out_of_time(1e9) is None and c.away_too_long(1e9) == []


def test_a_request_runs_out_at_its_seats_time() -> None:
    c = clocks()
    c.set_call_ms([10_000, 2_000])  # seat 1 plays in the machine style
    c.ask(1, now=100.0)
    assert c.deadline() == 102.0
    assert c.out_of_time(101.999) is None
    assert c.out_of_time(102.0) == 1
    assert c.left_ms(1, now=100.5) == 1500
    assert c.left_ms(1, now=200.0) == 0  # never below nothing
    assert c.left_ms(0, now=100.5) == 10_000  # not asked: its clock has not started
    c.ask(0, now=102.0)  # the next request starts the next clock
    assert c.deadline() == 112.0 and c.out_of_time(105.0) is None


def test_a_seat_is_warned_once_a_request_when_its_warning_time_is_left() -> None:
    c = clocks(warn_left_ms=4_000)
    c.set_call_ms([10_000, 4_000])  # seat 1's whole clock is no longer than the warning
    c.ask(0, now=100.0)
    assert c.deadline() == 106.0  # the warning comes before the time is up
    assert c.take_warning(105.999) is None
    assert c.take_warning(106.0) == 0
    assert c.take_warning(107.0) is None  # once
    assert c.deadline() == 110.0 and c.out_of_time(110.0) == 0
    c.ask(1, now=110.0)  # a clock this short is warned at half of it (s47: none was)
    assert c.warning_left_ms(1) == 2_000
    assert c.deadline() == 112.0 and c.take_warning(111.9) is None
    assert c.take_warning(112.0) == 1 and c.deadline() == 114.0
    c.ask(0, now=114.0)  # a new request to seat 0: warned again
    assert c.deadline() == 120.0 and c.take_warning(120.0) == 0
    c.stop()
    c.ask(0, now=200.0)
    assert c.deadline() == math.inf and c.take_warning(1e9) is None


def test_no_warning_unless_one_is_set() -> None:
    c = clocks()
    c.ask(0, now=0.0)
    assert c.deadline() == 10.0 and c.take_warning(9.99) is None


def test_the_earliest_of_the_request_and_an_away_limit() -> None:
    c = clocks(away_limit_ms=5_000)
    c.ask(0, now=0.0)
    c.away(1, now=1.0)
    assert c.deadline() == 6.0
    assert c.away_too_long(5.9) == [] and c.away_too_long(6.0) == [1]
    c.back(1)
    assert c.deadline() == 10.0 and c.away_too_long(100.0) == []


def test_a_stall_of_the_server_counts_against_no_seat() -> None:
    c = clocks(away_limit_ms=5_000)
    c.ask(0, now=0.0)
    c.away(1, now=1.0)
    c.stalled(30.0)  # the server did not run from about 1 s to 31 s
    assert c.deadline() == 36.0  # seat 1's away limit, moved by it
    assert c.away_too_long(35.9) == [] and c.out_of_time(35.9) is None
    assert c.left_ms(0, now=31.0) == 9_000  # seat 0 had used 1 s of its 10
    assert c.out_of_time(40.0) == 0


def test_a_waiting_table_holds_away_seats_lowest_first() -> None:
    c = clocks(players=3, away_limit_ms=1_000)
    c.away(2, now=0.0)
    c.away(0, now=0.5)
    assert c.deadline() == 1.0  # nobody is asked: only the away limits count
    assert c.away_too_long(1.2) == [2]
    assert c.away_too_long(1.5) == [0, 2]


def test_an_away_seat_is_held_whole_seconds_more_never_fewer_than_none() -> None:
    c = clocks(away_limit_ms=120_000)
    c.away(1, now=10.0)
    assert c.held_s(1, now=10.0) == 120
    assert c.held_s(1, now=33.2) == 97  # 96.8 s: a second begun is told whole
    assert c.held_s(1, now=130.0) == 0 and c.held_s(1, now=500.0) == 0


def test_timeouts_in_a_row_lose_and_an_answer_resets_them() -> None:
    c = clocks(max_timeouts=3)
    assert not c.timed_out(0) and not c.timed_out(0)
    c.answered(0)
    assert not c.timed_out(0) and not c.timed_out(0)
    assert not c.timed_out(1)  # each seat counts its own
    assert c.timed_out(0)


def test_at_its_deadline_a_request_is_out_of_time_whatever_the_rounding() -> None:
    c = clocks(away_limit_ms=200)
    c.set_call_ms([200, 200])
    c.ask(1, now=0.6000000000000001)  # 0.8 - this is 0.19999999999999996, not 0.2
    c.away(0, now=0.6000000000000001)
    now = c.deadline()
    assert now == 0.6000000000000001 + 0.2
    assert c.out_of_time(now) == 1 and c.away_too_long(now) == [0]


def test_a_stopped_clock_has_nothing_due() -> None:
    c = clocks()
    c.ask(0, now=0.0)
    c.away(1, now=0.0)
    c.stop()
    assert c.deadline() == math.inf
    assert c.out_of_time(1e9) is None and c.away_too_long(1e9) == []


def test_the_automatic_call_passes_then_plays_the_lowest_card() -> None:
    rules = build_ruleset()
    match = Match(rules, seed="clock", dealer=1, decks={1: build_deck(*SIMPLE)})
    assert automatic_call(match, 0) == parse("pas")
    match.apply(0, parse("igrayu"))
    # trump clubs: a plain seven (7h before 7d, as the hand holds them), not a trump
    call = automatic_call(match, 0)
    assert call.name == C.PLAY and call == parse("7h")
    match.apply(0, call)
    assert automatic_call(match, 1) == parse("Kh")  # follows suit: K is below 10 and A


def test_the_kept_deadline_is_the_earliest_due_after_any_change() -> None:
    """``due`` is worked out at each change, not each reading: after any sequence of
    requests, warnings, aways, backs and clock changes it is the earliest of what is due."""
    rng = random.Random(9)
    for _ in range(200):
        c = clocks(warn_left_ms=1_000, players=3)
        now = 0.0
        for _ in range(30):
            now += rng.random() * 5
            step = rng.randrange(6)
            if step == 0:
                c.ask(rng.choice([None, 0, 1, 2]), now)
            elif step == 1:
                c.take_warning(now)
            elif step == 2:
                c.away(rng.randrange(3), now)
            elif step == 3:
                c.back(rng.randrange(3))
            elif step == 4:
                c.set_call_ms([rng.choice([500, 2_000, 10_000]) for _ in range(3)])
            else:
                c.answered(rng.randrange(3))
            waiting = c.waiting_for
            expected = min(
                [
                    math.inf if waiting is None else c.asked_at + c.per_seat_ms[waiting] / 1000,
                    math.inf
                    if waiting is None or c.warned or c.per_seat_ms[waiting] <= 1_000
                    else c.asked_at + (c.per_seat_ms[waiting] - 1_000) / 1000,
                    *(since + 60.0 for since in c.away_since.values()),
                ]
            )
            assert c.deadline() == c.due == expected
        c.stop()
        assert c.deadline() == math.inf
