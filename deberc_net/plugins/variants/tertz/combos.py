"""Tertz's combinations (docs/rules.md, Tertz §5): runs of 3 to 8 in a suit and four
jacks, aces, kings or queens, each with its own seniority class (``category``).

A run is one combination whatever its length (5 to 8 are each "one hundred"); a card may
be in a run and in a four of a kind both (seed 004: "It is permissible when one card
from a sequential combination is included in the combination at its value").
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from deberc_net.game.cards import ACE, JACK, KING, QUEEN, RANKS, Card, card_str, make
from deberc_net.game.combos import Combo, rank_order

TERTS, FIFTY = 3, 4  # runs of 3 and 4; runs of 5..8 are categories 5..8
FOUR = {QUEEN: 9, KING: 10, ACE: 11, JACK: 12}  # four of a kind, by seniority
POINTS = {3: 20, 4: 50, **dict.fromkeys(range(5, 12), 100), 12: 200}
# the call that declares each category (terts and pyatdesyat are the engine's own)
CALLS = {
    5: "sto-pyat",
    6: "sto-shest",
    7: "sto-sem",
    8: "sto-vosem",
    9: "sto-dam",
    10: "sto-korolei",
    11: "sto-tuzov",
    12: "dvesti",
}
WORDS = {  # what people say (seed 004: "one hundred ladies", "two hundred jacks"),
    # then the Ukrainian (docs/protocol.md §8.2, *uk*; «сто дам» is both languages')
    "sto-pyat": ("сто пять", "hundred five", "сто п'ять"),
    "sto-shest": ("сто шесть", "hundred six", "сто шість"),
    "sto-sem": ("сто семь", "hundred seven", "сто сім"),
    "sto-vosem": ("сто восемь", "hundred eight", "сто вісім"),
    "sto-dam": ("сто дам", "hundred queens", "hundred ladies"),
    "sto-korolei": ("сто королей", "hundred kings", "сто королів"),
    "sto-tuzov": ("сто тузов", "hundred aces", "сто тузів"),
    "dvesti": (
        "двести",
        "двести вальтов",
        "two hundred",
        "two hundred jacks",
        "200",
        "двісті",
        "двісті валетів",
    ),
    # not a call: it heads the hundreds' calls, so said alone it is the one of them
    # legal now (vocabulary.parse_call; one at most: a seat declares his highest class)
    "sto": ("сто", "hundred", "100"),
}


@attrs.frozen
class TertzCombo(Combo):
    """A Tertz combination; a four of a kind has ``suit`` -1 (no suit, never trump)."""

    @property
    def points(self) -> int:
        return POINTS[self.category]

    def describe(self) -> str:
        if self.suit < 0:
            return f"four {RANKS[self.top & 7]}"
        return f"run of {len(self.cards)} to {card_str(self.top)}"


def find_combos(hand: Iterable[Card], trump: int | None, by_strength: bool) -> list[Combo]:
    held = set(hand)
    found: list[Combo] = []
    for suit in range(4):
        run: list[Card] = []
        for rank in (*rank_order(by_strength, suit, trump), None):
            card = None if rank is None else make(rank, suit)
            if card is not None and card in held:
                run.append(card)
                continue
            if len(run) >= 3:
                found.append(TertzCombo(len(run), suit, tuple(run), run[-1]))
            run = []
    for rank, category in FOUR.items():
        four = tuple(make(rank, s) for s in range(4))
        if held.issuperset(four):
            found.append(TertzCombo(category, -1, four, four[-1]))
    return found


def is_new(combo: Combo, declared: list[Combo]) -> bool:
    """May ``combo`` still be declared? A card is declared once in each kind (runs, fours
    of a kind); a run sharing a card with a declared run is new only if it is longer
    (it replaces it: docs/rules.md §12.5)."""
    cards = set(combo.cards)
    for old in declared:
        same_kind = (old.suit < 0) == (combo.suit < 0)
        if same_kind and cards & set(old.cards) and len(combo.cards) <= len(old.cards):
            return False
    return True
