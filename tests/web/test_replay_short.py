"""A short game's replay names each deal's winner as its players were told it ('Deal 1:
won by bob.', `sheet`'s 'won by' column), not the record's `bide`: black-box evening
s40, a dave game whose player lost to a house bot read 'Outcome: bide.' at /games/ID,
a word the short games never say (they count no bides, docs/rules.md §11)."""

from __future__ import annotations

import random

from deberc_net.game.match import Match
from deberc_net.server.web.replay import replay_match
from deberc_net.testing import build_ruleset, rule_book


def _played(options: tuple[str, ...], seed: int) -> Match:
    match = Match(build_ruleset(2, options=options), seed=f"short-{seed}")
    rng = random.Random(seed)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_calls(seat)))
    return match


def test_a_short_games_deal_is_said_won_by_its_winner_in_both_languages() -> None:
    outcomes = set()
    for seed in range(12):
        records = list(_played(("dave",), seed).records)
        names = [str(n) for n in records[0]["players"]]
        for record, deal in zip(records, replay_match(records, rule_book()).deals, strict=True):
            written = record["written"]
            if record["outcome"] in ("made", "bide") and written:
                winner = names[written.index(max(written))]
                assert deal.won_by == f"won by {winner}", (seed, record["outcome"])
                assert deal.won_by_ru == f"победитель — {winner}"
                outcomes.add(record["outcome"])
    assert outcomes == {"made", "bide"}  # the one who ordered lost some: the case at hand


def test_a_normal_deal_keeps_its_outcome_word() -> None:
    records = list(_played((), 1).records)
    assert all(d.won_by == d.won_by_ru == "" for d in replay_match(records, rule_book()).deals)
