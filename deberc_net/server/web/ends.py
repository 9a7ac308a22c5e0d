"""How and why a match ended, in words, for the pages: the live table page (its script
reads them from the page, ``ends_for_script``) and the replay say it alike. The reasons
are docs/protocol.md §9.7's; a reason not listed here (a rule plugin's own) is shown as
it is."""

from __future__ import annotations

from collections.abc import Sequence

# '{who}' is the player whose forfeit ended the match (a player, when not known)
END_WORDS: dict[str, str] = {
    "target": "a side reached the target",
    "claim": "a side reached the target within the deal",
    "deals": "the agreed deals were played",
    "left": "{who} left the table: forfeit",
    # (how many times is the setting max_timeouts, which a stored match does not keep)
    "timeouts": "{who} let the clock run out too many times in a row: forfeit",
    "away": "{who} was away too long: forfeit",
    "false-claim": "a false claim",
    "deberts": "deberts",
    "short": "the short game was played",
    "stakes": "the stakes were won",
    "gap": "a lead of 250",
    "internal": "the table failed: no result",
    "shutdown": "the server shut down",
    "server-lost": "the server was lost",
}


def end_words(reason: str, who: str | None = None) -> str:
    """``reason`` in words ('bohdan was away too long: forfeit')."""
    return END_WORDS.get(reason, reason).format(who=who or "a player")


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


def match_over_words(winners: Sequence[str], reason: str, who: str | None = None) -> str:
    """'Match over: bob wins (ann left the table: forfeit).' (table.js's endText says
    the same from OVER_FORMS and END_WORDS, which the page hands it)."""
    form = OVER_FORMS[over_form(len(winners), reason)]
    return form.format(winners=" and ".join(winners), why=end_words(reason, who))


def ends_for_script() -> dict[str, dict[str, str]]:
    """What table.js needs to say a match's end as match_over_words does."""
    return {"why": END_WORDS, "over": OVER_FORMS}
