"""A Tertz deal (docs/rules.md, Tertz): the engine's ``Deal`` with a talon to draw from.

Nine cards each, three at a time, the dealer last; the next card is turned for trump and
lies on the talon, the rest is drawn from under it. No bidding: the deal starts in play,
the dealer's opponent leading. After each trick both draw (the winner first) back to
nine; after the first trick the loser breaks the deck first (``lomayu-N``: N cards from
the top go under the bottom). When the talon is gone, follow and beat.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import attrs

from deberc_net.game import calls as C
from deberc_net.game import errors as E
from deberc_net.game import scoring
from deberc_net.game import talk as T
from deberc_net.game.calls import Call
from deberc_net.game.cards import SEVEN, Card, card_str, make, suit_of
from deberc_net.game.combos import CATEGORY_NAMES, Combo, holds_bella, rank_order
from deberc_net.game.deal import DONE, PLAY, TALK, Deal, Pending, Trick
from deberc_net.game.events import DealEvent, Shown, in_telling_order
from deberc_net.game.refusals import pokazhi_refused

from .cards import card_points, legal_cards
from .combos import CALLS, find_combos, is_new

HUNDRED = "sto"  # "a hundred", said alone: it heads the hundreds' calls (combos.WORDS)

HAND = 9  # a seat declares before its move while it holds nine cards

BREAK_Q = "lomayu"  # the question after the first trick: how many cards to move
BREAK = "lomayu"  # its answer, lomayu-N
LOOK_WHILE = 4  # the taken tricks are open while the talon holds at least this many
SWAP_WHILE = 2  # the trump seven may be exchanged while the talon holds this many
SWAP_UNTIL_TWO = "tertz-swap-until-two"  # the option: only while more than two are left


def break_call(n: int) -> Call:
    return Call(f"{BREAK}-{n}")


def broken_by(call: Call) -> int | None:
    """N of a ``lomayu-N`` call, or None for any other call."""
    head, _, n = call.name.partition("-")
    return int(n) if head == BREAK and n.isdigit() else None


@attrs.define(eq=False)
class TertzDeal(Deal):
    talk_calls: ClassVar[frozenset[str]] = TALK | frozenset(CALLS.values())

    broken: int | None = attrs.field(init=False, default=None)  # N of lomayu-N
    turned_drawn: bool = attrs.field(init=False, default=False)
    draws: list[tuple[int, Card]] = attrs.field(init=False, factory=list)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        if self.players != 2:
            raise ValueError("Tertz is a game for two")
        self.trump = suit_of(self.turned)  # the turned card is trump: nobody bids
        self.first_trump = True
        self.phase = PLAY
        self._find_bella_owner()

    def copy(self) -> Self:
        """The engine's copy, with the draws of its own (``Deal.copy``)."""
        new = super().copy()
        new.draws = list(self.draws)
        return new

    # ------------------------------------------------------------------ the talon
    def talon_left(self) -> int:
        """Cards still to draw, the turned trump included."""
        return len(self.talon) + (0 if self.turned_drawn else 1)

    # ------------------------------------------------------------ combinations
    def standing(self, seat: int) -> list[Combo]:
        """The seat's declared combinations that still stand (a longer run declared
        later replaces the one it grew from)."""
        return self.talk.declared_combos.get(seat, [])

    def may_declare_now(self, seat: int) -> bool:
        """On its turn, before its card, nothing pending, nine cards in hand."""
        return (
            self.phase == PLAY
            and self.talk.pending is None
            and self.turn == seat
            and len(self.hands[seat]) == HAND
        )

    def fresh_combos(self, seat: int) -> list[Combo]:
        """The combinations in the seat's hand it has not declared yet."""
        held = find_combos(self.hands[seat], self.trump, self.rules.settings.sequence_by_strength)
        declared = self.standing(seat)
        return [c for c in held if is_new(c, declared)]

    def combos_of(self, seat: int) -> list[Combo]:
        """What the talk reads: at a moment the seat may declare, its standing
        combinations with the fresh ones (those they replace left out); else only what
        it has declared."""
        declared = self.standing(seat)
        if not self.may_declare_now(seat):
            return declared
        fresh = self.fresh_combos(seat)
        return [c for c in declared if not _replaced(c, fresh)] + fresh

    def beats(self, seat_a: int, combo_a: Combo, seat_b: int, combo_b: Combo) -> bool:
        """Equal combinations: the one declared earlier, the table's best (seed 004:
        "the advantage is given to the one that was announced earlier")."""
        key = self.rules.combo_key
        best = self.talk.best
        if best is None or key(combo_a, self.trump) != key(combo_b, self.trump):
            return super().beats(seat_a, combo_a, seat_b, combo_b)
        return best.seat != seat_b

    # ---------------------------------------------------------------- legal calls
    def _compute_legal(self, seat: int) -> list[Call]:
        if self.phase == DONE:
            return []
        pending = self.talk.pending
        if pending is not None:
            if seat != pending.answerer:
                return self._with_extra(seat, [])
            if pending.kind == BREAK_Q:
                return [break_call(n) for n in range(1, len(self.talon))]
            return self._with_extra(seat, T.answers(self, pending))
        out: list[Call] = []
        if self._may_demand_show(seat):
            out.append(Call(C.POKAZHI))
        if seat != self.turn:
            return self._with_extra(seat, out)
        if self._may_swap(seat):
            out.append(Call(C.MENYAYU))
        out.extend(self._declarations(seat))
        if self._may_mariage(seat):
            out.append(Call(C.BELLA))
        out.extend(C.play(c) for c in self._legal_cards(seat))
        return self._with_extra(seat, out)  # an option's calls on top of Tertz

    def _legal_cards(self, seat: int) -> list[Card]:
        assert self.trump is not None
        return legal_cards(self.hands[seat], self.trick.cards, self.trump, self.talon_left() > 0)

    def _may_swap(self, seat: int) -> bool:
        assert self.trump is not None
        seven = make(SEVEN, self.trump)
        return (
            self._swap_open()
            and self.turned != seven
            and seven in self.hands[seat]
            and not self._seven_declared(seat, seven)
        )

    def _swap_open(self) -> bool:
        """Whether the talon still allows the exchange (docs/rules.md §12.3)."""
        left = self.talon_left()
        return left > SWAP_WHILE if SWAP_UNTIL_TWO in self.rules.options else left >= SWAP_WHILE

    def _seven_declared(self, seat: int, seven: Card) -> bool:
        """Whether the seven is in a combination the seat has declared: it stays in his
        hand (docs/rules.md §12.3, as §2 has it: what was declared must stay true)."""
        return any(seven in combo.cards for combo in self.standing(seat))

    def _may_mariage(self, seat: int) -> bool:
        return (
            not self.talk.bella_declared
            and self.talk.bella_owner == seat
            and holds_bella(self.hands[seat], self.trump)
        )

    def _may_demand_show(self, seat: int) -> bool:
        """pokazhi: the opponent holds the best declaration and has not shown it."""
        best = self.talk.best
        return (
            best is not None
            and self.phase == PLAY
            and best.seat != seat
            and seat not in self.talk.skin_owed
            and not self._best_shown()
        )

    def _best_shown(self) -> bool:
        """Are the best declaration's cards all face up (its declarer showed them)?"""
        best = self.talk.best
        assert best is not None
        return set(best.combo.cards) <= set(self.talk.shown.get(best.seat, ()))

    def _declarations(self, seat: int) -> list[Call]:
        """Before his move while he holds nine cards: his highest fresh class if it is
        higher than the best declared (or the best is his own), ``rost?`` if it is as
        high as the opponent's; under the opponent's best, nothing (it could not score)."""
        if not self.may_declare_now(seat):
            return []
        fresh = self.fresh_combos(seat)
        if not fresh:
            return []
        top = max(c.category for c in fresh)
        best = self.talk.best
        if best is None or top > best.category or best.seat == seat:
            return [self.declaration(top, fresh)]
        if top == best.category:
            return [Call(C.ROST)]
        return []

    def declares(self, seat: int) -> tuple[str, tuple[str, ...]] | None:
        """The declaration (or ``rost?``) open to the seat declares every fresh
        combination, named by the highest class alone (docs/rules.md §12.5): with more
        than one class among them, which (``sto-shest`` with ``terts``)."""
        said = self._declarations(seat)
        if not said:
            return None
        fresh = self.fresh_combos(seat)
        classes = sorted({c.category for c in fresh}, reverse=True)
        if len(classes) < 2:
            return None  # its name says it all (dva-tertsa: two terts)
        return said[0].token(), tuple(self.declaration(c, fresh).token() for c in classes)

    def declaration(self, category: int, fresh: list[Combo]) -> Call:
        """The call that declares ``fresh``, named by its highest class (terts and
        pyatdesyat with their count: dva-tertsa)."""
        if category in CALLS:
            return Call(CALLS[category])
        count = sum(1 for c in fresh if c.category == category)
        return Call(CATEGORY_NAMES[category], count=count)

    # ------------------------------------------------------------ show-combination
    def apply(self, seat: int, call: Call, *, ms: int = 0, auto: bool = False) -> list[DealEvent]:
        """The engine's, and with ``show-combination`` a best declaration made at a later
        trick goes face up with its declarer's next card, as one made at the first does."""
        told = super().apply(seat, call, ms=ms, auto=auto)
        if call.name != C.PLAY or not self._owes_show(seat):
            return told
        self._engine_shows(seat)
        return in_telling_order(told + self._take_told())

    def _owes_show(self, seat: int) -> bool:
        best = self.talk.best
        return (
            self.rules.settings.show_combination
            and self.phase != DONE
            and best is not None
            and best.seat == seat
            and not self._best_shown()
        )

    # ------------------------------------------------------------ Tertz's own calls
    def carry_out(self, seat: int, call: Call) -> bool:
        """A legal call of Tertz's own (the engine has no handler for it)."""
        n = broken_by(call)
        if n is not None:
            self.talon = self.talon[n:] + self.talon[:n]
            self.broken = n
            self.talk.pending = None
            winner = self.tricks[0].winner
            assert winner is not None
            self._draw(winner)
            return True
        if call.name in CALLS.values():
            self.talk.declared_calls.setdefault(seat, []).append(call.token())
            T.do_declare(self, seat, call)
            return True
        return False

    # ------------------------------------------------------------------ refusals
    def why_not(self, seat: int, call: Call) -> E.IllegalCall:
        """Tertz's reasons; the engine's for what the two games share."""
        pending = self.talk.pending
        if self.phase == DONE or (pending is not None and pending.kind != BREAK_Q):
            return super().why_not(seat, call)
        if pending is not None:
            if seat != pending.answerer:
                return E.AnswerRequired(f"seat {pending.answerer} breaks the deck first")
            return E.AnswerRequired(
                f"break the deck first: lomayu-1 … lomayu-{len(self.talon) - 1}"
            )
        if broken_by(call) is not None:
            return E.NotAllowed("the loser of the first trick breaks the deck, once, after it")
        # Deberts' calls Tertz has no use for: said in its own words, not as if Deberts
        # were played here with its moment gone (docs/rules.md §12.1, §12.5)
        if call.name in (C.PAS, C.IGRAYU):
            return E.NotAllowed("Tertz has no bidding: the turned card's suit is trump")
        # (its answers: no question to; 'prokhodit' conceding ot chego? is read as
        # pishet where that is legal, so this one only answers prokhodit?)
        if call.name in (C.PROKHODIT_Q, C.PROKHODIT, C.NE_PROKHODIT):
            return E.NotAllowed("Tertz has no prokhodit?: ask a declaration with rost?")
        if call.name == C.SEVENS:  # Deberts's redeal (seed 003); Tertz's text has none
            return E.NotAllowed("Tertz has no redeal for four sevens: the deal is played")
        if call.name == C.POKAZHI:  # (its window: until the declaration is shown)
            return pokazhi_refused(self, seat, until_shown=True)
        if seat != self.turn:
            return super().why_not(seat, call)
        if call.name in (C.TERTS, C.PYATDESYAT, HUNDRED, *CALLS.values()):
            # (a bare 'sto' none of whose hundreds is legal comes here too: a club
            # evening's «сто» was told only "cannot be said now")
            return self._why_not_declare(seat, call)
        if call.name == C.ROST:
            return self._why_not_rost(seat)
        if call.name == C.MENYAYU:
            return E.NotAllowed(self._why_not_swap(seat))
        if call.name == C.BELLA:
            return E.NotAllowed("mariage: the trump K and Q in your hand, on your turn, once")
        if call.name == C.PLAY and call.card is not None:
            return self._why_not_card(seat, call.card)
        return super().why_not(seat, call)

    def _why_not_swap(self, seat: int) -> str:
        """What stops this seat's exchange of the trump 7 (docs/rules.md §12), its own
        case first, in the engine's words where they are the same."""
        assert self.trump is not None
        seven = make(SEVEN, self.trump)
        # the talon first: once it is drawn the turned card is in a hand (the seven's
        # too, drawn last after a swap) and the swap is over for everyone
        if not self._swap_open():
            return self._swap_rule()
        if self.turned == seven:  # turned so, or exchanged already
            return "the turned card is the trump 7 itself: there is nothing to swap"
        if seven not in self.hands[seat]:
            return f"you do not hold the trump 7 ({card_str(seven)})"
        if self._seven_declared(seat, seven):
            return "the trump 7 is in a combination you declared: it stays in your hand"
        return self._swap_rule()

    def _swap_rule(self) -> str:
        if SWAP_UNTIL_TWO in self.rules.options:
            return "the trump 7 takes the turned card while the talon holds more than two cards"
        return (
            "the trump 7 takes the turned card on its holder's turn, while the talon "
            "holds two cards or more"
        )

    def _why_not_declare(self, seat: int, call: Call) -> E.IllegalCall:
        if len(self.hands[seat]) != HAND:
            return E.NotAllowed("combinations are declared before your move, with nine cards")
        fresh = self.fresh_combos(seat)
        if not fresh:
            if self.standing(seat):
                return E.NotAllowed("you have declared every combination you hold")
            return E.FalseDeclaration("you hold no combination")
        top = max(c.category for c in fresh)
        right = self.declaration(top, fresh)
        if call.name == HUNDRED and right.name.startswith(f"{HUNDRED}-"):
            call = right  # his hundred, whichever: refused for what stops it
        if call != right:
            return E.FalseDeclaration(
                f"you do not hold {call.token()}; yours to declare is {right.token()}"
            )
        best = self.talk.best
        if best is not None and best.category > top:
            # rost? is no way out here: the opponent's class is higher (a club evening
            # was told "rost? or nothing" and rost? was refused too)
            return E.NotAllowed("a higher combination is declared: yours would not score")
        return E.NotAllowed("a combination as high is declared: ask rost?")

    def _why_not_rost(self, seat: int) -> E.IllegalCall:
        """Tertz's rost? is open at every trick while the seat holds nine cards, not
        only before its first card as in Deberts (docs/rules.md §12.5)."""
        best = self.talk.best
        if best is None:  # the engine's case (a tryout at nine cards, on his turn, was
            return super().why_not(seat, Call(C.ROST))  # told the conditions he met)
        if best.seat == seat:
            return E.NotAllowed("the best declaration is your own: rost? asks the opponent's")
        if not self.may_declare_now(seat):
            return E.NotAllowed(
                "rost? asks the opponent's best declaration, on your turn before your card, "
                "at any trick while you hold nine cards"
            )
        fresh = self.fresh_combos(seat)
        if fresh and max(c.category for c in fresh) > best.category:
            return E.ForbiddenRost("you hold a higher combination: declare it instead")
        return E.ForbiddenRost("you hold no undeclared combination of the declared one's class")

    def _why_not_card(self, seat: int, card: Card) -> E.IllegalCall:
        hand, trump = self.hands[seat], self.trump
        if card not in hand:
            return E.NotInHand(f"{card_str(card)} is not in your hand")
        led = self.trick.cards[0][1]
        if card >> 3 != led >> 3 and any(c >> 3 == led >> 3 for c in hand):
            return E.MustFollowSuit(f"you hold {'shdc'[led >> 3]}: follow suit")
        if card >> 3 == led >> 3:  # after the talon: a card of the suit that does not beat
            return E.MustBeat(f"the talon is gone: beat {card_str(led)} if you can")
        if card >> 3 != trump:
            return E.MustTrump("you have no card of the led suit: play a trump")
        return E.NotAllowed(f"you may not play {card_str(card)} now")

    # -------------------------------------------------------------------- tricks
    def _trick_points(self, cards: tuple[Card, ...], trump: int) -> int:
        return sum(card_points(c, trump) for c in cards)  # Tertz's own values

    def _finish_trick(self) -> None:
        winner, _ = self._take_trick()
        self._settle()
        if not self.hands[winner]:
            scoring.score_played(self)
            return
        self.turn = winner
        self.trick = Trick(winner)
        if not self.talon_left():
            return
        if self.broken is None:  # the loser breaks the deck; the winner waits for it
            self.talk.pending = Pending(BREAK_Q, winner, (winner + 1) % 2)
            return
        self._draw(winner)

    def _settle(self) -> None:
        """Whose declarations score, from everything declared so far: the owner of the
        best writes all his standing combinations (docs/rules.md §12.5)."""
        winners = self.rules.combo_winners(self)
        self.tally.scoring_combos = {s: list(c) for s in winners if (c := self.standing(s))}

    def _show(self, seat: int) -> None:
        """pokazyvayu: the declared class of what the seat has declared goes face up
        (never a combination it holds undeclared), added to what it showed before (a
        later declaration is shown too), told once per card."""
        standing = self.standing(seat)
        if not standing:
            return
        best = self.talk.best
        top = max(c.category for c in standing)
        category = best.category if best is not None and best.seat == seat else top
        cards = [c for combo in standing if combo.category == category for c in combo.cards]
        before = list(self.talk.shown.get(seat, ()))
        added = [c for c in cards if c not in before]
        # what lies face up is listed as runs read, by suit: a run grown under the one
        # shown before is J♠ Q♠ K♠ A♠, not Q♠ K♠ A♠ J♠
        by_strength = self.rules.settings.sequence_by_strength
        orders = {s: rank_order(by_strength, s, self.trump) for s in range(4)}
        self.talk.shown[seat] = sorted(
            before + added, key=lambda c: (suit_of(c), orders[suit_of(c)].index(c & 7))
        )
        if added:
            self._tell(Shown(seat, tuple(added)))

    def _draw(self, first: int) -> None:
        for seat in (first, (first + 1) % 2):
            if self.talon:
                card = self.talon.pop(0)
            else:  # the turned trump is the last card of the talon
                card, self.turned_drawn = self.turned, True
            self.hands[seat].append(card)
            self.draws.append((seat, card))
        if not self.talk.bella_declared:
            self._find_bella_owner()

    # ------------------------------------------------------- records and views
    def record_extra(self) -> dict[str, Any]:
        return {
            "talon_broken": self.broken,
            "draws": [[seat, card_str(card)] for seat, card in self.draws],
        }

    def view_fields(self, seat: int | None) -> tuple[tuple[str, Any], ...]:
        left = self.talon_left()
        theirs: tuple[Card, ...] | None = None
        if seat is not None and left >= LOOK_WHILE:
            theirs = tuple(c for t in self.tricks if t.winner != seat for _, c in t.cards)
        return (("talon", left), ("their_tricks", theirs))


def _replaced(old: Combo, fresh: list[Combo]) -> bool:
    """A declared run that a longer fresh run grew from (they share a card)."""
    return old.suit >= 0 and any(f.suit >= 0 and set(f.cards) & set(old.cards) for f in fresh)
