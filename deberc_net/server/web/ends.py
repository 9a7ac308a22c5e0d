"""How a match ended, in words, for the pages: the live table page (its script reads
them from the page, ``ends_for_script``) and the replay say it alike, with the reasons'
words of protocol/ends.py (the human style's too)."""

from __future__ import annotations

from collections.abc import Sequence

from deberc_net.game.outcomes import FORFEITS
from deberc_net.protocol.ends import END_WORDS, KONETS, end_words
from deberc_net.protocol.lang import RU_MATCH_REASONS, Lang
from deberc_net.protocol.render_ru import RU_FORFEITS

from .words import OVER_WORDS, W, end_words_in, said, template

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
# without winners (not known) END_WORDS says it. (Russian has none: «досрочно: набраны
# очки» is said of nobody in particular, as the table says it, lang.RU_MATCH_REASONS)
SIDE_WORDS: dict[str, str] = {
    "claim": "{winners} reached the target within the deal",
    KONETS: "{winners} claimed the match: konets",  # a seat's true konets (manual-claim)
}

# The sentence that ends a match, one form per kind of result: '{winners}' the winning
# side's names joined by ' and ', '{why}' the reason's words (END_WORDS)
# ('none': no result, the table failed: not a draw); in both languages in web/words.py
OVER_FORMS: dict[str, str] = {form: template(key, Lang.EN) for form, key in OVER_WORDS.items()}


def over_form(winners: int, reason: str) -> str:
    """Which of OVER_FORMS says a match with so many winners, ended for ``reason``."""
    if winners:
        return "one" if winners == 1 else "side"
    return "none" if reason == "internal" else "draw"


def page_end_words(
    reason: str, winners: Sequence[str], who: str | None = None, lang: Lang = Lang.EN
) -> str:
    """Why a match ended, as a page says it: END_WORDS, naming ``who`` forfeited it,
    or the winners where SIDE_WORDS has the reason ('ann reached the target within
    the deal'); in Russian as the table's end line says it."""
    if lang == Lang.EN and winners and reason in SIDE_WORDS:
        return SIDE_WORDS[reason].format(winners=" and ".join(winners))
    return end_words_in(reason, who, lang)


def match_over_words(
    winners: Sequence[str], reason: str, who: str | None = None, lang: Lang = Lang.EN
) -> str:
    """'Match over: bob wins (ann left the table: forfeit).' (table.js's endText says
    the same from OVER_FORMS, END_WORDS and SIDE_WORDS, which the page hands it)."""
    form = template(OVER_WORDS[over_form(len(winners), reason)], lang)
    named = said(W.AND, lang).join(winners)
    return form.format(winners=named, why=page_end_words(reason, winners, who, lang))


def ends_for_script(lang: Lang = Lang.EN) -> dict[str, dict[str, str]]:
    """What table.js needs to say a match's end as match_over_words does: in Russian
    with 'anon', a forfeit's words when who lost it is not known."""
    if lang == Lang.EN:
        return {"why": END_WORDS, "side": SIDE_WORDS, "over": OVER_FORMS}
    over = {form: template(key, lang) for form, key in OVER_WORDS.items()}
    return {
        "why": {**RU_MATCH_REASONS, **RU_FORFEITS},
        "side": {},
        "over": over,
        "anon": RU_MATCH_REASONS,
    }


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
