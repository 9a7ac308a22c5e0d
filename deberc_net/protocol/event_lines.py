"""A table event's ``event`` line in the machine style, one template per kind.

Nearly every line a table tells is an event (a card played, a trick taken, a call), and
nearly every listener is a program. The generic way (protocol/render.py's ``_told``
fields through ``wire.format_line``, one ``format_value`` per field) costs a call per
field; here each kind's tag, keyword, field names and order are written once, so a line
is one f-string of its values, each written as ``wire.format_value`` writes it.
``render._told`` stays the definition of every kind's fields (the human style's plain
form reads them too): the tests compare the two on every kind and on every event of
self-played matches (tests/protocol/test_event_lines.py). A field added to a kind is
appended in both (docs/protocol.md §1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from deberc_net.game import events as g
from deberc_net.game.cards import CARD_TEXT as _CARD
from deberc_net.game.cards import SUITS

from . import events as ev
from .wire import NONE, SMALL, format_value

_card = _CARD.__getitem__


def _cards(cards: Iterable[int]) -> str:
    return ",".join(map(_card, cards))


def _numbers(numbers: Iterable[int] | None) -> str:
    return NONE if numbers is None else ",".join(map(str, numbers))


def _after(pending: tuple[int, ...]) -> str:
    """hanging-separate's sums waiting after ``hanging``'s deal, appended (§1) only when
    there are any (docs/protocol.md §9.6)."""
    return f" hanging_after={_numbers(pending)}" if pending else ""


# (seats, winners, players written by SMALL's texts: a number's conversion a line less)
def _call(seq: int, table: int, e: g.CallMade) -> str:
    return (
        f"event seq={seq} table={table} kind=call seat={SMALL[e.seat]}"
        f" call={format_value(e.call.token())} auto={'1' if e.auto else '0'}"
    )


def _play(seq: int, table: int, e: g.CardPlayed) -> str:
    return (
        f"event seq={seq} table={table} kind=play seat={SMALL[e.seat]}"
        f" card={_CARD[e.card]} auto={'1' if e.auto else '0'}"
    )


def _penalty(seq: int, table: int, e: g.Penalized) -> str:
    return (
        f"event seq={seq} table={table} kind=penalty seat={SMALL[e.seat]}"
        f" call={format_value(e.call.token())} code={format_value(e.code)}"
    )


def _order(seq: int, table: int, e: g.Ordered) -> str:
    fresa = NONE if e.fresa is None else _CARD[e.fresa]
    return (
        f"event seq={seq} table={table} kind=order player={SMALL[e.player]}"
        f" trump={SUITS[e.trump]} first={'1' if e.first else '0'} fresa={fresa}"
    )


def _dealt(seq: int, table: int, e: g.Dealt) -> str:
    fresa = NONE if e.fresa is None else _CARD[e.fresa]
    return f"event seq={seq} table={table} kind=dealt fresa={fresa}"


def _trick(seq: int, table: int, e: g.TrickTaken) -> str:
    return (
        f"event seq={seq} table={table} kind=trick winner={SMALL[e.winner]}"
        f" cards={','.join([_CARD[c] for c in e.cards])}"
    )


def _shown(seq: int, table: int, e: g.Shown) -> str:
    return f"event seq={seq} table={table} kind=shown seat={SMALL[e.seat]} cards={_cards(e.cards)}"


def _start(seq: int, table: int, e: g.MatchStarted) -> str:
    return (
        f"event seq={seq} table={table} kind=start players={format_value(e.players)}"
        f" match={format_value(e.match)}"
    )


def _deal(seq: int, table: int, e: g.DealStarted) -> str:
    return (
        f"event seq={seq} table={table} kind=deal deal={e.deal} dealer={e.dealer}"
        f" turned={_CARD[e.turned]} score={_numbers(e.score)} hanging={e.hanging}"
        + _after(e.pending)
    )


def _deal_end(seq: int, table: int, e: g.DealEnded) -> str:
    return (
        f"event seq={seq} table={table} kind=deal-end deal={e.deal}"
        f" outcome={format_value(e.outcome)} points={_numbers(e.points)}"
        f" written={_numbers(e.written)} totals={_numbers(e.totals)} hanging={e.hanging}"
        + _after(e.pending)
    )


def _match_end(seq: int, table: int, e: g.MatchEnded) -> str:
    winner = NONE if e.winner is None else e.winner
    forfeit = "" if e.forfeit is None else f" forfeit={e.forfeit}"
    match = "" if e.match is None else f" match={format_value(e.match)}"  # its record's id
    deals = "" if e.deals is None else f" deals={e.deals}"
    rematch = "" if e.rematch_s is None else f" rematch_s={e.rematch_s}"  # appended last (§1)
    return (
        f"event seq={seq} table={table} kind=match-end winner={winner}"
        f" name={format_value(','.join(e.winners) or None)} reason={format_value(e.reason)}"
        f" totals={_numbers(e.totals)} seed={format_value(e.seed)}{forfeit}{match}{deals}"
        f"{rematch}"
    )


def _seat_event(kind: str) -> Callable[[int, int, Any], str]:
    def line(seq: int, table: int, e: ev.SeatEvent) -> str:
        return (
            f"event seq={seq} table={table} kind={kind} name={format_value(e.name)} seat={e.seat}"
        )

    return line


def _observer(seq: int, table: int, e: ev.Watching) -> str:
    return (
        f"event seq={seq} table={table} kind=observer name={format_value(e.name)}"
        f" watching={'1' if e.watching else '0'} observers={e.observers}"
    )


# each kind's template, by the event's class (an exact class: a look-up, no dispatch)
EVENT_LINES: dict[type, Callable[[int, int, Any], str]] = {
    g.CallMade: _call,
    g.CardPlayed: _play,
    g.Penalized: _penalty,
    g.Ordered: _order,
    g.Dealt: _dealt,
    g.TrickTaken: _trick,
    g.Shown: _shown,
    g.MatchStarted: _start,
    g.DealStarted: _deal,
    g.DealEnded: _deal_end,
    g.MatchEnded: _match_end,
    ev.Seated: _seat_event("seated"),
    ev.Left: _seat_event("left"),
    ev.WentAway: _seat_event("away"),
    ev.CameBack: _seat_event("back"),
    ev.Watching: _observer,
}
