"""Errors the engine raises for a refused call. The state is never changed by one.

Each error carries a stable ``code`` (sent on the wire) and a sentence for people.
"""

from __future__ import annotations


class IllegalCall(Exception):
    code = "illegal-call"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _error(code: str, doc: str) -> type[IllegalCall]:
    name = "".join(part.capitalize() for part in code.split("-"))
    return type(name, (IllegalCall,), {"code": code, "__doc__": doc})


NotYourTurn = _error("not-your-turn", "Another seat is to act.")
WrongPhase = _error("wrong-phase", "The call does not belong to this phase of the deal.")
NotInHand = _error("illegal-card", "The card is not in the seat's hand.")
MustFollowSuit = _error("must-follow-suit", "The seat holds the led suit.")
MustTrump = _error("must-trump", "The seat is void in the led suit and holds a trump.")
MustOvertrump = _error("must-overtrump", "The seat can beat the highest trump on the table.")
MustBeat = _error("must-beat", "Tertz after the talon: the seat can beat the led card.")
ForbiddenRost = _error("forbidden-rost", "rost? asked while it is forbidden (docs/rules.md §3).")
FalseDeclaration = _error("false-declaration", "The seat does not hold what it declares.")
AnswerRequired = _error("answer-required", "A question is pending and must be answered first.")
NotAllowed = _error("not-allowed", "The call is not allowed now.")
GameOver = _error("game-over", "The match is over.")
