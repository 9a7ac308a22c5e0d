"""Decks derived from the match seed and the deal number only.

Nothing the players do can shift a later deck, so the same seed replays the same cards
and a ladder can replay a board with the seats swapped.
"""

from __future__ import annotations

import hashlib
import secrets
from _random import Random as _BareRandom

from .cards import DECK, Card


def fresh_match_seed() -> str:
    """A server's seed for a match of no known seed: fresh each time. Looked up here at
    each call, so the tests can draw it from their run's seed (tests/deal_seeds.py) and
    a failure on a rare deal is replayed."""
    return secrets.token_hex(8)


def deal_seed(match_seed: str, deal_no: int) -> str:
    return f"{match_seed}/{deal_no}"


def _seed_of(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


def deck_for(match_seed: str, deal_no: int) -> tuple[Card, ...]:
    """The deal's deck, top card first. Drawn with the C generator ``random.Random``
    is built on: the same seeding and ``getrandbits``, so the same deck, without the
    Python class's ``__init__`` and ``seed`` (which seed it a second time) every deal."""
    cards = list(DECK)
    _shuffle(_BareRandom(_seed_of(deal_seed(match_seed, deal_no))), cards)
    return tuple(cards)


def _shuffle(rng: _BareRandom, cards: list[Card]) -> None:
    """``random.Random.shuffle(cards)`` on ``rng``'s generator: the same permutation
    drawn the same way (Fisher-Yates from the top, each index by ``getrandbits`` and
    rejection, as CPython's ``Random._randbelow_with_getrandbits``), without a method
    call per card: every deal is dealt from a freshly seeded generator."""
    getrandbits = rng.getrandbits
    steps = _DECK_STEPS if len(cards) == len(DECK) else _steps(len(cards))
    for i, bits in steps:
        j = getrandbits(bits)
        while j > i:  # j must be below i + 1
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """The shuffle's steps over ``size`` cards: each index from the top down to 1 and
    the bits its draw takes (``(i + 1).bit_length()``)."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


# a deck's steps, worked out once rather than a bound and a bit length each card
_DECK_STEPS = _steps(len(DECK))


def first_dealer(match_seed: str, players: int) -> int:
    """The first dealer, drawn by lot from the seed: ``random.Random(seed).randrange``
    as drawn on the C generator (as ``deck_for`` draws: the same seat, one seeding of
    the generator a match rather than two), by ``getrandbits`` and rejection."""
    if players < 1:
        raise ValueError("a table of no players has no dealer")
    getrandbits = _BareRandom(_seed_of(f"{match_seed}/dealer")).getrandbits
    bits = players.bit_length()
    seat = getrandbits(bits)
    while seat >= players:
        seat = getrandbits(bits)
    return seat
