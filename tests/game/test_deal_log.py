"""A deal's log is read off its events (issue #9: a move makes no log entry of its own):
one entry a call, in order, with the call's seat, ms and clock flag, the engine's own
shows marked, and the call under way included while it is carried out."""

from __future__ import annotations

import random

import attrs
import pytest

from deberc_net.game.calls import IGRAYU, POKAZYVAYU
from deberc_net.game.deal import Deal, LoggedCall
from deberc_net.game.match import Match
from deberc_net.testing import build_ruleset

RULE_SETS = [
    (2, ()),
    (3, ("show-combination", "bella-after-trick")),
    (4, ("pair-combinations", "show-combination", "manual-claim")),
]


def _play(match: Match, rng: random.Random, read_every_call: bool) -> list[list[LoggedCall]]:
    """Play ``match`` at random with random ms and clock flags: each deal's log at its
    end, checked against the calls made when ``read_every_call``."""
    logs: list[list[LoggedCall]] = []
    while not match.over:
        deal = match.deal
        seat = deal.to_act
        assert seat is not None
        call = rng.choice(deal.legal_calls(seat))
        ms, auto = rng.randrange(5000), rng.random() < 0.2
        before = len(deal.log) if read_every_call else 0
        match.apply(seat, call, ms=ms, auto=auto)
        if read_every_call:
            made = deal.log[before:]
            assert made[0] == LoggedCall(seat, call, ms, auto)
            for shown in made[1:]:  # the engine's shows, at the call's time
                assert (shown.call.name, shown.ms, shown.auto, shown.engine) == (
                    POKAZYVAYU,
                    ms,
                    False,
                    True,
                )
        if match.deal is not deal or match.over:
            logs.append(list(deal.log))
    return logs


@pytest.mark.parametrize(("players", "options"), RULE_SETS)
def test_the_log_holds_each_call_once_whenever_it_is_read(
    players: int, options: tuple[str, ...]
) -> None:
    rules = build_ruleset(players, options=options)
    for game in range(3):
        seed = f"log/{players}/{game}"
        read = _play(Match(rules, seed=seed), random.Random(seed), read_every_call=True)
        unread = _play(Match(rules, seed=seed), random.Random(seed), read_every_call=False)
        assert read == unread


def test_a_hook_asking_during_a_call_sees_that_call() -> None:
    """The order's hook reads the log while the order is carried out (its event not yet
    told): the order is in it."""
    seen: list[LoggedCall] = []

    def hook(deal: Deal, moment: str) -> None:
        if moment == "play":
            seen.append(deal.log[-1])

    rules = attrs.evolve(build_ruleset(), deal_event=hook)
    match = Match(rules, seed="log/hook")
    rng = random.Random("log/hook")
    while not seen:
        deal = match.deal
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_calls(seat)
        orders = [call for call in legal if call.name == IGRAYU]
        match.apply(seat, (orders or legal)[0] if rng.random() < 0.5 else rng.choice(legal), ms=7)
    assert seen[0].call.name == IGRAYU
    assert seen[0].ms == 7
    assert match.deal.log[-1] == seen[0]
