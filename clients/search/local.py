"""The bot's inputs made in-process from an engine ``Match``: the seat's ``View`` exactly as
the server renders it in the machine style, and the deal's public calls. For tests and
for trying the bot without a server."""

from __future__ import annotations

from clients.protocol import View, parse
from deberc_net.game.calls import Call
from deberc_net.game.cards import card_str
from deberc_net.game.match import Match
from deberc_net.game.view import view as seat_view
from deberc_net.protocol.events import Ask
from deberc_net.protocol.render import render

from .history import DealHistory


def view_of(match: Match, seat: int, clock_ms: int = 10_000) -> View:
    (line,) = render(Ask(1, 1, seat_view(match, seat), clock_ms), "machine")
    parsed = parse(line)
    assert isinstance(parsed, View)
    return parsed


def call_for(match: Match, seat: int, token: str) -> Call:
    """The legal call of ``seat`` whose token is ``token`` (a rule plugin's included)."""
    for call in match.legal_calls(seat):
        if call.token() == token:
            return call
    raise ValueError(f"{token!r} is not a legal call of seat {seat}")


def history_of(match: Match) -> DealHistory:
    deal = match.deal
    return DealHistory(
        1,
        deal.deal_no,
        deal.dealer,
        card_str(deal.original_turned),
        [(e.seat, e.call.token()) for e in deal.log],
    )
