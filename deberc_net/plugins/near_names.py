"""The rule's name a word no rule has was most likely meant as, for the refusal to
name ('did you mean …?'): typed in Cyrillic, whole ('терц-501', a club's spelling of
the variant in it) or in part ('tерц', 'tо-301': look-alike letters), read in Latin
letters as well as typed (docs/protocol.md §5.3)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

# how a club spells a variant it plays (Ukrainian, Russian): that variant
# (docs/protocol.md §5.3; plugins.naming reads them)
VARIANT_SPELLINGS = {
    "kharkiv": "kharkov",
    "харьков": "kharkov",
    "харків": "kharkov",
    "moskva": "moscow",
    "москва": "moscow",
    "терц": "tertz",  # (a word of 'new', never a call there: not the combination)
}

# Russian and Ukrainian letters as Latin ones spell them ('терц' is 'terts'), a
# look-alike as the letter it is ('о' is 'o')
_LATIN = str.maketrans(
    {
        **dict(zip("абвгґдезийклмнопрстуфыэі", "abvggdeziyklmnoprstufyei", strict=True)),
        "ё": "e", "є": "ye", "ж": "zh", "ї": "yi", "х": "kh", "ц": "ts",
        "ч": "ch", "ш": "sh", "щ": "shch", "ю": "yu", "я": "ya", "ъ": "", "ь": "", "'": "",
    }
)  # fmt: skip


def readings(word: str) -> list[str]:
    """``word`` in any case, then in Latin letters (each part between hyphens a club's
    spelling of a variant is that variant: 'терц-501' is 'tertz-501'), without
    repeats."""
    folded = word.casefold()
    parts = [VARIANT_SPELLINGS.get(part, part) for part in folded.split("-")]
    latin = "-".join(parts).translate(_LATIN)
    return list(dict.fromkeys((folded, latin)))


def near_name(word: str, names: Sequence[str]) -> str | None:
    """The one of ``names`` nearest to a reading of ``word`` (difflib's, as for a
    mistyped call), the readings in order; those as near as it too, in order ('to-1000':
    'to-1001, to-1002': difflib's one of them was the last in the alphabet, a guess said
    as the answer); None if none is near."""
    for reading in readings(word):
        near = difflib.get_close_matches(reading, names, n=len(names))
        if near:
            best = _nearness(reading, near[0])
            return ", ".join(sorted(n for n in near if _nearness(reading, n) == best))
    return None


def _nearness(reading: str, name: str) -> float:
    return difflib.SequenceMatcher(None, name, reading).ratio()  # (get_close_matches's)
