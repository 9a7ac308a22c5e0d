"""How a match ended, in words, for the pages: the live table page (its script reads
them from the page, ``ends_for_script``) and the replay say it alike, with the reasons'
words of protocol/ends.py (the human style's too)."""

from __future__ import annotations

from collections.abc import Sequence

from deberc_net.game.outcomes import FORFEITS
from deberc_net.protocol.ends import END_WORDS, end_words

__all__ = [
    "END_WORDS",
    "end_words",
    "ends_for_script",
    "forfeit_seat",
    "match_over_words",
    "page_end_words",
]

# A reason whose words name the winning side on a page ('{winners}' their names joined
# by ' and '), where the protocol's words (END_WORDS, the human style's) say 'a side';
# without winners (not known) END_WORDS says it
SIDE_WORDS: dict[str, str] = {"claim": "{winners} reached the target within the deal"}

# The sentence that ends a match, one form per kind of result: '{winners}' the winning
# side's names joined by ' and ', '{why}' the reason's words (END_WORDS)
OVER_FORMS: dict[str, str] = {
    "one": "Match over: {winners} wins ({why}).",
    "side": "Match over: {winners} win ({why}).",
    "draw": "Match over: a draw, {why}.",
    "none": "Match over: {why}.",  # no result (the table failed): not a draw
}


def over_form(winners: int, reason: str) -> str:
    """Which of OVER_FORMS says a match with so many winners, ended for ``reason``."""
    if winners:
        return "one" if winners == 1 else "side"
    return "none" if reason == "internal" else "draw"


def page_end_words(reason: str, winners: Sequence[str], who: str | None = None) -> str:
    """Why a match ended, as a page says it: END_WORDS, naming ``who`` forfeited it,
    or the winners where SIDE_WORDS has the reason ('ann reached the target within
    the deal')."""
    if winners and reason in SIDE_WORDS:
        return SIDE_WORDS[reason].format(winners=" and ".join(winners))
    return end_words(reason, who)


def match_over_words(winners: Sequence[str], reason: str, who: str | None = None) -> str:
    """'Match over: bob wins (ann left the table: forfeit).' (table.js's endText says
    the same from OVER_FORMS, END_WORDS and SIDE_WORDS, which the page hands it)."""
    form = OVER_FORMS[over_form(len(winners), reason)]
    return form.format(winners=" and ".join(winners), why=page_end_words(reason, winners, who))


def ends_for_script() -> dict[str, dict[str, str]]:
    """What table.js needs to say a match's end as match_over_words does."""
    return {"why": END_WORDS, "side": SIDE_WORDS, "over": OVER_FORMS}


def forfeit_seat(
    reason: str, players: Sequence[str], winners: Sequence[str], stored: int | None
) -> int | None:
    """The seat whose forfeit ended a match: the one ``stored`` (the match's row, or
    its last record's ``match_over``); for a match stored before either kept it, the
    one player not among the winners, if only one (two players: that is who). None:
    not a forfeit, or not known (such a match of three or four players)."""
    if reason not in FORFEITS:
        return None
    if stored is not None:
        return stored
    losers = [seat for seat, name in enumerate(players) if name not in winners]
    return losers[0] if winners and len(losers) == 1 else None
