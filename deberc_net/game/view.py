"""What one seat (or an observer) may see: computed here and nowhere else.

A view holds the seat's own hand and what lies open on the table: the turned card, the
fresa (unless hidden), played cards, the calls spoken aloud, combinations shown. It never
holds another seat's hand, the talon, or the deck order of a deal still in play.
"""

from __future__ import annotations

from typing import Any

import attrs

from .calls import KONETS, PLAY
from .cards import Card, sort_hand
from .combos import BELLA_POINTS
from .deal import PLAY as PLAY_PHASE
from .match import Match


@attrs.frozen
class SeatView:
    seat: int | None  # None for an observer
    names: tuple[str, ...]
    deal_no: int
    dealer: int
    phase: str
    bid_round: int
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    turned: Card | None
    fresa: Card | None
    trump: int | None
    player: int | None
    first_trump: bool
    leader: int  # who led the current trick
    trick: tuple[tuple[int, Card], ...]
    last_trick: tuple[tuple[int, Card], ...]
    last_trick_winner: int | None
    tricks_taken: tuple[int, ...]
    talk: tuple[tuple[int, str], ...]  # (seat, call token) spoken this deal, cards included
    shown: dict[int, tuple[Card, ...]]
    pending: tuple[str, int, int] | None  # (question, asker, answerer)
    totals: tuple[int, ...]
    hanging: int
    target: int | None
    legal: tuple[str, ...]
    last_record: dict[str, Any] | None  # the previous deal in full, once it is over
    winner: int | None
    game: tuple[tuple[str, Any], ...] = ()  # a whole new game's own fields (Deal.view_fields)
    # the seat's own: what its declaration open now declares with it (Deal.declares);
    # for a person's prompt, not a machine field
    declares: tuple[str, tuple[str, ...]] | None = None
    # the seat's own: konets is legal but its side could not reach the target in this
    # deal even with every point still in play, so a person's prompt does not offer it
    # (docs/rules.md §10); not a machine field: ``legal`` lists it
    konets_out_of_reach: bool = False
    # hanging-separate: the sums waiting for the deals after this one (``hanging`` is
    # this deal's), in order: the machine line's ``hanging_after``
    hanging_after: tuple[int, ...] = ()
    # Settings.stake_in_play (dave): what the deal is played for now, else None
    stake: int | None = None
    # the places in ``talk`` of the calls the clock made (auto=1): a person's 'state'
    # marks them as the table said them; not a machine field
    talk_auto: tuple[int, ...] = ()


def view(match: Match, seat: int | None) -> SeatView:
    deal = match.deal
    settings = match.rules.settings
    in_play = deal.phase == PLAY_PHASE or deal.tricks
    last = deal.tricks[-1] if deal.tricks else None
    pending = deal.pending
    own = tuple(sort_hand(deal.hands[seat], deal.trump)) if seat is not None else ()
    # 4 players: the turned card lies in the dealer's hand once the game is ordered.
    turned_open = not (settings.turned_to_dealer and in_play)
    legal = tuple(c.token() for c in match.legal_calls(seat)) if seat is not None else ()
    return SeatView(
        seat=seat,
        names=tuple(match.names),
        deal_no=deal.deal_no,
        dealer=deal.dealer,
        phase=deal.phase,
        bid_round=deal.bid_round,
        to_act=match.to_act,
        hand=own,
        hand_sizes=tuple(len(h) for h in deal.hands),
        turned=deal.turned if turned_open else None,
        fresa=deal.fresa if settings.fresa_visible else None,
        trump=deal.trump,
        player=deal.player,
        first_trump=deal.first_trump,
        leader=deal.trick.leader,
        trick=tuple(deal.trick.cards),
        last_trick=tuple(last.cards) if last else (),
        last_trick_winner=last.winner if last else None,
        tricks_taken=tuple(deal.tally.tricks_taken),
        talk=tuple((e.seat, e.call.token()) for e in deal.log if e.call.name != PLAY),
        talk_auto=tuple(
            i for i, e in enumerate(e for e in deal.log if e.call.name != PLAY) if e.auto
        ),
        shown={s: tuple(cards) for s, cards in deal.shown.items()},
        pending=(pending.kind, pending.asker, pending.answerer) if pending else None,
        totals=tuple(match.totals),
        hanging=match.hanging,
        target=settings.target,
        legal=legal,
        last_record=match.records[-1] if match.records else None,
        winner=match.result.winner if match.result else None,
        game=deal.view_fields(seat),
        declares=deal.declares(seat) if seat is not None else None,
        konets_out_of_reach=KONETS in legal and konets_out_of_reach(match, seat),
        hanging_after=match.hanging_pending,
        stake=int(deal.extra.get("stake", 1)) if settings.stake_in_play else None,
    )


def konets_out_of_reach(match: Match, seat: int | None) -> bool:
    """Whether ``seat``'s side could not reach the target in this deal even if every
    point still in play went to it (docs/rules.md §10): its total and points so far,
    the cards not yet in a trick (Deal.points_in_play: what the tricks seen leave of
    the deck), the last trick's bonus and a bella not yet said. Never whether a konets
    now would be true: that is the player's own count, and the offer must not tell it."""
    target = match.rules.settings.target
    if seat is None or target is None:
        return False
    deal = match.deal
    trump = deal.trump
    if trump is None:  # (a claim comes after a trick: the trump is known)
        return False
    in_play = deal.points_in_play()  # (a claim comes before the last trick)
    if not deal.talk.bella_declared:
        in_play += BELLA_POINTS
    if in_play <= 0:
        # nothing left to win (a game of its own card values, no last trick's bonus,
        # the bella said): the reach is the claim's own check, and leaving the offer
        # out would tell a false claim from a good one. Offered, as ever
        return False
    return deal.running_total(deal.side_of(seat)) + in_play < target


def offered(v: SeatView) -> tuple[str, ...]:
    """The calls a person's prompt offers: ``legal`` without a konets that could not
    matter (the call stays legal, and a false claim still loses)."""
    return tuple(t for t in v.legal if not (v.konets_out_of_reach and t == KONETS))
