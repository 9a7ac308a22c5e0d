"""How a bot's match ended, typed (``MatchResult``): who won, the totals, the deals.

Built from the match's ``event … kind=match-end`` line: its ``deals=`` counts the deals;
from a server older than that field, the deal number the bot last read at that table
(every ask and state says ``deal=``) stands in.
"""

from __future__ import annotations

import enum

import attrs

from deberc_net.protocol.ends import short_words, told_reason
from deberc_net.protocol.wire import parse_line

# the ends in which nobody won or lost (docs/protocol.md §9.7: a table that failed, a
# server stopping or lost while the match ran): no draw either
NO_RESULT_REASONS = frozenset({"internal", "shutdown", "server-lost"})


class Outcome(enum.Enum):
    """The match's end for the bot."""

    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"
    NO_RESULT = "no result"  # NO_RESULT_REASONS: nobody won, lost or drew


@attrs.frozen
class MatchResult:
    """One match of the bot's, as its ``match-end`` said. ``winner`` is the winning
    side (None: nobody won), ``winners`` its players' names, ``totals`` each side's
    points (side 0 first; with four players seats 0 and 2 are side 0), ``deals`` the
    deals played, one given up mid-deal included, not one given up before its first
    call (0: none), as ``match-end`` says them
    (``deals=``) or, from an older server, the last ``deal=`` the bot read."""

    match: str | None  # the match's id (``history``, ``games``); None if not told
    table: int
    outcome: Outcome
    winner: int | None
    winners: list[str]
    reason: str  # docs/protocol.md §9.7: target, claim, deals, left, internal, …
    totals: list[int]
    deals: int
    forfeit: int | None = None  # the seat that lost by forfeit
    # its 'claim' was a seat's true konets (manual-claim), the call read just before the
    # end, not the server's claim as a side reached the target: both are reason=claim
    claimed: bool = False


def match_result(line: str, name: str, deals: int, konets: bool = False) -> MatchResult:
    """The result of the ``match-end`` ``line`` for the bot logged in as ``name``
    (names compare as the server folds them: case apart); ``deals`` the last deal number
    it read, for a line without ``deals=``. Raises ``WireError`` for a line without
    ``table=`` or with a number that is none."""
    end = parse_line(line)
    told = end.get_int("deals")
    winner, names = end.get_int("winner"), end.get_list("name")
    reason = end.get_str("reason") or ""  # (the server's always has one)
    if winner is not None:
        won = name.casefold() in {n.casefold() for n in names}
        outcome = Outcome.WON if won else Outcome.LOST
    else:
        outcome = Outcome.NO_RESULT if reason in NO_RESULT_REASONS else Outcome.DRAWN
    return MatchResult(
        match=end.get_str("match"),
        table=end.require_int("table"),
        outcome=outcome,
        winner=winner,
        winners=names,
        reason=reason,
        totals=end.get_ints("totals"),
        deals=deals if told is None else told,
        forfeit=end.get_int("forfeit"),
        claimed=konets and reason == "claim",
    )


def summary(result: MatchResult) -> str:
    """The result in one line: ``match m3 at table 3: won by h1 with 513, totals
    467 : 513, 7 deals (target)``: the winner's own total by his name, the totals by
    side (side 0 first, as tools read them) after it."""
    if result.outcome is Outcome.DRAWN:
        who = "drawn"
    elif result.outcome is Outcome.NO_RESULT:
        who = "no result"
    else:
        who = f"won by {'+'.join(result.winners) or f'side {result.winner}'}"
        # (totals by side read as the winner's first when he sits at side 1: say his)
        if result.winner is not None and 0 <= result.winner < len(result.totals):
            who += f" with {result.totals[result.winner]}"
    deals = "1 deal" if result.deals == 1 else f"{result.deals} deals"
    totals = " : ".join(map(str, result.totals)) or "-"  # as the web's scores: no "403,518"
    told = told_reason(result.reason, result.claimed)  # a seat's konets: 'konets'
    why = f" ({short_words(told)})" if result.reason else ""
    return (
        f"match {result.match or '?'} at table {result.table}: {who}, totals {totals}, {deals}{why}"
    )
