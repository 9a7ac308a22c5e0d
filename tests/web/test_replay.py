"""The replay page's deals (server/web/views.py: replay), rebuilt from records alone."""

from __future__ import annotations

import random

from deberc_net.game.calls import MENYAYU
from deberc_net.game.match import Match
from deberc_net.server.web.views import replay
from deberc_net.testing import build_ruleset, rule_book


def _played_matches(count: int) -> list[Match]:
    rules = build_ruleset(2)
    matches = []
    for seed in range(count):
        match = Match(rules, seed=f"replay-{seed}")
        rng = random.Random(seed)
        while not match.over:
            seat = match.to_act
            assert seat is not None
            calls = match.legal_calls(seat)
            swaps = [c for c in calls if c.name == MENYAYU]  # swap whenever one may
            match.apply(seat, swaps[0] if swaps else rng.choice(calls))
        matches.append(match)
    return matches


def test_a_hand_is_shown_as_held_for_its_first_card_after_a_seven_swap() -> None:
    book = rule_book()
    swapped = 0
    for match in _played_matches(6):
        shown = replay(match.records, book)
        for record, deal in zip(match.records, shown.deals, strict=True):
            swapped += any(e["call"] == MENYAYU for e in record["calls"])
            if len(record["tricks"]) != 9:
                continue  # a void or claimed deal: not every card was played
            for seat, hand in enumerate(deal.hands):
                played = [c for t in deal.tricks for s, c in t.plays if s == seat]
                assert sorted(hand) == sorted(played), (record["deal_no"], seat)
    assert swapped  # the seeds above give swaps: the case this test is about
