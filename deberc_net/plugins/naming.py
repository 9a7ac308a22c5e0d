"""A variant or option as people type it: in any case, and a variant as a club spells
it ('Kharkov', 'харьков', 'терц'). Read so by 'new', 'seek' and 'reserve' on the wire
(docs/protocol.md §5.3) and by the commands that name rules, 'selfplay' and 'ladder
run', so that a word the server takes is never refused by the command line."""

from __future__ import annotations

from .hookspecs import RuleKind
from .manager import RuleBook
from .near_names import VARIANT_SPELLINGS


def variant_named(word: str, rules: RuleBook) -> str | None:
    """The variant ``word`` names, itself or as a club spells it; None if none."""
    if rules.kind_of(word) == RuleKind.VARIANT:
        return word
    # in any case, as the spellings are: 'Kharkov' as 'Kharkiv'
    word = VARIANT_SPELLINGS.get(word.casefold(), word.casefold())
    return word if rules.kind_of(word) == RuleKind.VARIANT else None


def rule_named(word: str, rules: RuleBook) -> str:
    """An option (or a variant out of its place) typed in any case, as a variant is
    read ('To-301' is 'to-301'); a word no rule has in any case stays as typed, for
    the rule book's refusal to name."""
    if rules.kind_of(word) is not None:
        return word
    folded = word.casefold()
    return folded if rules.kind_of(folded) is not None else word


def own_count(variant: str, rules: RuleBook) -> int:
    """The player count 'top VARIANT' (and the web face's ``?variant=``) reads when none
    is named: two, or the variant's first where it is not played by two ('top trio', a
    third party's game for three, was refused "trio is for 3 players, not 2", a 2
    nobody typed)."""
    rule = rules.get(variant)
    counts = (2,) if rule is None else rule.info.players
    return 2 if 2 in counts else counts[0]
