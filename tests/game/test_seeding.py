"""Decks come from the match seed and the deal number: the same as they always were."""

from __future__ import annotations

import hashlib
import random

from deberc_net.game.cards import DECK
from deberc_net.game.seeding import deal_seed, deck_for


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
