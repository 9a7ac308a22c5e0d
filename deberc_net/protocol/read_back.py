"""A catalogue sentence read back from its English text: what a machine-style line's
``text=`` says (docs/protocol.md §4.3c: the English template filled in), said in
Russian by the same catalogue entry (protocol.messages.MESSAGES).

The reading is the live page's (deberc_net/server/web/static/table.js, ``readBy``, for a
table's closing words): each English template is a pattern whose ``{names}`` match any
text (a game's count, ``{for_players}``, only as it is said: ``_SAID_AS``), the values
found fill the Russian template; a value that is itself a sentence of the catalogue (a
table's reason to close, the greeting's counts, ``for 2 players``) is read back in turn.
A text no template matches has no Russian here: the caller shows it as it came.
"""

from __future__ import annotations

import ast
import functools
import re

from .lang import counts_ru
from .messages import MESSAGES

# the values that are a player's words or a name, never a catalogue sentence: not read
# back (a player called 'guest' stays 'guest', not «гость»)
PLAIN = frozenset(
    {
        "name",
        "word",
        "typed",
        "text",
        "token",
        "match",
        "variant",
        "signal",
        "command",
        "by",
        "when",
        "table",
        "seat",
        "deal",
        "seconds",
        "count",
        "total",
        "low",
        "high",
        "call",
    }
)
# the values that hold a player's name, or a list of them or of sentences about them
# ('anna (seat 0), boris (seat 1)'): a name alone is kept as it is (a player may be
# called 'guest', 'nobody' or 'waiting', words the catalogue says alone too)
NAMES = frozenset({"names", "seats", "asked", "waiting", "sender", "admin", "winner", "dealer"})
# one word as a name is written (docs/protocol.md §4.2: letters, digits, '_' and '-'), a
# number too: no sentence of the catalogue says a name's place in a list
ONE_WORD = re.compile(r"[^\W_][\w-]*")
_FIELD = re.compile(r"\{(\w+)((?:![rs])?(?::[^}]*)?)\}")
# the values matched as they are said, not as any text: a game's count ('moscow for 2
# players, to-301', as the web names a game) beside its options, which any text would
# take in whole or leave empty, the count left in English (s47)
_SAID_AS = {"for_players": r"(for \d+ players)"}


@functools.cache
def _forms() -> tuple[tuple[re.Pattern[str], tuple[tuple[str, str], ...], str], ...]:
    """Each English template with literal words as a pattern, its fields (name, spec) and
    its Russian template; the most literal text first, so the most telling form wins."""
    forms = []
    for english, russian in MESSAGES.values():
        parts = _FIELD.split(english)
        literal = "".join(parts[0::3])
        if not re.search(r"[A-Za-z]", literal):  # '{text}', '{name} ({seat})': says nothing
            continue
        pattern = "".join(
            re.escape(part) if i % 3 == 0 else (_SAID_AS.get(part, "(.*?)") if i % 3 == 1 else "")
            for i, part in enumerate(parts)
        )
        fields = tuple(zip(parts[1::3], parts[2::3], strict=True))
        forms.append((len(literal), re.compile(pattern, re.DOTALL), fields, russian))
    forms.sort(key=lambda form: -form[0])
    return tuple((pattern, fields, russian) for _, pattern, fields, russian in forms)


def _value(name: str, spec: str, text: str) -> str:
    if spec.startswith("!r"):  # a repr's quotes: the Russian sets its own («…»)
        try:
            return str(ast.literal_eval(text))
        except (ValueError, SyntaxError):
            return text
    if spec:  # a padded column ('{deal:>4}'): the Russian pads it again
        text = text.strip()
    if name in PLAIN or (name in NAMES and ONE_WORD.fullmatch(text)):
        return text
    if name == "counts":  # player counts, '2, 3 or 4': «2, 3 или 4»
        return counts_ru(text)
    # a list is read item by item before it is read whole: a sentence's pattern matches
    # a whole list too ('{name} (seat {seat})' took 'anna (seat 0), boris' for a name)
    return _listed(text) or russian(text) or _listed(text, partly=True) or text


def _listed(text: str, *, partly: bool = False) -> str | None:
    """A list of names and sentences ('anna (seat 0), boris (seat 1)', 'anna, (free)'),
    each sentence read back, each name kept; None if it is no list, or one of its items
    is neither (the whole text is a sentence), unless ``partly``: then that one kept."""
    items = text.split(", ")
    if len(items) < 2:
        return None
    said = [item if ONE_WORD.fullmatch(item) else russian(item) for item in items]
    if None in said and not partly:
        return None
    return ", ".join(s or item for s, item in zip(said, items, strict=True))


def russian(text: str) -> str | None:
    """``text``, a catalogue sentence in English, in Russian; None if it is none."""
    for pattern, fields, template in _forms():
        found = pattern.fullmatch(text)
        if found is None:
            continue
        told = zip(fields, found.groups(), strict=True)
        values = {name: _value(name, spec, value) for (name, spec), value in told}
        said = _fill(template, values)
        if said is not None:
            return said
    return None


def _fill(template: str, values: dict[str, str]) -> str | None:
    """``template`` with ``values``; None if it names one the English does not have."""
    try:
        return _FIELD.sub(lambda m: format(values[m[1]], m[2].partition(":")[2]), template)
    except (KeyError, ValueError):
        return None
