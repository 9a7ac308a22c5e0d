"""Card play: which cards a seat may play, and who takes a trick.

The hot path of every deal, so it works on plain ints and the strength tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import errors as E
from .cards import PLAIN_STRENGTH, TRUMP_STRENGTH, Card, card_str


def _highest_trump(trick: Sequence[tuple[int, Card]], trump: int) -> int:
    top = -1  # a loop, not max() over a generator: a trick holds a few cards
    for _, card in trick:
        if card >> 3 == trump and TRUMP_STRENGTH[card & 7] > top:
            top = TRUMP_STRENGTH[card & 7]
    return top


def legal_cards(
    hand: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    trump: int | None,
    partner_winning: bool = False,
) -> list[Card]:
    """Follow suit; void: trump; no trump: anything. Beat the highest trump if able.

    ``partner_winning`` (option partner-exemption): the partner holds the trick, so the
    seat must still follow suit but need neither trump nor overtrump.
    """
    if not trick:
        return list(hand)
    led = trick[0][1] >> 3
    follow = [c for c in hand if c >> 3 == led]
    if follow and (led != trump or partner_winning):
        return follow
    if partner_winning:
        return list(hand)
    trumps = follow if follow else [c for c in hand if c >> 3 == trump]
    if not trumps:
        return list(hand)
    top = _highest_trump(trick, trump)  # type: ignore[arg-type]
    over = [c for c in trumps if TRUMP_STRENGTH[c & 7] > top]
    return over or trumps


def trick_winner(trick: Sequence[tuple[int, Card]], trump: int) -> int:
    led = trick[0][1] >> 3
    best_seat, best_key = trick[0][0], -1
    for seat, card in trick:
        suit = card >> 3
        if suit == trump:
            key = 100 + TRUMP_STRENGTH[card & 7]
        elif suit == led:
            key = PLAIN_STRENGTH[card & 7]
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def illegal_card_error(
    hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: int | None, card: Card
) -> E.IllegalCall:
    """Say which rule of play ``card`` breaks (it is assumed not to be legal)."""
    text = card_str(card)
    if card not in hand:
        return E.NotInHand(f"{text} is not in your hand")
    led = trick[0][1] >> 3 if trick else None
    if led is not None and card >> 3 != led and any(c >> 3 == led for c in hand):
        return E.MustFollowSuit(f"you hold {'shdc'[led]}: follow suit")
    if led is not None and card >> 3 != trump and any(c >> 3 == trump for c in hand):
        return E.MustTrump("you have no card of the led suit: play a trump")
    if card >> 3 == trump:
        return E.MustOvertrump("you hold a higher trump: beat the highest trump on the table")
    return E.NotAllowed(f"you may not play {text} now")
