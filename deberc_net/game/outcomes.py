"""How a deal ends: the engine's and the shipped rules' outcomes, and why a deal is void.

StrEnums equal their strings, so records and the wire carry the same words as before.
An outcome is typed ``str`` where it is stored (``Deal.outcome``, ``DealScore.outcome``,
``Deal.end_deal``): a third-party plugin may end a deal its own way (perezdacha's
``redeal``) without being listed here.
"""

from enum import StrEnum


class Outcome(StrEnum):
    MADE = "made"  # the player scored more (docs/rules.md §5)
    BIDE = "bide"  # he did not: the whistlers write his points
    HANGING = "hanging"  # equal: the points wait for the next deal
    VOID = "void"  # nobody played it (four sevens, everybody passed)
    CLAIM = "claim"  # a side reached the target during the deal
    FALSE_CLAIM = "false-claim"  # manual-claim: a konets that did not reach it
    PENALTY = "penalty"  # table-penalties: a bide on cards
    DEBERTS = "deberts"  # option deberts: seven trumps in sequence win the match
    GAVE_UP = "gave-up"  # option dave: a dave declined, the one who said it wins the stake
    OFFER = "offer"  # option poltinniki: the player took the 50 offered without play
    SPLIT = "split"  # Tertz: the 150 points shared (docs/rules.md §12.6)
    # the match was lost at the table (a seat left, ran out of time, stayed away):
    # the deal in progress is recorded as it stood
    LEFT = "left"
    TIMEOUTS = "timeouts"
    AWAY = "away"


FORFEITS = frozenset({Outcome.LEFT, Outcome.TIMEOUTS, Outcome.AWAY})


class MatchEndReason(StrEnum):
    """Why a match ended, besides a deal that ended it (``claim``, ``false-claim``,
    ``deberts``: the deal's ``Outcome``) and a forfeit (``FORFEITS``). ``MatchEnd.reason``
    is typed ``str``: a third-party rule may end a match its own way."""

    TARGET = "target"  # a side reached the target (docs/rules.md §7)
    DEALS = "deals"  # a ladder board played its deals
    SHORT = "short"  # option short: the short game's deals are played
    STAKES = "stakes"  # option short: a side won the stakes
    GAP = "gap"  # option poltinniki: a lead of 250
    MOST_DEALS = "most-deals"  # the server's most deals a match (max_match_deals)
    INTERNAL = "internal"  # the table failed: nobody wins (docs/protocol.md §9.7)


class VoidReason(StrEnum):
    SEVENS = "sevens"  # four sevens shown: the same dealer deals again
    ALL_PASSED = "all passed"
