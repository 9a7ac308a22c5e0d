"""Decks come from the match seed and the deal number: the same as they always were."""

from __future__ import annotations

import hashlib
import random

import pytest

from deberc_net.game.cards import DECK
from deberc_net.game.seeding import deal_seed, deck_for, first_dealer


def test_a_deck_is_the_standard_library_shuffle_of_the_seeded_generator() -> None:
    # deck_for draws the shuffle itself (speed); it must stay random.shuffle's permutation
    for n in range(300):
        seed = f"match-{n}"
        digest = hashlib.sha256(deal_seed(seed, n % 7 + 1).encode("utf-8")).digest()
        cards = list(DECK)
        random.Random(int.from_bytes(digest, "big")).shuffle(cards)
        assert deck_for(seed, n % 7 + 1) == tuple(cards)


def test_decks_differ_by_deal_and_hold_every_card_once() -> None:
    decks = {deck_for("s", n) for n in range(1, 50)}
    assert len(decks) == 49
    assert all(sorted(deck) == list(DECK) for deck in decks)


def test_the_first_dealer_is_the_standard_library_draw_of_the_seeded_generator() -> None:
    # first_dealer draws on the C generator itself (one seeding a match, not two): it
    # must stay random.Random's randrange from the same seed
    for n in range(300):
        seed, players = f"match-{n}", n % 6 + 1
        digest = hashlib.sha256(f"{seed}/dealer".encode()).digest()
        expected = random.Random(int.from_bytes(digest, "big")).randrange(players)
        assert first_dealer(seed, players) == expected


def test_a_table_of_no_players_has_no_first_dealer() -> None:
    with pytest.raises(ValueError):
        first_dealer("s", 0)
