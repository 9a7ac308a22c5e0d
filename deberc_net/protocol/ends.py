"""Why a match ended, in words: the web pages' (server/web/ends.py) and the human
style's, which names the player whose forfeit ended it. The reasons are
docs/protocol.md §9.7's; a reason not listed here (a rule plugin's own) is shown as it
is."""

from __future__ import annotations

from collections.abc import Iterable

# A seat's true konets (manual-claim) as a person's words name it: never a wire token,
# the wire and the store say 'claim' (docs/protocol.md §9.7) as for the server's own
# claim; ``said_konets`` tells the two apart
KONETS = "konets"
MANUAL_CLAIM = "manual-claim"

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
    "most-deals": "the most deals a match may have were played",
    "internal": "the table failed: no result",
    "shutdown": "the server shut down",
    "server-lost": "the server was lost",
    KONETS: "a side claimed the match: konets",
}


def end_words(reason: str, who: str | None = None) -> str:
    """``reason`` in words ('bohdan was away too long: forfeit')."""
    return END_WORDS.get(reason, reason).format(who=who or "a player")


# a reason as a person's line says it in brackets after the winners, where its token
# misleads: 'claim' is the server's own claim as a side reaches the target mid-deal,
# nobody claimed anything (docs/rules.md §7); a seat's konets (MatchEnded.claimed) is
# said by the renderers as 'claimed: konets' (§10)
# ... and a token that is no word a person reads as the end of a game ('wins (short)',
# where the Russian line said «короткая игра»: black-box evening s40), in its words
SHORT_WORDS: dict[str, str] = {
    "claim": "target mid-deal",
    KONETS: "konets",
    "short": "short game",
    "stakes": "stakes won",
    "gap": "lead of 250",
    "most-deals": "most deals played",
}
# ... and the game-over line's bracket after a seat's konets: the table's (render.py)
# and the terminal client's, which sees the call come just before the end
CLAIMED_WORDS = "claimed: konets"


def short_words(reason: str) -> str:
    """``reason`` as a person's bracket says it ('target', 'target mid-deal'):
    its token, where that says what happened."""
    return SHORT_WORDS.get(reason, reason)


def said_konets(reason: str, options: Iterable[str]) -> bool:
    """A stored match's ``claim`` was a seat's true konets: its options hold
    manual-claim, under which the engine never claims by itself (docs/rules.md §10:
    the switch turns the automatic claim off), so every ``claim`` there was said."""
    return reason == "claim" and MANUAL_CLAIM in options


def told_reason(reason: str, claimed: bool) -> str:
    """``reason`` as a person's words look it up: KONETS for a claim a seat said."""
    return KONETS if claimed and reason == "claim" else reason
