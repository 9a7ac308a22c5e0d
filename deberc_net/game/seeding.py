"""Decks derived from the match seed and the deal number only.

Nothing the players do can shift a later deck, so the same seed replays the same cards
and a ladder can replay a board with the seats swapped.
"""

from __future__ import annotations

import hashlib
import random

from .cards import DECK, Card


def deal_seed(match_seed: str, deal_no: int) -> str:
    return f"{match_seed}/{deal_no}"


def _rng(text: str) -> random.Random:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest, "big"))


def deck_for(match_seed: str, deal_no: int) -> tuple[Card, ...]:
    """The deal's deck, top card first."""
    cards = list(DECK)
    _shuffle(_rng(deal_seed(match_seed, deal_no)), cards)
    return tuple(cards)


def _shuffle(rng: random.Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)``, the same permutation drawn the same way (Fisher-Yates
    from the top, each index by ``getrandbits`` and rejection, as CPython's
    ``Random._randbelow_with_getrandbits``), without a method call per card: every
    deal is dealt from a freshly seeded generator."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def first_dealer(match_seed: str, players: int) -> int:
    """The first dealer, drawn by lot from the seed."""
    return _rng(f"{match_seed}/dealer").randrange(players)
