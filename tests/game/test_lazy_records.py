"""A deal's record is built when first read (game/record.py, ``Records``): read at once
or after the match has moved on, it is the same record."""

from __future__ import annotations

import json
import random

import pytest

from deberc_net.game import events as g
from deberc_net.game.match import Match
from deberc_net.plugins import RuleBook


def play(match: Match, rng: random.Random, read_now: bool) -> list[str]:
    """Play ``match`` to its end with random calls; the records told, as JSON, read when
    told (``read_now``) or only once the match is over."""
    told: list[g.DealEnded | g.DealAbandoned] = []
    lines: list[str] = []
    while not match.over:
        seat = match.to_act
        assert seat is not None
        for event in match.apply(seat, rng.choice(match.legal_calls(seat))):
            if isinstance(event, g.DealEnded):
                told.append(event)
                if read_now:
                    lines.append(json.dumps(event.record))
    if not read_now:
        lines = [json.dumps(event.record) for event in told]
    assert lines == [json.dumps(record) for record in match.records]
    return lines


@pytest.mark.parametrize("deal_limit", [None, 2])
@pytest.mark.parametrize("players", [2, 4])
def test_a_record_read_at_once_or_later_is_the_same(deal_limit: int | None, players: int) -> None:
    rules = RuleBook.load().ruleset(players, options=["stake-5"])
    for game in range(3):
        now, later = (
            play(
                Match(rules, seed=f"lazy/{game}", deal_limit=deal_limit),
                random.Random(game),
                read_now,
            )
            for read_now in (True, False)
        )
        assert now == later
        last = json.loads(now[-1])
        if deal_limit is None:  # the match's end, and its stakes, are in its last record
            assert last["match_over"]["stakes"]
        else:  # a board stopped after its deals: its last deal did not end the match
            assert "match_over" not in last or last["match_over"]["reason"] != "deals"


def test_a_forfeit_records_the_deal_as_it_stood() -> None:
    match = Match(RuleBook.load().ruleset(2), seed="lazy/forfeit")
    rng = random.Random(1)
    for _ in range(5):
        seat = match.to_act
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_calls(seat)))
    abandoned = [e for e in match.forfeit(0, "left", seat=0) if isinstance(e, g.DealAbandoned)]
    assert abandoned and abandoned[0].record is match.records[-1]
    assert abandoned[0].record["outcome"] == "left"
    assert len(abandoned[0].record["calls"]) == len(match.deal.log)  # every call so far
