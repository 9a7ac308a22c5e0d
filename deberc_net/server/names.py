"""Which names a login may have (accounts.py's rule), apart: a settings file's
``admins`` is checked with it as the settings are read (config.py), and that check
need not import the accounts' module (trio, the protocol's events: a third of a second
of the CPU of ``serve --workers``' parent, which serves no login)."""

from __future__ import annotations

import re
import unicodedata

NAME_RULE = re.compile(r"^[^\W_][\w-]{1,19}$")
# The only default-ignorable code points (drawn as nothing) that are letters, so that
# NAME_RULE alone lets them in: the Hangul fillers. A name of them shows as a blank.
BLANK_LETTERS = re.compile("[\u115f\u1160\u3164\uffa0]")


def valid_name(name: str) -> bool:
    """2-20 letters, digits, '_' or '-', starting with a letter or digit (any alphabet),
    none drawn as nothing; judged in composed form, so a decomposed é is a letter too.
    A name that may be someone's: one registered before ``new_name``'s stricter rule
    still logs in, and is still found ('finger', 'invite', his web page)."""
    composed = unicodedata.normalize("NFC", name)
    return bool(NAME_RULE.match(composed)) and not BLANK_LETTERS.search(composed)
