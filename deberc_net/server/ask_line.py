"""A seat's ``ask`` line in the machine style, straight from the match's state.

Every call ends with one ``ask`` to the seat to act, and nearly every player is a
program: building the general ``SeatView`` (28 fields, most of them the human style's)
and formatting it field by field through the generic, checked formatter cost more than
the engine's move. This builds the same line (docs/protocol.md §6.3, the fields in
the same order, each value as ``wire.format_value`` writes it) from the deal directly.
``protocol/render.py``'s view and renderer stay the one definition of the line: the
tests compare the two on every state of many self-played matches
(tests/server/test_ask_line.py), and anything but the machine style uses them.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from deberc_net.game.calls import PLAY, PLAY_CALLS, Call
from deberc_net.game.cards import CARD_TEXT as _CARD
from deberc_net.game.cards import PLAIN_STRENGTH, SUITS, TRUMP_STRENGTH
from deberc_net.game.deal import PLAY as PLAY_PHASE
from deberc_net.game.deal import Deal
from deberc_net.game.events import CallMade, DealEvent, Penalized
from deberc_net.game.match import Match
from deberc_net.game.phases import Phase
from deberc_net.protocol.wire import NONE, SMALL, format_value

# each phase as format_value writes it
_PHASE = {phase: format_value(phase) for phase in Phase}
# a hand's display order (game/cards.py's sort_hand) for each trump (None: index 4), by
# card: dicts, whose ``__getitem__`` as a sort key costs a quarter less than a tuple's
# (a method-wrapper: ~180 instructions more a card, every ask)
_ORDER = tuple(
    {
        c: (c >> 3) * 8 + (TRUMP_STRENGTH[c & 7] if c >> 3 == trump else PLAIN_STRENGTH[c & 7])
        for c in range(32)
    }
    for trump in (0, 1, 2, 3, None)
)


def _game_value(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join([_CARD[c] for c in value])
    return format_value(value)


def _call_text(call: Call) -> str:
    """A legal call as ``legal`` writes it: a card's call is its card's text."""
    return _CARD[call.card] if call.card is not None and call.name == PLAY else call.token()


# the events that log a call other than a card's (``Deal.log``'s entries but cards)
_CALL_EVENTS = (CallMade, Penalized)
_PLAY_TEXTS = {id(call): _call_text(call) for call in PLAY_CALLS}
_KEPT_CALLS = 64  # the other calls' texts a table keeps, at most


@attrs.define(eq=False)
class KeptTalk:
    """A deal's ``talk`` field, kept from one ask to the next (a table's): the deal's
    events only grow, and its calls other than cards (the field) are few and mostly
    made early, so each ask reads only the events since the last. With it, the
    text of each legal call the deal offered (most are the same objects every time:
    game/calls.py's PLAY_CALLS), by the call's identity."""

    history: list[DealEvent] | None = None  # the events read last (the deal's own list)
    upto: int = 0  # how many of them ``text`` tells of
    text: str = ""
    # id(call): its text in ``legal``, the cards' calls (game/calls.py's PLAY_CALLS,
    # which live as long as the process) from the start; the other calls kept with
    # their texts (an id is a call's only while it lives), a few dozen at most
    legal_texts: dict[int, str] = attrs.Factory(lambda: dict(_PLAY_TEXTS))
    legal_calls: list[Call] = attrs.Factory(list)
    # the ``tricks`` field's text and the ``score … target`` fields', with the numbers
    # they were written from (copies: the deal's and the match's lists change in place):
    # the tricks taken change once a trick, the totals once a deal, an ask every call
    tricks: list[int] = attrs.Factory(list)
    tricks_text: str = ""
    totals: list[int] = attrs.Factory(list)
    hanging: int = 0
    target: int | None = None
    score_text: str = ""

    def tricks_of(self, taken: list[int]) -> str:
        """The ``tricks`` field of ``taken`` (counts of tricks: small numbers)."""
        self.tricks, self.tricks_text = list(taken), ",".join([SMALL[n] for n in taken])
        return self.tricks_text

    def score_of(self, totals: list[int], hanging: int, target: int | None) -> str:
        """The ``score``, ``hanging`` and ``target`` fields, as the ask writes them."""
        self.totals, self.hanging, self.target = list(totals), hanging, target
        self.score_text = (
            f"score={','.join(map(str, totals))} hanging={hanging}"
            f" target={NONE if target is None else target}"
        )
        return self.score_text

    def of(self, deal: Deal) -> str:
        """The deal's calls but its cards, each ``seat:token``, in order: ``Deal.log``'s
        entries, read off the events the log is made of (a call's ``CallMade`` or
        ``Penalized``; a card's ``CardPlayed`` is a card), without making the log's
        entries (one a move, read by nothing else between deals)."""
        history = deal.history
        if history is not self.history:  # another deal (or a copy of one under way)
            self.history, self.upto, self.text = history, 0, ""
        upto = self.upto
        if upto < len(history):
            text = self.text
            for e in history[upto:]:  # (mostly one event, a card: a loop, not a comprehension)
                if isinstance(e, _CALL_EVENTS):
                    call = e.call
                    if call.name != PLAY:
                        said = f"{e.seat}:{call.token()}"
                        text = f"{text},{said}" if text else said
            self.text, self.upto = text, len(history)
        return self.text

    def remember(self, calls: Sequence[Call]) -> None:
        """Learn the text of each of ``calls`` not yet known."""
        texts = self.legal_texts
        if len(self.legal_calls) > _KEPT_CALLS:  # (talk calls made afresh: a few a deal)
            self.legal_calls.clear()
            texts.clear()
            texts.update(_PLAY_TEXTS)
        for call in calls:
            if id(call) not in texts:
                texts[id(call)] = _call_text(call)
                self.legal_calls.append(call)


def ask_line(
    kind: str,
    seq: int,
    table: int,
    match: Match,
    seat: int,
    clock_ms: int | None,
    talk_kept: KeptTalk | None = None,
) -> str:
    """What ``render(Ask(seq, table, view(match, seat), clock_ms, kind=kind))`` writes
    in the machine style, for a seated player (``seat`` not None); ``talk_kept``: the
    talk field kept from the last ask (a table's; None: read from the whole log)."""
    deal = match.deal
    settings = match.rules.settings
    # the deal's own list, not a copy (only read here): the call's check reads it again
    # (Match.legal_calls' rule kept: none once the match is over)
    legal_calls = deal.shared_legal_calls(seat) if match.result is None else ()
    trump = deal.trump
    order = _ORDER[4 if trump is None else trump].__getitem__
    # (lists made by comprehension, not ``map`` over ``CARD_TEXT.__getitem__``: a
    # tuple's is a method-wrapper, a wrapped call an item; a hand's list is short)
    hand = ",".join([_CARD[c] for c in sorted(deal.hands[seat], key=order)])
    # 4 players: the turned card lies in the dealer's hand once the game is ordered
    phase = deal.phase
    in_play = phase == PLAY_PHASE or deal.tricks
    turned = deal.turned if not (settings.turned_to_dealer and in_play) else None
    fresa = deal.fresa if settings.fresa_visible else None
    # a deal of the engine's own kind (most): its talk's question and shown cards read
    # straight off the talk, and no fields of a game of its own to ask for (three calls
    # fewer: every call); another kind (a plugin's deal class) is asked as usual
    plain = not deal.own_view  # (the class's, set once a class: game/deal.py)
    talk_state = deal.talk
    asked = talk_state.pending if plain else deal.pending
    pending = NONE if asked is None else f"{asked.kind}:{asked.asker}:{asked.answerer}"
    shown = talk_state.shown if plain else deal.shown  # (most deals show nothing)
    shown_text = (
        ",".join([f"{s}:{_CARD[c]}" for s, cards in sorted(shown.items()) for c in cards])
        if shown
        else ""
    )
    talk = (
        ",".join([f"{e.seat}:{e.call.token()}" for e in deal.log if e.call.name != PLAY])
        if talk_kept is None
        else talk_kept.of(deal)
    )
    if talk_kept is None:
        legal = ",".join(map(_call_text, legal_calls))
    else:  # (read by the calls' identity: no call of its own for a known one)
        texts = talk_kept.legal_texts
        try:
            legal = ",".join([texts[id(call)] for call in legal_calls])
        except KeyError:
            talk_kept.remember(legal_calls)
            legal = ",".join([texts[id(call)] for call in legal_calls])
    # (None is NONE, the rest str(), a text's spaces '_': format_value's rules, written
    # out for the fields that may be None or a text; the line is built once every call)
    # an ask goes to the seat to act (a state line says who that is)
    to_act = seat if kind == "ask" else match.to_act
    player, target = deal.player, settings.target
    phase_text = _PHASE.get(phase) or format_value(phase)
    taken, totals, hanging = deal.tally.tricks_taken, match.totals, match.hanging
    kept = talk_kept if talk_kept is not None else KeptTalk()
    # (the kept texts when their numbers are the same: a comparison, not a method's call)
    tricks = kept.tricks_text if taken == kept.tricks else kept.tricks_of(taken)
    score = (
        kept.score_text
        if totals == kept.totals and hanging == kept.hanging and target is kept.target
        else kept.score_of(totals, hanging, target)
    )
    deal_no = deal.deal_no
    # seats, the round and the player count by SMALL's texts (a deal's number mostly)
    line = (
        f"{kind} seq={seq} table={table} deal={SMALL[deal_no] if deal_no < 64 else deal_no}"
        f" phase={phase_text} seat={SMALL[seat]} dealer={SMALL[deal.dealer]}"
        f" to_act={NONE if to_act is None else SMALL[to_act]}"
        f" hand={hand}"
        f" turned={NONE if turned is None else _CARD[turned]}"
        f" fresa={NONE if fresa is None else _CARD[fresa]}"
        f" trump={NONE if trump is None else SUITS[trump]}"
        f" player={NONE if player is None else SMALL[player]}"
        f" round={SMALL[deal.bid_round]} leader={SMALL[deal.trick.leader]}"
        f" trick={','.join([_CARD[c] for _, c in deal.trick.cards])}"
        f" tricks={tricks} {score}"
        f" pending={pending}"
        f" shown={shown_text} talk={talk.replace(' ', '_')}"
        f" clock={NONE if clock_ms is None else clock_ms}"
        f" legal={legal.replace(' ', '_')} players={SMALL[len(match.names)]}"
    )
    game = () if plain else deal.view_fields(seat)
    if game:  # a whole new game's own fields (Tertz: talon, their_tricks), appended
        line += "".join(f" {name}={_game_value(x)}" for name, x in game)
    if match.hanging_pending:  # hanging-separate's later sums, appended (protocol.md §1)
        line += f" hanging_after={','.join(map(str, match.hanging_pending))}"
    if settings.stake_in_play:  # dave: the deal's stake now, appended (protocol.md §6.3)
        line += f" stake={int(deal.extra.get('stake', 1))}"
    return line
