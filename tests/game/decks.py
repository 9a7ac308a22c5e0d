"""Scripted decks for two-, three- and four-player deals, and helpers the scripted tests share.

Dealing with dealer ``d`` and the other seat ``o`` (RULES.md 2, docs/rules.md 2):
deck[0:3] -> o, [3:6] -> d, [6:9] -> o, [9:12] -> d, deck[12] is the turned card; after
the order [13:16] -> o, [16:19] -> d; the rest is the talon and deck[31] the fresa.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import pytest

from deberc_net.game.calls import Call, parse_token
from deberc_net.game.cards import DECK, Card, parse_card
from deberc_net.game.deal import Deal
from deberc_net.game.errors import IllegalCall


def cards(text: str) -> list[Card]:
    """``"Js Qs 10h"`` -> cards (spaces or commas between)."""
    return [parse_card(t) for t in text.replace(",", " ").split()]


def build_deck(
    other: str | Iterable[str],
    dealer: str | Iterable[str],
    turned: str,
    fresa: str | None = None,
) -> tuple[Card, ...]:
    """A 32-card deck giving ``other`` (the dealer's opponent, who leads) and ``dealer``
    these 9-card hands: the first 6 cards of each are dealt before the order, the last 3
    after it. The talon is filled with the remaining cards in deck order (7s first), the
    fresa (bottom card) last."""
    o = _hand(other)
    d = _hand(dealer)
    top = [parse_card(turned)]
    bottom = [parse_card(fresa)] if fresa is not None else []
    used = o + d + top + bottom
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    rest = [c for c in DECK if c not in used]
    deck = o[0:3] + d[0:3] + o[3:6] + d[3:6] + top + o[6:9] + d[6:9] + rest + bottom
    assert sorted(deck) == list(DECK)
    return tuple(deck)


def _hand(spec: str | Iterable[str], size: int = 9) -> list[Card]:
    hand = cards(spec) if isinstance(spec, str) else [parse_card(t) for t in spec]
    if len(hand) != size:
        raise ValueError(f"a hand holds {size} cards, got {len(hand)}")
    return hand


def build_deck_n(
    hands: Sequence[str | Iterable[str]],
    dealer: int,
    turned: str,
    fresa: str | None = None,
) -> tuple[Card, ...]:
    """A 32-card deck for 3 or 4 players giving seat ``i`` the hand ``hands[i]``.

    Dealing (RULES.md 2): from the seat left of the dealer, ``(dealer + 1) % n``, 3 cards
    each, then 3 each again, the dealer last; the next card is turned. After the order:
    3 players, 3 each; 4 players, 2 each except the dealer, who gets the turned card and
    1 more. Then the talon (the remaining cards in deck order), the fresa its last card.

    Each hand is listed in dealing order: its first 6 cards come before the order, the
    rest after it. With 4 players the dealer's 8 cards include ``turned`` (anywhere);
    the other 7 are dealt in the order listed.
    """
    n = len(hands)
    if n not in (3, 4):
        raise ValueError(f"3 or 4 hands, got {n}")
    top = parse_card(turned)
    size = 9 if n == 3 else 8
    held = [_hand(spec, size) for spec in hands]
    if n == 4:
        if top not in held[dealer]:
            raise ValueError("with 4 players the dealer's hand holds the turned card")
        held[dealer].remove(top)
    bottom = [parse_card(fresa)] if fresa is not None else []
    if n == 4 and bottom:
        raise ValueError("4 players: no talon, no fresa")
    used = [c for hand in held for c in hand] + [top] + bottom
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    order = [(dealer + i) % n for i in range(1, n + 1)]  # the dealer last
    deck: list[Card] = []
    for low in (0, 3):
        for seat in order:
            deck += held[seat][low : low + 3]
    deck.append(top)
    for seat in order:
        deck += held[seat][6:]
    deck += [c for c in DECK if c not in used] + bottom
    assert sorted(deck) == list(DECK)
    return tuple(deck)


# Calls the rule plugins add (short games, poltinniki): the engine's parse_token reads only
# its own vocabulary, so these are built by name.
PLUGIN_CALLS = frozenset({"dave", "prinimayu", "sdayus", "predlagayu", "igraem"})


def parse(text: str) -> Call:
    return Call(text) if text in PLUGIN_CALLS else parse_token(text)


def tokens(calls: Iterable[Any]) -> list[str]:
    return [c.token() for c in calls]


def legal(deal: Deal, seat: int) -> list[str]:
    return tokens(deal.legal_calls(seat))


def say(deal: Any, seat: int, *texts: str) -> None:
    """Apply each call text for ``seat`` (a Deal or a Match)."""
    for text in texts:
        deal.apply(seat, parse(text))


def play(deal: Any, text: str) -> None:
    """Play the cards in ``text`` in order, each by the seat whose turn it is."""
    for token in text.split():
        d = deal if isinstance(deal, Deal) else deal.deal
        seat = d.to_act
        assert seat is not None, f"nobody is to act for {token}"
        deal.apply(seat, parse(token))


def snapshot(deal: Deal) -> dict[str, Any]:
    """Everything observable about a deal: its fields, record and every seat's calls."""
    # the rules are shared, the legal-call cache is a memo of the state, not state
    fields = attrs.asdict(deal, filter=lambda a, _v: a.name not in ("rules", "_legal_cache"))
    return {
        "fields": fields,
        "record": deal.record(),
        "legal": [legal(deal, s) for s in range(deal.players)],
    }


def refused(deal: Deal, seat: int, text: str, error: type[IllegalCall], code: str) -> IllegalCall:
    """Apply ``text`` for ``seat``: it must raise exactly ``error`` with ``code`` and leave
    the deal exactly as it was (fields, record, every seat's legal calls)."""
    before = snapshot(deal)
    with pytest.raises(IllegalCall) as info:
        deal.apply(seat, parse(text))
    assert type(info.value) is error, info.value
    assert info.value.code == code
    assert snapshot(deal) == before
    return info.value


# Deals several test modules share (dealer = seat 1, seat 0 leads; trump clubs).
# SIMPLE: no combinations. Seat 0 ordering and playing SIMPLE_PLAY makes 92 to 35.
SIMPLE = ("Jc 9c Ac 10s As Ks 7h 8h 7d", "10c Kc Qs Js 9s Ah 10h Kh Qd", "8c")
SIMPLE_PLAY = "Jc Kc 9c 10c Ac Qd As Js 10s Qs Ks 9s 7h Ah 10h 8h Kh 7d"
# EVEN: no combinations, no trump in play; EVEN_PLAY makes exactly 35 to 35.
EVEN = ("As 10s Ks Js 8s 7h 9h 7d 9d", "Ah 10h Kh Jh 7s 9s Qs 8d Qd", "8c")
EVEN_PLAY = "As 7s 10s 9s Ks Qs Js Qd 8s Jh 7h Ah 10h 9h Kh 9d 8d 7d"
