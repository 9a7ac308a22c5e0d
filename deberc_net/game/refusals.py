"""Why a call is refused: the most specific error for a call that is not legal now.

Kept apart from the deal's state machine: ``Deal.apply`` asks ``why_not`` only when a
call is not in ``legal_calls``, so nothing here is on the path of a legal call. Plain
functions of a deal: they read it and never change it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import calls as C
from . import errors as E
from .calls import Call
from .cards import SEVEN, card_str, make, suit_of
from .combos import CATEGORY_NAMES
from .phases import BIDDING, DONE, ORDERED, Phase
from .play import illegal_card_error
from .talk import (
    Question,
    answers,
    declaration,
    in_window,
    may_swap_in_window,
    question_said,
    top_call,
)

if TYPE_CHECKING:
    from .deal import Deal


def why_not(deal: Deal, seat: int, call: Call) -> E.IllegalCall:
    """The most specific reason ``call`` is not legal for ``seat`` now."""
    if deal.phase == DONE:
        return E.WrongPhase("the deal is over")
    if deal.pending is not None and seat != deal.pending.answerer:
        who = deal.pending.answerer
        return E.AnswerRequired(f"waiting for seat {who} to answer {question_said(deal.talk)}")
    if deal.pending is not None:
        if call.name == C.MENYAYU and deal.pending.kind == Question.SWAP and deal.trump is not None:
            # swap-before-extra asks every seat: one without the seven may only keep
            seven = make(SEVEN, deal.trump)
            return E.AnswerRequired(
                f"you do not hold the trump 7 ({card_str(seven)}): answer ne-menyayu"
            )
        legal = " or ".join(c.token() for c in answers(deal, deal.pending))
        if deal.pending.kind == Question.PROKHODIT and call.name in (C.PROKHODIT, C.NE_PROKHODIT):
            # the other answer, untrue (docs/rules.md §2): "answer the question first" told
            # one who had answered it (a tryout, s46)
            return E.AnswerRequired(f"{call.token()} is not the true answer: say {legal}")
        if call.name == C.OT and deal.pending.kind in (Question.ROST, Question.ROST_REPLY):
            if deal.pending.kind == Question.ROST_REPLY and _is_own_top(deal, seat, call):
                # true, but not higher (Kharkov: an equal top loses to the first declared)
                return E.FalseDeclaration(
                    f"{call.token()} does not beat {question_said(deal.talk)}: {legal}"
                )
            return E.FalseDeclaration(f"that is not your combination's top; say {legal}")
        return E.AnswerRequired(f"answer the question first: {legal}")
    name = call.name
    if name in _ANSWERS:  # nothing is pending here: an answer with no question
        return E.NotAllowed(f"{call.token()} answers a question, and none is asked of you now")
    if name == C.SEVENS:
        return E.NotAllowed("only a seat holding all four sevens, before the first card")
    if name == C.POKAZHI:
        return pokazhi_refused(deal, seat)
    if name in (C.PAS, C.IGRAYU):
        return _why_not_bid(deal, seat, call)
    if (
        deal.phase == BIDDING
        and name in (C.MENYAYU, C.PROKHODIT_Q)
        and not deal.rules.settings.seven_swap
    ):
        # (four players, seven-swap-off) not "after the order": it never comes
        return E.NotAllowed("this table has no swap of the seven")
    card = call.card
    if deal.phase == BIDDING and card is not None and card not in deal.hands[seat]:
        # not "comes after the order" of the turned card or another's (a tryout, s47)
        return E.WrongPhase(f"bidding is on, and {card_str(card)} is not in your hand")
    if deal.phase == BIDDING:
        return E.WrongPhase(f"bidding is on: {call.token()} comes after the order")
    if deal.phase == ORDERED:
        return E.WrongPhase("the game is ordered; the last cards are not dealt yet")
    if seat != deal.turn:
        return E.NotYourTurn(f"it is seat {deal.turn}'s turn")
    if name == C.PLAY:
        assert call.card is not None
        return illegal_card_error(deal.hands[seat], deal.trick.cards, deal.trump, call.card)
    if name in (C.TERTS, C.PYATDESYAT):
        return _why_not_declare(deal, seat, call)
    if name == C.ROST:
        return _why_not_rost(deal, seat)
    if name == C.PROKHODIT_Q:
        return E.NotAllowed(_why_not_prokhodit_q(deal, seat))
    if name == C.MENYAYU:
        return E.NotAllowed(_why_not_swap(deal, seat))
    if name == C.BELLA:
        return E.NotAllowed(_why_not_bella(deal, seat))
    return E.NotAllowed(f"{call.token()} is not a call you may make now")


def _is_own_top(deal: Deal, seat: int, call: Call) -> bool:
    """Whether ``call`` names the top of ``seat``'s best combination of the declared
    length: the asker's true top, refused only because it does not beat the one told."""
    best = deal.talk.best
    mine = None if best is None else deal.best_combo(seat, best.category)
    return mine is not None and call == top_call(deal, mine)


# the calls that answer a question (docs/rules.md §2): rost? gets ot …, which gets
# pishet or a higher ot …; pokazhi gets pokazyvayu or skin; prokhodit? its answer
_ANSWERS = frozenset((C.OT, C.PISHET, C.POKAZYVAYU, C.SKIN, C.PROKHODIT, C.NE_PROKHODIT))


def pokazhi_refused(deal: Deal, seat: int, until_shown: bool = False) -> E.IllegalCall:
    """``pokazhi`` refused, saying why (``_why_not_pokazhi``)."""
    return E.NotAllowed(_why_not_pokazhi(deal, seat, until_shown))


def _why_not_pokazhi(deal: Deal, seat: int, until_shown: bool) -> str:
    """The case that stops this demand (docs/protocol.md §8.3), not "nothing to show"
    for all of them: a bot's demand that reached the table after the second trick's
    first card, an opponent's fifty still unshown, was told no declaration waited
    (bot34). Said as many opponents as the seat has: three and four players have two (a
    tryout at three read the Russian's «соперник» as one). With nothing to show it says
    when the demand is made; ``until_shown``: a game where it may be made until the
    declaration is shown (Tertz), not only until the second trick's first card."""
    talk, mine = deal.talk, deal.side_of(seat)
    best = talk.best
    if best is not None and deal.side_of(best.seat) != mine:
        if best.seat in talk.shown:
            return "that declaration is shown already"
        if seat in talk.asked_show:
            return "you have asked to see it already"
        late = len(deal.tricks) > 1 or (deal.tricks and deal.trick.cards)
        if late and not until_shown:
            return "pokazhi is said until the first card of the second trick"
    # (when it is said, as the other calls' refusals say theirs: s47)
    if sum(deal.side_of(s) != mine for s in range(deal.players)) > 1:
        return (
            "neither opponent has a declaration waiting to be shown: pokazhi is said"
            " once one declares, until the first card of the second trick"
        )
    if until_shown:
        return (
            "no opponent's declaration is waiting to be shown: pokazhi is said once"
            " the opponent declares, until that declaration is shown"
        )
    return (
        "no opponent's declaration is waiting to be shown: pokazhi is said once the"
        " opponent declares, until the first card of the second trick"
    )


def _why_not_swap(deal: Deal, seat: int) -> str:
    """What stops this seat's swap of the seven (docs/rules.md §2), its own case first:
    a tryout was told the whole rule when he only lacked the seven."""
    settings, trump = deal.rules.settings, deal.trump
    if not settings.seven_swap or trump is None:  # (four players, seven-swap-off)
        return "this table has no swap of the seven"
    seven = make(SEVEN, trump)
    if not deal.first_trump:
        return "a game in a second trump has no swap of the seven"
    if deal.talk.swapped_by is not None:
        return "the seven is swapped already"
    if deal.original_turned == seven:
        return "the turned card is the trump 7 itself: there is nothing to swap"
    # (after those: swap-before-extra asks only in the first trump, a seven to take)
    if settings.swap_before_extra:  # asked then, as a question (talk.answers)
        return "the seven is swapped before the last cards are dealt (swap-before-extra)"
    if seven not in deal.hands[seat]:
        return f"you do not hold the trump 7 ({card_str(seven)})"
    if seat in deal.talk.window_hands or deal.tricks:
        return "the seven is swapped before your first card"
    if seat in deal.talk.talked:
        return "the seven is swapped before you declare or ask rost? (what you said must stay true)"
    return (
        "the seven may be swapped only in the first trump, by the holder of the "
        "trump 7, before his first card and before he declares"
    )


def _why_not_bid(deal: Deal, seat: int, call: Call) -> E.IllegalCall:
    if deal.phase == Phase.PLAY and seat == deal.turn:
        # what is asked now, not only what is not (a tryout, s44: 'pas' in the play was
        # told "bidding is over" alone)
        return E.WrongPhase("bidding is over: it is the play now, and your turn: play a card")
    if deal.phase == Phase.PLAY:
        return E.WrongPhase(f"bidding is over: it is the play now, seat {deal.turn}'s turn")
    if deal.phase != BIDDING:
        return E.WrongPhase("bidding is over")
    if seat != deal.turn:
        return E.NotYourTurn(f"it is seat {deal.turn}'s turn to bid")
    turned = suit_of(deal.original_turned)
    if deal.bid_round == 1 and call.suit is not None:
        return E.NotAllowed("round one plays the turned suit: say igrayu or pas")
    if deal.bid_round == 2 and call.name == C.IGRAYU and call.suit in (None, turned):
        return E.NotAllowed("round two: name another suit than the turned one")
    return E.NotAllowed("the dealer must name a suit in round two (commitment)")


def _why_not_declare(deal: Deal, seat: int, call: Call) -> E.IllegalCall:
    if not in_window(deal, seat):
        return E.NotAllowed("declarations are made before your first card only")
    if seat in deal.talked:
        return E.NotAllowed("you have already declared")
    mine = deal.best_combo(seat)
    if mine is None:
        return E.FalseDeclaration("you hold no combination")
    right = declaration(deal, seat, mine.category)
    if call != right:
        return E.FalseDeclaration(f"you do not hold {call.token()}; your best is {right.token()}")
    best = deal.best
    if best is not None and mine.category == best.category:
        return E.NotAllowed(f"a {CATEGORY_NAMES[best.category]} is declared: ask rost?")
    if best is not None and mine.category < best.category:
        return E.NotAllowed("a longer combination is already declared")
    return E.NotAllowed(f"{call.token()} is not a call you may make now")


def _why_not_rost(deal: Deal, seat: int) -> E.IllegalCall:
    best = deal.best
    if best is None:  # its own case, Tertz's too: the rule's other conditions may be met
        return E.NotAllowed("nothing is declared: rost? asks about a declaration")
    if best.seat == seat and in_window(deal, seat):
        # his own declaration: "rost? answers a declaration, …, once" left him guessing
        # (a tryout, s46); Tertz says it so (plugins/variants/tertz/deal.py)
        return E.NotAllowed("the best declaration is your own: rost? asks the opponent's")
    if not in_window(deal, seat) or seat in deal.talked:
        return E.NotAllowed("rost? answers a declaration, before your first card, once")
    if deal.side_of(best.seat) == deal.side_of(seat):
        # no question to one's partner: not a forbidden rost?, so never a penalty
        return E.NotAllowed("the best declaration is your partner's: no rost? against him")
    mine = deal.best_combo(seat)
    if mine is not None and mine.category > best.category:
        return E.ForbiddenRost("you hold a longer combination: declare it instead")
    return E.ForbiddenRost("you hold no combination of that length")


def _why_not_prokhodit_q(deal: Deal, seat: int) -> str:
    """The question's own rule (docs/rules.md §2), not the swap's: it is asked before
    deciding the swap, once, about a trump sequence."""
    if not deal.rules.settings.seven_swap:  # (four players, seven-swap-off)
        return "this table has no swap of the seven"
    if not (in_window(deal, seat) and may_swap_in_window(deal, seat)):
        return (
            "prokhodit? is asked by the holder of the trump 7 while he may swap it: in the "
            "first trump, before his first card and before he declares"
        )
    if seat in deal.talk.asked_pass:
        return "prokhodit? is asked once"
    return "you hold no trump sequence: prokhodit? asks whether yours passes"


def _why_not_bella(deal: Deal, seat: int) -> str:
    if deal.bella_owner != seat:
        return "you do not hold the trump king and queen"
    if deal.bella_declared:
        return "bella is already declared"
    if deal.rules.settings.bella_after_trick:
        return "bella is declared after taking a trick, while holding the K or Q"
    return "bella is declared before playing the trump king or queen"
