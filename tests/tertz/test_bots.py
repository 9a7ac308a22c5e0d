"""The reference bots and Tertz: the random and heuristic bots play it from ``legal=``;
the search bot searches its cards and makes its other calls as the heuristic bot."""

from __future__ import annotations

import random

from clients import heuristic_bot
from clients.search.local import call_for, history_of, view_of
from clients.search.policy import SearchPlayer
from deberc_net.game.match import Match
from deberc_net.testing import build_talon_deck, new_match, play, say

from .helpers import LATE0, LATE1, LATE_TALON, RULES


def test_the_heuristic_bot_plays_whole_tertz_matches_and_declares_hundreds() -> None:
    said: list[str] = []
    for seed in range(3):
        match = Match(RULES, seed=f"h{seed}")
        while not match.over:
            seat = match.to_act
            assert seat is not None
            view = view_of(match, seat)
            choice = heuristic_bot.choose(view)
            assert choice in view.legal
            said.append(choice)
            match.apply(seat, call_for(match, seat, choice))
    assert any(s.startswith("lomayu-") for s in said)
    deck = build_talon_deck("7s 8s 10s Qs As 7c 9c Jc 8d", "Ks Kh Kd Kc 9s 8h 9h 7d 10d", "7h")
    kings = new_match(RULES, deck)
    play(kings, "7s")
    view = view_of(kings, 1)
    assert "sto-korolei" in view.legal and heuristic_bot.choose(view) == "sto-korolei"


def test_the_heuristic_bot_declares_a_combination_drawn_later() -> None:
    match = new_match(RULES, build_talon_deck(LATE0, LATE1, "Kh", LATE_TALON))
    play(match, "Ad 10d")
    say(match, 1, "lomayu-1")
    play(match, "9d Jd 9s")  # seat 0 drew the 8c: a terts 7-8-9c at trick 3
    view = view_of(match, 0)
    assert "terts" in view.legal and heuristic_bot.choose(view) == "terts"
    say(match, 0, "terts")
    play(match, "7s 8d")  # and the 10c: a fifty at trick 4
    view = view_of(match, 0)
    assert heuristic_bot.choose(view) == "pyatdesyat"


def test_at_a_tertz_table_the_search_bot_searches_cards_and_talks_as_the_heuristic_bot() -> None:
    match = Match(RULES, seed="search")
    bot = SearchPlayer(level=1, ms=15, seed="t", strict=True)
    bot.tracker.rules.variant = "tertz"
    rng = random.Random(1)
    talk: list[str] = []
    while not match.over and len(match.records) < 1:
        seat = match.to_act
        assert seat is not None
        view = view_of(match, seat)
        if seat == 0:
            bot.tracker.deals[1] = history_of(match)
            choice = bot.choose(view)
            assert choice in view.legal
            if choice not in view.hand:  # a declaration, mariage, the seven, lomayu-N
                assert choice == heuristic_bot.choose(view)
                talk.append(choice)
        else:
            choice = rng.choice(view.legal)
        match.apply(seat, call_for(match, seat, choice))
    assert bot.fallbacks == 0 and talk
