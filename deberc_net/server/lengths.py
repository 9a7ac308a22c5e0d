"""A mute's or an address ban's length as an admin types it where MINUTES goes
(docs/protocol.md §5.19): a plain number of minutes (``mute ann 30``), or a length
with its unit as people write it, one word or two (``5m``, ``2h``, ``1h30m``, ``5 min``,
``1 h 30 m``, ``10мин``, ``2 часа``), read as the minutes it is. A unit has one meaning
here (``m`` the minute: a mute lasts a week at most, an address's ban a year), and the
reply says the minutes taken. A name's ban has no length: ``looks_like_a_length`` is
its refusal's test."""

from __future__ import annotations

import re
from fractions import Fraction

import attrs

from deberc_net.protocol.commands import number_word

_MINUTE, _HOUR, _DAY = 60, 3600, 86400
_UNIT_SECONDS = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds", "с", "сек"), 1),
    **dict.fromkeys(
        ("m", "min", "mins", "minute", "minutes", "м", "мин", "минута", "минуты", "минут"),
        _MINUTE,
    ),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "ч", "час", "часа", "часов"), _HOUR),
    **dict.fromkeys(
        ("d", "day", "days", "д", "дн", "день", "дня", "дней", "сут", "сутки", "суток"), _DAY
    ),
    **dict.fromkeys(
        ("w", "wk", "wks", "week", "weeks", "нед", "неделя", "недели", "недель"), 7 * _DAY
    ),
}
# the longest first: 'сут' is a day, not 'с' (a second) and 'ут'
_UNITS = "|".join(sorted(_UNIT_SECONDS, key=len, reverse=True))
# ASCII digits, as every number a command takes (a line's 1024 bytes keep them far
# below the 4300 digits int() and Fraction() refuse)
_NUMBER = r"[0-9]+(?:[.,][0-9]+)?"
_PIECE = re.compile(rf"({_NUMBER})({_UNITS})", re.IGNORECASE)
_LENGTH = re.compile(rf"(?:{_NUMBER}(?:{_UNITS}))+", re.IGNORECASE)
_UNIT = re.compile(rf"(?:{_UNITS})", re.IGNORECASE)
_NUMBER_ALONE = re.compile(_NUMBER)
# a word meant as MINUTES though no whole number in ASCII digits ('-1', '1e3', '2.5',
# '١٢'): refused as MINUTES, not taken as the reason of a mute of the default hour
_MINUTES_LIKE = re.compile(r"[-+]?\d[\d.,eE]*")
# a unit's word that is a preposition too: Russian 'с', 'with' ('mute ann 10 с матом': ten
# minutes, the reason 'с матом'), a unit only as the line's last word ('mute ann 10 с')
_PREPOSITIONS = frozenset({"с"})


@attrs.frozen
class Told:
    """The length at the head of a REASON: its words as typed, the minutes they are
    (0 for a word like a number that is no whole one in digits, '-1', '2.5': out of any
    range; None for a length with a unit that is no whole number of minutes, '90s'),
    and the reason after it."""

    word: str
    minutes: int | None
    rest: str


def length_told(reason: str) -> Told | None:
    """The length ``reason`` (the words after NAME or ADDRESS) begins with, or None
    when it begins with none (all of it is the reason: '2nd warning')."""
    words = reason.split()
    if not words:
        return None
    first = words[0]
    plain = number_word(first)
    if plain is not None and not (len(words) > 1 and _unit_after(words, 1)):
        return Told(first, plain, " ".join(words[1:]))
    seconds, used = Fraction(0), 0
    while used < len(words):  # '1h30m', '5 min', '1h 30m', '1 h 30 m'
        word = words[used]
        if _LENGTH.fullmatch(word):
            seconds += sum(_seconds(n, unit) for n, unit in _PIECE.findall(word))
            used += 1
        elif _NUMBER_ALONE.fullmatch(word) and used + 1 < len(words):
            unit = words[used + 1]
            if not _unit_after(words, used + 1):
                break
            seconds += _seconds(word, unit)
            used += 2
        else:
            break
    if used:
        minutes = seconds / _MINUTE
        whole = int(minutes) if minutes.denominator == 1 else None
        return Told(" ".join(words[:used]), whole, " ".join(words[used:]))
    if _MINUTES_LIKE.fullmatch(first):
        return Told(first, 0, " ".join(words[1:]))
    return None


def looks_like_a_length(reason: str) -> str | None:
    """The words a name's ban (which has no length) would take as one at the head of
    ``reason``: any length, a plain number too ('ban ann 30 spam'); None if none."""
    told = length_told(reason)
    return None if told is None else told.word


def _unit_after(words: list[str], at: int) -> bool:
    """Whether ``words[at]``, after a number, is its unit: 'с' only as the last word."""
    word = words[at]
    if word.casefold() in _PREPOSITIONS and at + 1 < len(words):
        return False
    return _UNIT.fullmatch(word) is not None


def _seconds(number: str, unit: str) -> Fraction:
    return Fraction(number.replace(",", ".")) * _UNIT_SECONDS[unit.lower()]
