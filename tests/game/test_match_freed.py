"""A finished match is freed by its reference count alone: nothing it keeps for its
records (the lazy records, the deal-end events) points back at it, so the cyclic
collector never has to walk or free it (issue #9: its collections were ~3 % of a deal)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from deberc_net.game.match import Match
from deberc_net.plugins import RuleBook
from deberc_net.selfplay import selfplay


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


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
    assert abandoned.record is record and ended.forfeit is None
