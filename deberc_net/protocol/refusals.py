"""An engine refusal's detail (whose turn, which suit, which card) as a catalogue phrase,
so a person is told it in his language ('lang ru', docs/protocol.md §4.3c).

The engine (game/) raises a refusal with a code and an English sentence only; the detail
is read back from that sentence, whose forms are fixed here and in the tests. A sentence
of another form gets no phrase: it is then said by its code (messages.RU_ERRORS).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deberc_net.game.cards import SUIT_SYMBOLS

from .messages import Msg, Phrase, phrase

_TURN = re.compile(r"it is seat (\d+)'s turn( to bid)?")
_FOLLOW = re.compile(r"you hold ([shdc]): follow suit")
_NOT_IN_HAND = re.compile(r"(10|[789JQKA])([shdc]) is not in your hand")


def refusal_phrase(message: str, names: Sequence[str]) -> Phrase | None:
    """The phrase for an engine refusal's ``message`` (seats named by ``names``), or
    None when its form carries no detail known here."""
    if m := _TURN.fullmatch(message):
        seat = int(m.group(1))
        if seat >= len(names):
            return None
        key = Msg.NOT_YOUR_TURN_TO_BID if m.group(2) else Msg.NOT_YOUR_TURN
        return phrase(key, name=names[seat])
    if m := _FOLLOW.fullmatch(message):
        return phrase(Msg.MUST_FOLLOW_SUIT, suit=SUIT_SYMBOLS[m.group(1)])
    if m := _NOT_IN_HAND.fullmatch(message):
        # 'J♠': the Russian renderer writes it 'В♠', as every card of its lines
        return phrase(Msg.NOT_IN_HAND, card=m.group(1) + SUIT_SYMBOLS[m.group(2)])
    return None
