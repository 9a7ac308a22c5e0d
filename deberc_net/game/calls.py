"""Table calls as values, with their canonical text and record form.

The canonical text of a call is one token without spaces (``igrayu-h``, ``ot-K-kozyrnogo``,
``dva-tertsa``, ``10h``): it is what ``legal=`` lists and what a bot may send back. People's
spellings, Cyrillic and English aliases are the protocol layer's business.
"""

from __future__ import annotations

from typing import Any

import attrs

from .cards import RANKS, SUITS, Card, card_str, parse_card

PAS = "pas"
IGRAYU = "igrayu"
MENYAYU = "menyayu"
NE_MENYAYU = "ne-menyayu"  # swap-before-extra: no swap
SEVENS = "chetyre-semerki"
TERTS = "terts"
PYATDESYAT = "pyatdesyat"
ROST = "rost?"
OT = "ot"
PISHET = "pishet"
POKAZHI = "pokazhi"
POKAZYVAYU = "pokazyvayu"
SKIN = "skin"
PROKHODIT_Q = "prokhodit?"
PROKHODIT = "prokhodit"
NE_PROKHODIT = "ne-prokhodit"
BELLA = "bella"
PLAY = "play"
KONETS = "konets"

DECLARATIONS = (TERTS, PYATDESYAT)
COUNT_WORDS = {1: "", 2: "dva-", 3: "tri-"}
_TERTS_PLURAL = {1: "terts", 2: "tertsa", 3: "tertsa"}


@attrs.frozen
class Call:
    """One call. Only the fields its kind uses are set."""

    name: str
    card: Card | None = None
    suit: int | None = None
    rank: int | None = None
    trump: bool = False
    count: int = 1

    def token(self) -> str:
        if self.name == PLAY:
            assert self.card is not None
            return card_str(self.card)
        if self.name == IGRAYU and self.suit is not None:
            return f"igrayu-{SUITS[self.suit]}"
        if self.name == OT:
            assert self.rank is not None
            return f"ot-{RANKS[self.rank]}" + ("-kozyrnogo" if self.trump else "")
        if self.name == TERTS:
            return COUNT_WORDS[self.count] + _TERTS_PLURAL[self.count]
        if self.name == PYATDESYAT:
            return COUNT_WORDS[self.count] + PYATDESYAT
        return self.name

    def record(self) -> dict[str, Any]:
        """The call's fields in a deal record (seat, ms and auto are added by the deal)."""
        out: dict[str, Any] = {"call": self.name}
        if self.card is not None:
            out["card"] = card_str(self.card)
        if self.suit is not None:
            out["suit"] = SUITS[self.suit]
        if self.rank is not None:
            out["rank"] = RANKS[self.rank]
            out["trump"] = self.trump
        if self.name in DECLARATIONS:
            out["count"] = self.count
        return out


# calls are immutable: one per card serves every deal
PLAY_CALLS: tuple[Call, ...] = tuple(Call(PLAY, card=card) for card in range(32))


def play(card: Card) -> Call:
    return PLAY_CALLS[card]


def from_record(entry: dict[str, Any]) -> Call:
    name = entry["call"]
    return Call(
        name,
        card=parse_card(entry["card"]) if "card" in entry else None,
        suit=SUITS.index(entry["suit"]) if "suit" in entry else None,
        rank=RANKS.index(entry["rank"]) if "rank" in entry else None,
        trump=bool(entry.get("trump", False)),
        count=int(entry.get("count", 1)),
    )


_SIMPLE = {
    PAS,
    IGRAYU,
    MENYAYU,
    NE_MENYAYU,
    SEVENS,
    ROST,
    PISHET,
    POKAZHI,
    POKAZYVAYU,
    SKIN,
    PROKHODIT_Q,
    PROKHODIT,
    NE_PROKHODIT,
    BELLA,
    KONETS,
}
_COUNTS = {"": 1, "dva-": 2, "tri-": 3}


def parse_token(token: str) -> Call:
    """Parse a canonical token (spaces are read as hyphens). Raises ValueError."""
    t = "-".join(token.strip().lower().split())
    if t in _SIMPLE:
        return Call(t)
    if t.startswith("igrayu-"):
        return Call(IGRAYU, suit=SUITS.index(_one_of(t[7:], SUITS, token)))
    if t.startswith("ot-"):
        parts = t[3:].split("-")
        rank = parts[0].upper()
        if rank == "T":
            rank = "10"
        if rank not in RANKS or parts[1:] not in ([], ["kozyrnogo"]):
            raise ValueError(f"not a call: {token!r}")
        return Call(OT, rank=RANKS.index(rank), trump=parts[1:] == ["kozyrnogo"])
    for prefix, count in _COUNTS.items():
        if t == prefix + _TERTS_PLURAL[count] and (count > 1 or prefix == ""):
            return Call(TERTS, count=count)
        if t == prefix + PYATDESYAT:
            return Call(PYATDESYAT, count=count)
    return play(parse_card(t))


def _one_of(text: str, choices: str, token: str) -> str:
    if len(text) == 1 and text in choices:
        return text
    raise ValueError(f"not a call: {token!r}")
