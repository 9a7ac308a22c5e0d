"""Cards as players read them: ranks in their order, suits by symbol."""

from __future__ import annotations

from deberc_net.game.cards import RANKS, SUITS
from deberc_net.game.cards import SUIT_SYMBOLS as SYMBOL

__all__ = ["RANKS", "SUITS", "SYMBOL", "card", "cards", "suit"]


def card(token: str | None) -> str:
    """``10h`` as ``10♥``; anything that is no card stays as it is (``-`` for none)."""
    if not token:
        return "-"
    rank, suit = token[:-1], token[-1:]
    if rank in RANKS and suit in SYMBOL:
        return rank + SYMBOL[suit]
    return token


def cards(tokens: list[str] | tuple[str, ...]) -> str:
    return " ".join(card(t) for t in tokens)


def suit(token: str | None) -> str:
    return SYMBOL.get(token or "", "-")
