"""Tertz's card values and duties of play (docs/rules.md, Tertz §3–4).

Ranks and play strength are Deberts's (seed 004: "in non-trump suit - 7, 8, 9, V, D, K,
10, T; in a trump suit - 7, 8, D, K, 10, T, 9, V"); the values differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from deberc_net.game.cards import JACK, PLAIN_STRENGTH, TRUMP_STRENGTH, Card, make

# 7 8 9 10 J Q K A
PLAIN_POINTS = (0, 0, 0, 10, 1, 2, 3, 11)
TRUMP_POINTS = (0, 0, 13, 10, 20, 2, 3, 11)
LAST_TRICK = 10
DEAL_TOTAL = 3 * sum(PLAIN_POINTS) + sum(TRUMP_POINTS) + LAST_TRICK  # 150


def card_points(card: Card, trump: int) -> int:
    return (TRUMP_POINTS if card >> 3 == trump else PLAIN_POINTS)[card & 7]


def _strength(card: Card, trump: int) -> int:
    return (TRUMP_STRENGTH if card >> 3 == trump else PLAIN_STRENGTH)[card & 7]


def legal_cards(
    hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: int, talon_open: bool
) -> list[Card]:
    """While the talon lasts: follow suit, else trump, else anything; the trump jack is
    never forced. After it: follow suit and beat if able, else trump, else anything."""
    if not trick:
        return list(hand)
    led = trick[0][1]
    suit = led >> 3
    follow = [c for c in hand if c >> 3 == suit]
    trumps = [c for c in hand if c >> 3 == trump]
    if talon_open:
        forced = follow or trumps
        if not forced or forced == [make(JACK, trump)]:
            return list(hand)  # "At will, the player can put only the jack of trump"
        return forced
    if follow:
        top = _strength(led, trump)
        return [c for c in follow if _strength(c, trump) > top] or follow
    return trumps or list(hand)
