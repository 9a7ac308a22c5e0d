"""Cards as players read them: ranks in their order, suits by symbol."""

from __future__ import annotations

from deberc_net.game.cards import RANKS, SUITS
from deberc_net.game.cards import SUIT_SYMBOLS as SYMBOL
from deberc_net.protocol.lang import RU_RANKS, Lang

__all__ = ["RANKS", "SUITS", "SYMBOL", "card", "cards", "in_hand_order", "rank", "suit"]


def rank(token: str, lang: Lang = Lang.EN) -> str:
    """A rank as the reader writes it: ``J``, in Russian ``В`` (lang.RU_RANKS)."""
    return RU_RANKS[RANKS.index(token)] if lang == Lang.RU and token in RANKS else token


def card(token: str | None, lang: Lang = Lang.EN) -> str:
    """``10h`` as ``10♥`` (in Russian ``Jh`` as ``В♥``); anything that is no card stays
    as it is (``-`` for none)."""
    if not token:
        return "-"
    rank_, suit = token[:-1], token[-1:]
    if rank_ in RANKS and suit in SYMBOL:
        return rank(rank_, lang) + SYMBOL[suit]
    return token


def cards(tokens: list[str] | tuple[str, ...], lang: Lang = Lang.EN) -> str:
    return " ".join(card(t, lang) for t in tokens)


def in_hand_order(tokens: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Cards as the hand lists them: by suit ♠ ♥ ♦ ♣, each in rank order 7 … A."""
    known = [t for t in tokens if t[:-1] in RANKS and t[-1:] in SUITS]
    return tuple(sorted(known, key=lambda t: (SUITS.index(t[-1:]), RANKS.index(t[:-1]))))


def suit(token: str | None) -> str:
    return SYMBOL.get(token or "", "-")
