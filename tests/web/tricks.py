"""A replay's tricks as a card player reads them (docs/web.md, /games/ID): for the tests
of the served page (test_replay_words.py) and of what a browser shows of it
(test_browser_phone.py)."""

from __future__ import annotations

from typing import Any

from deberc_net.game.cards import parse_card
from deberc_net.protocol.render import pretty_card


def trick_words(players: list[str], trick: dict[str, Any]) -> str:
    """A trick as the human style's history says it (docs/protocol.md §5.17), each card
    after its player: 'ann K♥, bob 7♥ > bob' ('unfinished': not taken)."""
    seats = len(players)
    laid = ", ".join(
        f"{players[(trick['leader'] + i) % seats]} {pretty_card(parse_card(c))}"
        for i, c in enumerate(trick["cards"])
    )
    winner = trick.get("winner")
    return f"{laid} > {players[winner]}" if winner is not None else f"{laid} unfinished"


def deal_tricks(players: list[str], record: dict[str, Any]) -> list[str]:
    """Each trick of a deal's record, in play order; one left on the table last."""
    unfinished = record.get("unfinished_trick")
    left = [trick_words(players, unfinished)] if unfinished else []
    return [trick_words(players, t) for t in record["tricks"]] + left
