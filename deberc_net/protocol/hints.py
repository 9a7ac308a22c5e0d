"""A hint for a mistyped table call (docs/protocol.md §8, `hint=`): the one legal call
one letter or two from what was typed (a letter left out, added, changed, or two
swapped), counting the letters that look alike in the Latin and Cyrillic alphabets
(`пaсс` typed with a Latin a) as one (a word that only mixes them is read as the
word it shows: vocabulary.unmixed). Only on the refusal's path, and bounded: a
few dozen legal calls, each with its few spellings, compared only when their lengths
are near."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.cards import ACE, TEN, card_str, make, suit_of

from . import events as ev
from .commands import COMMANDS, SPOKEN_COMMANDS
from .lang import ru_call, spoken_call
from .messages import Phrase
from .vocabulary import normalize, words_for

# Latin and Cyrillic letters that look the same (each folded to the Latin one): a
# keyboard layout switched in the middle of a word types these unseen
_LOOK_ALIKE = str.maketrans("авекмнорстух", "abekmhopctyx")
_LONGEST = 32  # a longer line is no slip of the keys: no hint looked for


def _fold(text: str) -> str:
    return normalize(text).translate(_LOOK_ALIKE)


def _allowed(word: str) -> int:
    """The letters a word of this length may be off by: 1 up to 5 letters, 2 beyond."""
    return 1 if len(word) <= 5 else 2


@functools.lru_cache(maxsize=1024)  # (the names and calls compared are few)
def _letters(word: str) -> frozenset[str]:
    return frozenset(word)


def _distance(a: str, b: str, limit: int) -> int:
    """The edit distance of ``a`` and ``b``, two letters swapped counting as one edit
    (optimal string alignment), or ``limit + 1`` once it is sure to be more than
    ``limit`` (a whole row beyond it: the rest is not worked out)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    # an edit changes at most two letters of those one word has and the other has not
    # (a swap none): words apart by more letters are more edits apart, without the
    # table of their distance (some 8 µs a pair: 'help WORD' and a mistyped command
    # compared a word with every command's name so, 0.4 ms a line: a hostile tryout)
    if len(_letters(a) ^ _letters(b)) > 2 * limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, letter in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            cost = 0 if letter == other else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and letter == b[j - 2] and a[i - 2] == other:
                best = min(best, before[j - 2] + 1)  # two letters swapped
            current.append(best)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)


@functools.lru_cache(maxsize=512)  # a pure function of the call: each worked out once
def _folded_spellings(call: Call) -> frozenset[str]:
    token = call.token()
    spellings = (token.replace("-", " "), spoken_call(token), ru_call(token), *words_for(call))
    return frozenset(_fold(spelling) for spelling in spellings)


def _spellings(call: Call, aliases: Mapping[str, str]) -> Iterable[str]:
    """``call``'s spellings, folded: the engine's and the table's plugins' words."""
    yield from _folded_spellings(call)
    yield from (_fold(word) for word, name in aliases.items() if name == call.token())


# words people type for a command by what it does, not how it is spelt (a club's
# tryout: 'score'): the command they mean; the Russian and Ukrainian ones run it
# (commands.SPOKEN_COMMANDS), and are named here when a Latin look-alike slipped in
_MEANT = {
    _fold(word): command
    for word, command in {"score": "sheet", "scores": "sheet", **SPOKEN_COMMANDS}.items()
}


# the command names as a Russian keyboard spells them by ear (a tryout, s44: 'фингер anna'
# got no hint): only these, a letter off at most in a word of five or more, none in a
# shorter one; the spellings that run their command are commands.SPOKEN_COMMANDS
_SPELT_IN_CYRILLIC = {
    _fold(word): command
    for command, words in {
        "finger": ("фингер", "фингэр"),
        "tables": ("тейблс", "тэйблс", "тейбл", "тэйбл"),
        "top": ("топ",),
        "new": ("нью",),
        "sit": ("сит",),
        "leave": ("лив",),
        "observe": ("обсерв", "обзерв"),
        "unobserve": ("анобсерв", "анобзерв"),
        "say": ("сей", "сэй"),
        "seek": ("сик",),
        "unseek": ("ансик",),
        "ignore": ("игнор",),
        "unignore": ("анигнор",),
        "rules": ("рулз", "рулс", "рулес"),
        "state": ("стейт", "стэйт"),
        "last": ("ласт",),
        "sheet": ("шит",),
        "rematch": ("рематч", "реметч"),
        "history": ("хистори",),
        "games": ("геймс", "гэймс", "геймз"),
        "password": ("пассворд", "пасворд"),
        "calls": ("коллс", "колс", "коллз"),
        "style": ("стайл",),
        "sort": ("сорт",),
        "clock": ("клок",),
        "lang": ("ланг", "лэнг"),
        "ping": ("пинг",),
        "bot": ("бот",),
        "invite": ("инвайт",),
        "login": ("логин",),
    }.items()
    for word in words
}


def _spelt_in_cyrillic(folded: str, names: tuple[str, ...]) -> str | None:
    """The one command of ``names`` whose Cyrillic spelling ``folded`` is, or is a
    letter from (in five letters or more), or None."""
    limit = 0 if len(folded) <= 4 else 1
    near: dict[str, int] = {}
    for spelling, command in _SPELT_IN_CYRILLIC.items():
        if command in names and (d := _distance(folded, spelling, limit)) <= limit:
            near[command] = min(d, near.get(command, d))
    return _only_nearest((d, command) for command, d in near.items())


def _only_nearest(near: Iterable[tuple[int, str]]) -> str | None:
    """The name of the nearest (distance, name), or None: none, or two as near."""
    ranked = sorted(near)
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


def command_hint(typed: str, names: Iterable[str]) -> str | None:
    """The one command name the first word of ``typed`` is close to (``tabels``:
    ``tables``), or means (``score``: ``sheet``), or spells in Cyrillic (``фингер``:
    ``finger``), or None: when none is, or two are as close."""
    words = typed.split()
    folded = _fold(words[0]) if words else ""
    if not folded or len(folded) > _LONGEST:
        return None
    names = tuple(names)
    meant = _MEANT.get(folded)
    if meant in names:
        return meant
    if not folded.isascii() and (spelt := _spelt_in_cyrillic(folded, names)) is not None:
        return spelt
    limit = _allowed(folded)
    return _only_nearest(
        (d, name) for name in names if (d := _distance(folded, name, limit)) <= limit
    )


def not_a_command(said: Phrase, typed: str, meant: str | None = None) -> ev.Error:
    """The refusal of a line that is no command where no table reads it as a call
    (``said``: why, where one stands): the command it is nearest named to people and in
    command_hint= (docs/protocol.md §8), as the lobby and a table not started say it.
    ``meant``: the whole line it means, where the caller knows (``new 2 харьков`` for a
    variant's name alone), told to people; its command is command_hint=."""
    command = command_hint(typed, COMMANDS) if meant is None else meant.split()[0]
    return ev.Error("unknown-command", said.text(), said=said, command=command, meant=meant)


def hint(typed: str, legal: Sequence[Call], aliases: Mapping[str, str]) -> Call | None:
    """The one legal call ``typed`` is close to, or None: when none is, or when two
    calls are as close (no guessing between them)."""
    folded = _fold(typed)
    if not folded or len(folded) > _LONGEST:
        return None
    limit = _allowed(folded)
    best: Call | None = None
    best_distance = limit + 1
    for call in legal:
        distance = min(_distance(folded, s, limit) for s in _spellings(call, aliases))
        if distance < best_distance:
            best, best_distance = call, distance
        elif distance == best_distance and distance <= limit and best != call:
            best = None  # a tie: two calls as near, neither is hinted
    return best


# the Cyrillic letter Т alone (the ace, as the Russian style writes it), not in a word
_CYRILLIC_T = re.compile(r"(?<![а-яёА-ЯЁ])[Тт](?![а-яёА-ЯЁ])")


def ten_meant(call: Call, typed: str, legal: Sequence[Call]) -> str | None:
    """The ten a Russian player meant by a Cyrillic 'Т♠' he does not hold, when the ten
    of that suit is his to play: its token, the refusal's hint («Может быть, «10♠»?»).
    The ace is Т in Russian lines; a player reading 'T' as the ten typed it (a tryout)."""
    card = call.card
    if call.name != C.PLAY or card is None or card & 7 != ACE or not _CYRILLIC_T.search(typed):
        return None
    ten = make(TEN, suit_of(card))
    return card_str(ten) if C.play(ten) in legal else None
