"""The engine builds some events straight from a tuple of their fields (deal.py,
match.py, record.py: ``tuple.__new__``), past the class's call and its defaults: each
must still be the event the class's own call makes from the same fields, none missing
(a field added to a class and not to its fast build would be), in every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from deberc_net.game import events as g
from deberc_net.game.deal import Trick
from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset


def _as_the_class_makes_it(event: Any) -> None:
    fields = type(event)._fields
    assert len(event) == len(fields), (type(event).__name__, event)
    assert type(event)(*event) == event
    for value in event:
        if isinstance(value, tuple) and hasattr(type(value), "_fields"):
            _as_the_class_makes_it(value)  # DealEnded's Unveiled and MatchOver


@pytest.mark.parametrize(
    ("players", "variant", "options"),
    [(2, "moscow", ()), (3, "kharkov", ()), (4, "moscow", ("pair-combinations",)),
     (2, "tertz", ()), (2, "moscow", ("to-301", "stake-5"))],
)  # fmt: skip
def test_every_event_a_match_tells_is_whole(
    players: int, variant: str, options: tuple[str, ...]
) -> None:
    rules = build_ruleset(players, variant, options)
    rng = random.Random(f"whole/{players}/{variant}")
    match = Match(rules, seed=f"whole/{variant}", match_id="1", table="t")
    told: list[Any] = [match.deal.started()]
    kinds: set[type] = set()
    while match.result is None:
        deal = match.deal
        assert type(deal.trick) is Trick and deal.trick == Trick(deal.trick.leader, list(
            deal.trick.cards), deal.trick.winner)  # fmt: skip
        seat = deal.to_act
        assert seat is not None
        told += match.apply(seat, rng.choice(deal.legal_calls(seat)))
    for event in told:
        _as_the_class_makes_it(event)
        kinds.add(type(event))
    ordered = set() if variant == "tertz" else {g.Ordered}  # Tertz turns its trump
    assert {g.DealStarted, g.DealEnded, g.CallMade, g.CardPlayed} | ordered <= kinds
