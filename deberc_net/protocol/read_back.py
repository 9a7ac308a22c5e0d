"""A catalogue sentence read back from its English text: what a machine-style line's
``text=`` says (docs/protocol.md §4.3c: the English template filled in), said in
Russian by the same catalogue entry (protocol.messages.MESSAGES).

The reading is the live page's (deberc_net/server/web/static/table.js, ``readBy``, for a
table's closing words): each English template is a pattern whose ``{names}`` match any
text, the values found fill the Russian template; a value that is itself a sentence of
the catalogue (a table's reason to close, the greeting's counts) is read back in turn.
A text no template matches has no Russian here: the caller shows it as it came.
"""

from __future__ import annotations

import ast
import functools
import re

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
_FIELD = re.compile(r"\{(\w+)((?:![rs])?(?::[^}]*)?)\}")


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
            re.escape(part) if i % 3 == 0 else ("(.*?)" if i % 3 == 1 else "")
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
    if name in PLAIN:
        return text
    return russian(text) or _listed(text)


def _listed(text: str) -> str:
    """A list of sentences ('anna (seat 0), boris (seat 1)'), each read back."""
    items = text.split(", ")
    return ", ".join(russian(item) or item for item in items) if len(items) > 1 else text


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
