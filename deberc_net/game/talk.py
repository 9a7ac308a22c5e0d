"""The table talk of a deal: declarations, ``rost?``, ``pokazhi``, bella, the seven swap's
questions, and the question a seat must answer before play goes on.

``Talk`` holds what was said; the functions here read a deal and say which talk calls a
seat may make now, and carry out the talk calls. The deal owns the cards and the turn;
the talk only ever changes its own state, the pending question and what went face up.
docs/rules.md §3 (the table talk, as the engine runs it) is the rule.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import attrs

from . import calls as C
from .calls import Call
from .cards import SEVEN, Card, make
from .combos import CATEGORY_NAMES, Combo, bella_cards
from .events import Shown
from .phases import PLAY

if TYPE_CHECKING:
    from .deal import Deal

# The calls of the talk: the record lists them per seat under "declared".
TALK = frozenset({C.TERTS, C.PYATDESYAT, C.ROST, C.OT, C.PISHET})


class Question(StrEnum):
    """The engine's own questions; a plugin may ask its own (any other string)."""

    ROST = "rost"  # the declarer tells his top card
    ROST_REPLY = "rost-reply"  # the asker answers: ot-… or pishet
    SHOW = "show"  # pokazhi: pokazyvayu or skin
    PROKHODIT = "prokhodit"  # does the asker's trump sequence pass?
    SWAP = "swap?"  # swap-before-extra: the seats are asked in turn after the order


SWAP_Q = Question.SWAP  # the name callers already use

# the engine's questions as the call that asks them is spoken ('rost?', not 'rost'): a
# refusal names the question so ('waiting for anna to answer rost?'); the seven swap's
# is asked by no call, and a plugin's question is named as its plugin named it
_ASKED_BY: dict[str, str] = {
    Question.ROST: C.ROST,
    Question.SHOW: C.POKAZHI,
    Question.PROKHODIT: C.PROKHODIT_Q,
}


@attrs.define
class Declaration:
    """The best declaration on the table so far: who, which category, its best combo."""

    seat: int
    category: int
    combo: Combo
    top_told: bool = False  # the top card was spoken (rost? answered)


@attrs.define
class Pending:
    """A question that a given seat must answer before play goes on."""

    kind: str  # a Question, or a plugin's own
    asker: int
    answerer: int
    queue: tuple[int, ...] = ()  # who answers after this one (prokhodit? with 3 players)


def question_said(talk: Talk) -> str:
    """The pending question of ``talk`` as it was spoken: the call that asked it; the
    answer to 'rost?' awaiting the asker's reply, as that answer was said ('ot-K')."""
    pending = talk.pending
    assert pending is not None
    if pending.kind == Question.ROST_REPLY and talk.best is not None:
        told = talk.declared_calls.get(talk.best.seat)
        return told[-1] if told else C.ROST
    return _ASKED_BY.get(pending.kind, pending.kind)


@attrs.define
class Talk:
    """What was said at the table in one deal."""

    pending: Pending | None = None
    best: Declaration | None = None
    talked: set[int] = attrs.Factory(set)  # seats that declared or asked rost?
    declared_combos: dict[int, list[Combo]] = attrs.Factory(dict)
    declared_calls: dict[int, list[str]] = attrs.Factory(dict)
    asked_pass: set[int] = attrs.Factory(set)
    asked_show: set[int] = attrs.Factory(set)
    skin_owed: dict[int, int] = attrs.Factory(dict)  # demander -> declarer
    shown: dict[int, list[Card]] = attrs.Factory(dict)
    swapped_by: int | None = None
    lost_combos: set[int] = attrs.Factory(set)  # table-penalties
    bella_owner: int | None = None
    bella_declared: bool = False
    # each seat's hand as it stood at its first card: its window for the talk is over,
    # and its sequences are what that hand held
    window_hands: dict[int, tuple[Card, ...]] = attrs.Factory(dict)

    def copy(self) -> Talk:
        """A copy whose changes never reach this talk (``Deal.copy``): every set, dict
        and list its own; the best declaration copied too (``ot`` marks it in place)."""
        return Talk(
            pending=self.pending,  # replaced, never changed in place
            best=None if self.best is None else attrs.evolve(self.best),
            talked=set(self.talked),
            declared_combos={s: list(c) for s, c in self.declared_combos.items()},
            declared_calls={s: list(c) for s, c in self.declared_calls.items()},
            asked_pass=set(self.asked_pass),
            asked_show=set(self.asked_show),
            skin_owed=dict(self.skin_owed),
            shown={s: list(c) for s, c in self.shown.items()},
            swapped_by=self.swapped_by,
            lost_combos=set(self.lost_combos),
            bella_owner=self.bella_owner,
            bella_declared=self.bella_declared,
            window_hands=dict(self.window_hands),
        )


# ------------------------------------------------------------------ what may be said
def in_window(deal: Deal, seat: int) -> bool:
    """Before the seat's first card, on its turn, nothing pending: time to talk."""
    return (
        deal.phase == PLAY
        and deal.talk.pending is None
        and not deal.tricks
        and deal.turn == seat
        and seat not in deal.talk.window_hands
    )  # a seat told 'skin' may still talk: only its card comes before the show


def may_swap_in_window(deal: Deal, seat: int) -> bool:
    """Whether ``seat``, whose window is open (the caller tested ``in_window``), may
    swap the seven of trumps for the turned card now."""
    s = deal.rules.settings
    trump = deal.trump
    return (
        s.seven_swap
        and not s.swap_before_extra  # that swap is over by now
        and deal.first_trump
        and deal.talk.swapped_by is None
        and seat not in deal.talk.talked
        and trump is not None
        and _SEVEN_OF[trump] in deal.hands[seat]
    )


def window_talk_calls(deal: Deal, seat: int) -> list[Call]:
    """The seven swap, its question and the declarations open to ``seat`` now, whose
    window is open: the caller tested ``in_window`` (the deal's legal calls do, on the
    way, for every move of the first trick)."""
    talk = deal.talk
    out: list[Call] = []
    if may_swap_in_window(deal, seat):
        out.append(_MENYAYU)
        if seat not in talk.asked_pass and best_trump_sequence(deal, seat) is not None:
            out.append(_PROKHODIT_Q)
    if seat in talk.talked:
        return out
    mine = deal.best_combo(seat)
    if mine is None:
        return out
    best = talk.best
    if best is None or mine.category > best.category:
        out.append(declaration(deal, seat, mine.category))
    elif mine.category == best.category and deal.side_of(best.seat) != deal.side_of(seat):
        out.append(_ROST)
    return out


def answers(deal: Deal, pending: Pending) -> list[Call]:
    """The answers to the pending question (a plugin's come from its own hook)."""
    best = deal.talk.best
    if pending.kind == Question.ROST:
        assert best is not None
        return [top_call(deal, best.combo)]
    if pending.kind == Question.ROST_REPLY:
        assert best is not None
        mine = deal.best_combo(pending.answerer, best.category)
        out = [_PISHET]
        if mine is not None and deal.beats(pending.answerer, mine, best.seat, best.combo):
            out.insert(0, top_call(deal, mine))
        return out
    if pending.kind == Question.SHOW:
        out = [_POKAZYVAYU]
        asker = pending.asker
        if asker == deal.turn and asker not in deal.talk.window_hands and not deal.tricks:
            out.append(_SKIN)
        return out
    if pending.kind == Question.SWAP:  # no swap first: what the clock says for a silent seat
        out = [_NE_MENYAYU]
        if deal.trump is not None and make(SEVEN, deal.trump) in deal.hands[pending.answerer]:
            out.append(_MENYAYU)
        return out
    if pending.kind == Question.PROKHODIT:  # does the asker's best trump sequence pass?
        return [_PROKHODIT if _trump_passes(deal, pending) else _NE_PROKHODIT]
    return []  # a plugin's question: its answers come from deberc_extra_calls


def may_demand_show(deal: Deal, seat: int) -> bool:
    best = deal.talk.best
    return (
        best is not None
        and deal.phase == PLAY
        and deal.side_of(best.seat) != deal.side_of(seat)
        and best.seat not in deal.talk.shown
        and seat not in deal.talk.asked_show
        and len(deal.tricks) <= 1
        and not (deal.tricks and deal.trick.cards)
    )


def may_bella(deal: Deal, seat: int) -> bool:
    talk = deal.talk
    if talk.bella_owner != seat or talk.bella_declared:
        return False
    assert deal.trump is not None
    king, queen = bella_cards(deal.trump)
    hand = deal.hands[seat]
    if king not in hand and queen not in hand:  # not a generator: asked every move
        return False
    if deal.rules.settings.bella_after_trick:
        return deal.took_trick(seat)  # the owner himself, not his partner
    return True


def best_trump_sequence(deal: Deal, seat: int) -> Combo | None:
    key = deal.rules.combo_key
    trumps = [c for c in deal.combos_of(seat) if c.suit == deal.trump]
    return max(trumps, key=lambda c: key(c, deal.trump), default=None)


def _trump_passes(deal: Deal, pending: Pending) -> bool:
    """Whether the asker's trump sequence beats the answerer's combinations that can
    still count (docs/rules.md §2): those he has spoken of, or may still declare. One
    who played his first card without a word has none left, and the answer must not
    tell what his hand held."""
    theirs = best_trump_sequence(deal, pending.asker)
    answerer = pending.answerer
    silent = answerer not in deal.talk.talked
    if silent and (deal.tricks or answerer in deal.talk.window_hands):
        return True
    mine = deal.best_combo(answerer)
    if theirs is None or mine is None:
        return True
    return not deal.beats(answerer, mine, pending.asker, theirs)


# The talk's calls without arguments: calls are immutable, one of each serves every deal
(
    _MENYAYU,
    _PROKHODIT_Q,
    _ROST,
    _PISHET,
    _POKAZYVAYU,
    _SKIN,
    _NE_MENYAYU,
    _PROKHODIT,
    _NE_PROKHODIT,
) = (
    Call(name)
    for name in (
        C.MENYAYU,
        C.PROKHODIT_Q,
        C.ROST,
        C.PISHET,
        C.POKAZYVAYU,
        C.SKIN,
        C.NE_MENYAYU,
        C.PROKHODIT,
        C.NE_PROKHODIT,
    )
)

_SEVEN_OF = tuple(make(SEVEN, suit) for suit in range(4))  # the seven of each suit


def top_call(deal: Deal, combo: Combo) -> Call:
    """The answer that names ``combo``'s top: ``ot-RANK``, ``-kozyrnogo`` in trump."""
    return Call(C.OT, rank=combo.top & 7, trump=combo.suit == deal.trump)


def declaration(deal: Deal, seat: int, category: int) -> Call:
    count = sum(1 for c in deal.combos_of(seat) if c.category == category)
    return Call(CATEGORY_NAMES[category], count=count)


# ------------------------------------------------------------- carrying talk out
def do_prokhodit_q(deal: Deal, seat: int, call: Call) -> None:
    deal.talk.asked_pass.add(seat)
    n = deal.players
    later = ((seat + i) % n for i in range(1, n))
    opponents = [s for s in later if deal.side_of(s) != deal.side_of(seat)]
    deal.talk.pending = Pending(Question.PROKHODIT, seat, opponents[0], tuple(opponents[1:]))


def do_prokhodit(deal: Deal, seat: int, call: Call) -> None:
    pending = deal.talk.pending
    assert pending is not None
    if pending.queue:  # every opponent answers for his own combinations
        deal.talk.pending = Pending(
            Question.PROKHODIT, pending.asker, pending.queue[0], pending.queue[1:]
        )
    else:
        deal.talk.pending = None


def do_declare(deal: Deal, seat: int, call: Call) -> None:
    talk = deal.talk
    talk.talked.add(seat)
    talk.declared_combos[seat] = deal.combos_of(seat)
    combo = deal.best_combo(seat)
    assert combo is not None
    talk.best = Declaration(seat, combo.category, combo)


def do_rost_q(deal: Deal, seat: int, call: Call) -> None:
    talk = deal.talk
    best = talk.best
    assert best is not None
    talk.talked.add(seat)
    talk.declared_combos[seat] = deal.combos_of(seat)
    # pairs: the declarer answers for his pair; his partner takes the declaration over
    # only when the asker's beats the declarer's and not his (taking it over when the
    # declarer's own wins would cost the declarer his other sequences, docs/rules.md §8)
    mine = deal.best_combo(seat, best.category)
    if mine is not None and deal.beats(seat, mine, best.seat, best.combo):
        for partner in deal.sides[deal.side_of(best.seat)]:
            theirs = deal.best_combo(partner, best.category)
            if (
                partner != best.seat
                and theirs is not None
                and not deal.beats(seat, mine, partner, theirs)
            ):
                best = Declaration(partner, best.category, theirs)
    talk.best = best
    talk.pending = Pending(Question.ROST, seat, best.seat)


def do_ot(deal: Deal, seat: int, call: Call) -> None:
    talk = deal.talk
    pending = talk.pending
    assert pending is not None and talk.best is not None
    if pending.kind == Question.ROST:
        talk.best.top_told = True
        talk.pending = Pending(Question.ROST_REPLY, pending.asker, pending.asker)
        return
    combo = deal.best_combo(seat, talk.best.category)
    assert combo is not None
    talk.best = Declaration(seat, combo.category, combo, top_told=True)
    talk.pending = None


def do_pishet(deal: Deal, seat: int, call: Call) -> None:
    deal.talk.pending = None


def do_pokazhi(deal: Deal, seat: int, call: Call) -> None:
    talk = deal.talk
    assert talk.best is not None
    talk.asked_show.add(seat)
    talk.pending = Pending(Question.SHOW, seat, talk.best.seat)


def do_skin(deal: Deal, seat: int, call: Call) -> None:
    talk = deal.talk
    assert talk.pending is not None
    talk.skin_owed[talk.pending.asker] = seat
    talk.pending = None


def do_bella(deal: Deal, seat: int, call: Call) -> None:
    deal.talk.bella_declared = True


def show(deal: Deal, seat: int) -> Shown | None:
    """Put the seat's declared combinations face up; what to tell (once, not twice)."""
    # Only the declared category goes face up (docs/rules.md §3, the table talk, 5):
    # his other sequences are added after the first trick, and showing them now
    # would leak hidden cards.
    talk = deal.talk
    combos = deal.combos_of(seat)
    best = talk.best
    if best is not None and best.seat == seat:
        category = best.category  # a partner answering rost? shows that length only
    else:
        category = max(c.category for c in combos)  # he declared his longest
    new = seat not in talk.shown  # shown twice (skin, then asked again): told once
    talk.shown[seat] = [c for combo in combos if combo.category == category for c in combo.cards]
    return Shown(seat, tuple(talk.shown[seat])) if new else None
