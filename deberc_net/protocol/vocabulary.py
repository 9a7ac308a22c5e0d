"""The table calls as people say them: Latin transliteration, Cyrillic and English.

``parse_call(text, legal)`` turns what was typed into one of the engine's ``Call``
values. ``legal`` (the calls the seat may make now) settles the words that mean
different things at different moments (``prokhodit`` concedes a ``rost?`` or answers a
``prokhodit?``) and fills in what a person leaves out (the count of a declaration,
``kozyrnogo`` in an answer). ``aliases`` are the words the table's own rule plugins
give their calls (``RuleSet.call_aliases``, from the hook ``deberc_call_aliases``): a
plugin's call is heard in Cyrillic or English only at a table that uses it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from deberc_net.game import calls as C
from deberc_net.game.calls import Call
from deberc_net.game.cards import make

_RANK_WORDS = {
    "7": 0,
    "8": 1,
    "9": 2,
    "10": 3,
    "t": 3,
    "j": 4,
    "q": 5,
    "k": 6,
    "a": 7,
    "в": 4,
    "д": 5,
    "к": 6,
    "т": 7,
}
_SUIT_WORDS = {
    "s": 0,
    "h": 1,
    "d": 2,
    "c": 3,
    "♠": 0,
    "♥": 1,
    "♦": 2,
    "♣": 3,
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
    "п": 0,
    "ч": 1,
    "б": 2,
    "к": 3,
    "т": 3,
    "spades": 0,
    "hearts": 1,
    "diamonds": 2,
    "clubs": 3,
    "piki": 0,
    "chervi": 1,
    "bubny": 2,
    "kresti": 3,
    "trefy": 3,
    "пики": 0,
    "черви": 1,
    "бубны": 2,
    "крести": 3,
    "трефы": 3,
}
# "ot korolya": the top card's rank in the genitive, as spoken.
_RANK_GENITIVE = {
    "semerki": 0,
    "vosmerki": 1,
    "devyatki": 2,
    "desyatki": 3,
    "valeta": 4,
    "valta": 4,
    "damy": 5,
    "korolya": 6,
    "tuza": 7,
    "семерки": 0,
    "восьмерки": 1,
    "девятки": 2,
    "десятки": 3,
    "валета": 4,
    "вальта": 4,  # the correct genitive; "валета" is common speech, heard as well
    "дамы": 5,
    "короля": 6,
    "туза": 7,
    "seven": 0,
    "eight": 1,
    "nine": 2,
    "ten": 3,
    "jack": 4,
    "queen": 5,
    "king": 6,
    "ace": 7,
}
_TRUMP_WORDS = {"kozyrnogo", "козырного", "trump", "kozyr", "козырь"}

_SIMPLE = {
    C.PAS: {"pas", "пас", "pass"},
    C.MENYAYU: {"menyayu", "menyaju", "меняю", "swap"},
    C.NE_MENYAYU: {"ne menyayu", "ne menyaju", "не меняю", "keep"},
    C.SEVENS: {"chetyre semerki", "четыре семерки", "sevens", "four sevens"},
    C.ROST: {"rost?", "rost", "рост?", "рост", "height?", "height"},
    C.PISHET: {"pishet", "пишет", "goditsya", "годится", "good", "concede"},
    C.POKAZHI: {"pokazhi", "покажи", "show"},
    C.POKAZYVAYU: {"pokazyvayu", "показываю", "showing", "here"},
    C.SKIN: {"skin", "skin'", "скинь", "skin ubeysya", "скинь убейся", "play first"},
    C.PROKHODIT_Q: {"prokhodit?", "проходит?", "passes?", "does my trump pass?"},
    C.NE_PROKHODIT: {"ne prokhodit", "не проходит", "does not pass", "no"},
    C.BELLA: {"bella", "белла", "belote"},
    C.KONETS: {"konets", "конец", "claim", "301", "501", "1001"},
}
_PROKHODIT = {"prokhodit", "проходит", "passes", "yes"}
_IGRAYU = {"igrayu", "igraju", "играю", "play"}
_TERTS = {"terts", "терц", "tierce", "tertsa", "терца", "tierces"}
_FIFTY = {
    "pyatdesyat",
    "poltinnik",
    "berts",
    "kopa",
    "50",
    "пятьдесят",
    "полтинник",
    "берц",
    "копа",
    "fifty",
    "fifties",
    "poltinnika",
}
_COUNT = {"dva": 2, "два": 2, "two": 2, "tri": 3, "три": 3, "three": 3}
_PLAY_PREFIX = {"hod", "ход", "card"}

_WORDS = {word: name for name, words in _SIMPLE.items() for word in words}


class CallSyntaxError(ValueError):
    """What was typed is not a table call."""


def normalize(text: str) -> str:
    t = text.strip().lower().replace("ё", "е").replace("-", " ").replace("’", "'")
    return " ".join(t.split())


def parse_card_text(text: str) -> int:
    """A card as people type it: ``10h``, ``Th``, ``10♥``, ``Кп`` (king of spades)."""
    t = text.strip().lower()
    m = re.fullmatch(r"(10|[2-9]|[tjqkaвдкт])\s*(\S+)", t)
    if m is None or m.group(1) not in _RANK_WORDS or m.group(2) not in _SUIT_WORDS:
        raise CallSyntaxError(f"not a card: {text!r} (try 10h, Js, Q♠)")
    return make(_RANK_WORDS[m.group(1)], _SUIT_WORDS[m.group(2)])


def parse_call(
    text: str, legal: Sequence[Call] = (), aliases: Mapping[str, str] | None = None
) -> Call:
    """Read a table call; raise CallSyntaxError when it is none. ``aliases`` maps the
    words of the table's plugins to their calls; the engine's own words come first."""
    t = normalize(text)
    if not t:
        raise CallSyntaxError("empty call")
    token = t.replace(" ", "-")
    for call in legal:  # a legal call's own token always works, a plugin's included
        if call.token().lower() == token:
            return call
    if t in _WORDS:
        return Call(_WORDS[t])
    for word, name in (aliases or {}).items():
        if normalize(word) == t:
            return Call(name)
    if t in _PROKHODIT:
        names = {c.name for c in legal}
        return Call(C.PROKHODIT if C.PROKHODIT in names or C.PISHET not in names else C.PISHET)
    words = t.split()
    if words[0] in _IGRAYU:
        return _igrayu(words[1:], text)
    if words[0] in ("ot", "от", "from"):
        return _ot(words[1:], text, legal)
    declared = _declaration(words, legal)
    if declared is not None:
        return declared
    if words[0] in _PLAY_PREFIX and len(words) in (2, 3):
        return C.play(parse_card_text("".join(words[1:])))
    if len(words) <= 2:
        try:
            return C.play(parse_card_text("".join(words)))
        except CallSyntaxError:
            pass
    raise CallSyntaxError(f"not a table call: {text.strip()!r}")


def _igrayu(rest: list[str], text: str) -> Call:
    if not rest:
        return Call(C.IGRAYU)
    if len(rest) == 1 and rest[0] in _SUIT_WORDS:
        return Call(C.IGRAYU, suit=_SUIT_WORDS[rest[0]])
    raise CallSyntaxError(f"name a suit: igrayu s|h|d|c (got {text.strip()!r})")


def _ot(rest: list[str], text: str, legal: Sequence[Call]) -> Call:
    if not rest:
        raise CallSyntaxError("say the top card: ot korolya, ot K, ot K kozyrnogo")
    word = rest[0]
    rank = _RANK_GENITIVE.get(word, _RANK_WORDS.get(word))
    if rank is None:
        raise CallSyntaxError(f"not a rank: {word!r} (7 8 9 10 J Q K A, or korolya, tuza ...)")
    trump = any(w in _TRUMP_WORDS for w in rest[1:])
    for call in legal:  # a person may leave out "kozyrnogo": the engine knows it
        if call.name == C.OT and call.rank == rank and (call.trump or not trump):
            return call
    return Call(C.OT, rank=rank, trump=trump)


def _declaration(words: list[str], legal: Sequence[Call]) -> Call | None:
    count = 1
    if words[0] in _COUNT and len(words) == 2:
        count, words = _COUNT[words[0]], words[1:]
    if len(words) != 1:
        return None
    if words[0] in _TERTS:
        name = C.TERTS
    elif words[0] in _FIFTY:
        name = C.PYATDESYAT
    else:
        return None
    for call in legal:  # the count is the server's to fill in when left out
        if call.name == name and (count == 1 or call.count == count):
            return call
    return Call(name, count=count)
