"""``Deal.copy``: a copy to play on (the search bots play candidate cards on copies)
shares nothing that a call changes, so whatever is done to the copy never reaches the
deal it was made from, and that deal plays on exactly as one never copied."""

from __future__ import annotations

import copy
import random
from typing import Any

import attrs
import pytest

from deberc_net.game.deal import DONE, Deal
from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset

RULE_SETS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "moscow", ()),
    (3, "moscow", ()),
    (4, "moscow", ("pair-combinations", "show-combination")),
    (3, "kharkov", ("swap-before-extra",)),
    (2, "tertz", ()),
)
ID = [f"{p}/{v}/{','.join(o)}" for p, v, o in RULE_SETS]


def state(deal: Deal) -> Any:
    """Everything a call may change, deep-copied (so a later change cannot alter it)."""
    fields = attrs.asdict(deal, recurse=False, filter=lambda a, _: a.name != "rules")
    fields.pop("_caches")
    return copy.deepcopy(fields)


def play_on(deal: Deal, rng: random.Random, calls: int) -> int:
    """Up to ``calls`` random legal calls; how many were made."""
    made = 0
    while made < calls and deal.phase != DONE:
        seat = deal.to_act
        assert seat is not None
        deal.apply(seat, rng.choice(deal.legal_calls(seat)))
        made += 1
    return made


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=ID)
def test_playing_a_copy_to_its_end_leaves_the_deal_as_it_was(
    rule_set: tuple[int, str, tuple[str, ...]],
) -> None:
    rules = build_ruleset(*rule_set)
    for game in range(6):
        deal = Match(rules, seed=f"copy/{game}").deal
        twin = Match(rules, seed=f"copy/{game}").deal  # never copied
        rng = random.Random(game)
        start = rng.randrange(30)
        assert play_on(deal, random.Random(start), start) == play_on(
            twin, random.Random(start), start
        )
        before = state(deal)
        played = deal.copy()
        assert type(played) is type(deal) and state(played) == before
        if play_on(played, rng, 1000):
            assert state(played) != before  # the copy did move on
        assert state(deal) == before
        # the original plays on as its twin that was never copied
        play_on(deal, random.Random(f"rest/{game}"), 1000)
        play_on(twin, random.Random(f"rest/{game}"), 1000)
        assert state(deal) == state(twin)
        assert deal.result is not None and deal.record() == twin.record()


def match_state(match: Match) -> Any:
    """What a match's calls change: its totals, records and current deal."""
    return (
        list(match.totals),
        list(match.bides),
        match.hanging,
        list(match.records),
        match.result,
        state(match.deal),
    )


def play_match(match: Match, rng: random.Random, calls: int) -> None:
    while calls and not match.over:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_calls(seat)))
        calls -= 1


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=ID)
def test_playing_a_match_copy_to_its_end_leaves_the_match_as_it_was(
    rule_set: tuple[int, str, tuple[str, ...]],
) -> None:
    """``Match.copy`` (the property tests' twins): deals ended and begun on the copy,
    its totals and records, never reach the match it was made from."""
    rules = build_ruleset(*rule_set)
    for game in range(3):
        match = Match(rules, seed=f"match-copy/{game}")
        twin = Match(rules, seed=f"match-copy/{game}")  # never copied
        start = random.Random(game).randrange(60)
        play_match(match, random.Random(start), start)
        play_match(twin, random.Random(start), start)
        before = match_state(match)
        played = match.copy()
        assert match_state(played) == before
        play_match(played, random.Random(f"copy/{game}"), 10_000)
        assert played.over and len(played.records) > len(match.records)
        assert match_state(match) == before
        play_match(match, random.Random(f"rest/{game}"), 10_000)
        play_match(twin, random.Random(f"rest/{game}"), 10_000)
        assert match_state(match) == match_state(twin)
