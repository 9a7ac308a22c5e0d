"""Cards as small integers, with the lookup tables the hot path needs.

A card is ``suit * 8 + rank``: ranks in natural order 7 8 9 10 J Q K A (index 0..7),
suits in the order s h d c. Integers keep hands, tricks and records cheap, and every
per-card question (points, strength) is one tuple index.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "shdc"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

# Play strength (higher wins), indexed by rank.
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)  # 7 8 9 J Q K 10 A
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)  # 7 8 Q K 10 A 9 J
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)

Card = int
DECK: tuple[Card, ...] = tuple(range(32))


def make(rank: int, suit: int) -> Card:
    return suit * 8 + rank


def suit_of(card: Card) -> int:
    return card >> 3


def card_str(card: Card) -> str:
    """Canonical text of a card: ``10h``, ``Js``."""
    return RANKS[card & 7] + SUITS[card >> 3]


def cards_str(cards: Iterable[Card]) -> str:
    return ",".join(card_str(c) for c in cards)


# each card's text by the card (``card_str``'s, read from a table: the lines told every
# call, server/ask_line.py and protocol/event_lines.py)
CARD_TEXT: tuple[str, ...] = tuple(card_str(c) for c in DECK)


_BY_TEXT = {card_str(c): c for c in DECK}


def parse_card(text: str) -> Card:
    """Parse a canonical card (``10h``, ``Js``; ``T`` accepted for 10, any case)."""
    t = text.strip()
    if len(t) >= 2:
        rank, suit = t[:-1].upper(), t[-1].lower()
        if rank == "T":
            rank = "10"
        card = _BY_TEXT.get(rank + suit)
        if card is not None:
            return card
    raise ValueError(f"not a card: {text!r}")


def card_points(card: Card, trump: int) -> int:
    if card >> 3 == trump:
        return TRUMP_POINTS[card & 7]
    return PLAIN_POINTS[card & 7]


def sort_hand(cards: Iterable[Card], trump: int | None = None) -> list[Card]:
    """Sort for display: by suit, then by play strength within the suit."""

    def key(c: Card) -> tuple[int, int]:
        s = c >> 3
        strength = TRUMP_STRENGTH[c & 7] if s == trump else PLAIN_STRENGTH[c & 7]
        return (s, strength)

    return sorted(cards, key=key)
