"""A match played by random calls, with everything it told: what the tests of the
engine's events fold or let go share (tests/game/test_record_fold.py,
test_match_freed.py)."""

from __future__ import annotations

import random

from deberc_net.game import events as g
from deberc_net.game.match import Match


def told_match(
    rules: object, seed: str, rng: random.Random, forfeit_after: int | None
) -> tuple[Match, list[g.MatchEvent]]:
    """A match of random calls (the clock's ``ms`` made up), and everything it told, the
    first deal's start first; ``forfeit_after``: so many calls, then seat 0 leaves."""
    match = Match(rules, seed=seed)  # type: ignore[arg-type]
    told: list[g.MatchEvent] = [match.deal_started()]
    calls = 0
    while not match.over:
        if calls == forfeit_after:
            told += match.forfeit(0, "left", seat=0)
            break
        seat = match.to_act
        assert seat is not None
        call = rng.choice(match.legal_calls(seat))
        told += match.apply(seat, call, ms=rng.randrange(5000), auto=rng.random() < 0.1)
        calls += 1
    return match, told
