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
    _rng(deal_seed(match_seed, deal_no)).shuffle(cards)
    return tuple(cards)


def first_dealer(match_seed: str, players: int) -> int:
    """The first dealer, drawn by lot from the seed."""
    return _rng(f"{match_seed}/dealer").randrange(players)
