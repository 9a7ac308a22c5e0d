"""Sequence combinations (terts, fifty) and bella, found in a hand.

A hand's runs are read per suit in the sequence order (natural 7..A by default; play
strength with option ``sequence-by-strength``). Each maximal run is cut into scoring
combinations: 3 cards make a terts, 4 to 7 a fifty ("higher than fifty there is
nothing"), 8 two fifties (seed 003). Runs never share cards, so no two combinations do.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

import attrs

from .cards import KING, PLAIN_STRENGTH, QUEEN, TRUMP_STRENGTH, Card, card_str, make

TERTS = 3
FIFTY = 4
CATEGORY_POINTS = {TERTS: 20, FIFTY: 50}
BELLA_POINTS = 20
CATEGORY_NAMES = {TERTS: "terts", FIFTY: "pyatdesyat"}

NATURAL_ORDER = tuple(range(8))


@attrs.frozen
class Combo:
    """One scoring sequence: its category (3 or 4), suit, cards and top card."""

    category: int
    suit: int
    cards: tuple[Card, ...]
    top: Card  # the highest card in sequence order

    @property
    def points(self) -> int:
        return CATEGORY_POINTS[self.category]

    def describe(self) -> str:
        return f"{CATEGORY_NAMES[self.category]} to {card_str(self.top)}"


def rank_order(by_strength: bool, suit: int, trump: int | None) -> tuple[int, ...]:
    """Ranks of a suit listed low to high in the order sequences are read."""
    if not by_strength:
        return NATURAL_ORDER
    strength = TRUMP_STRENGTH if suit == trump else PLAIN_STRENGTH
    return tuple(sorted(range(8), key=lambda r: strength[r]))


def _runs(mask: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs of 3 or more set bits in an 8-bit mask: (first bit, length)."""
    runs: list[tuple[int, int]] = []
    bit = 0
    while bit < 8:
        length = 0
        while bit + length < 8 and mask >> (bit + length) & 1:
            length += 1
        if length >= 3:
            runs.append((bit, length))
        bit += length + 1
    return tuple(runs)


# The runs in every set of ranks of one suit (bit i: the i-th rank in sequence order):
# a hand's sequences are then a few table look-ups, the hot path of the table talk.
_RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs(mask) for mask in range(256))
# a card's bit, looked up by a dict's own __getitem__ (a tuple's is a slot wrapper,
# which map calls the generic way, several times dearer)
_card_bit: Callable[[Card], int] = {card: 1 << card for card in range(32)}.__getitem__
# the cards a run of three may start at in natural order (ranks 7 to Q of each suit)
_RUN_STARTS = 0x3F3F3F3F


def find_sequences(
    hand: Iterable[Card], trump: int | None, by_strength: bool = False
) -> list[Combo]:
    """Every scoring sequence in ``hand``, best-first is not implied (see ``best``)."""
    # bit c: card c is held (suit by suit, 8 bits each, ranks in natural order); the
    # bits summed in C, not or-ed in a loop (a hand holds each card once)
    held = sum(map(_card_bit, hand))
    if not by_strength and not held & held >> 1 & held >> 2 & _RUN_STARTS:
        return []  # no three in a row in any suit: most hands
    found: list[Combo] = []
    for suit in range(4):
        mask = held >> (suit << 3) & 0xFF
        if not by_strength:
            order = NATURAL_ORDER
        else:
            order = rank_order(by_strength, suit, trump)
            mask = sum(1 << i for i, rank in enumerate(order) if mask >> rank & 1)
        for first, length in _RUNS[mask]:
            run = [make(order[i], suit) for i in range(first, first + length)]
            found.extend(_cut_run(run, suit))
    return found


def _cut_run(run: list[Card], suit: int) -> list[Combo]:
    n = len(run)
    if n < 3:
        return []
    if n == 3:
        return [Combo(TERTS, suit, tuple(run), run[-1])]
    if n < 8:
        return [Combo(FIFTY, suit, tuple(run), run[-1])]
    return [
        Combo(FIFTY, suit, tuple(run[:4]), run[3]),
        Combo(FIFTY, suit, tuple(run[4:]), run[-1]),
    ]


def top_position(combo: Combo, trump: int | None, by_strength: bool) -> int:
    order = rank_order(by_strength, combo.suit, trump)
    return order.index(combo.top & 7)


def best(combos: Iterable[Combo], key: Callable[[Combo], tuple[int, ...]]) -> Combo | None:
    best_combo: Combo | None = None
    for combo in combos:
        if best_combo is None or key(combo) > key(best_combo):
            best_combo = combo
    return best_combo


def holds_bella(hand: Collection[Card], trump: int | None) -> bool:
    if trump is None:
        return False
    king, queen = _BELLA_CARDS[trump]
    return king in hand and queen in hand  # a hand: a few cards


def bella_cards(trump: int) -> tuple[Card, Card]:
    return _BELLA_CARDS[trump]


# the king and queen of each suit (looked up: asked for each seat every deal)
_BELLA_CARDS = tuple((make(KING, suit), make(QUEEN, suit)) for suit in range(4))
