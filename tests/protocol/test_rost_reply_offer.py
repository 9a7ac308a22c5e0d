"""The rost? reply is offered "or name a higher one" only when a higher top is legal
(docs/rules.md §3: the asker "says ot-RANK[-kozyrnogo] if his is better ... or
pishet"): a Kharkov table was offered it over a top it could not beat."""

from __future__ import annotations

from deberc_net.game.calls import parse_token
from deberc_net.game.match import Match
from deberc_net.game.view import view
from deberc_net.protocol import events as ev
from deberc_net.protocol.render import HUMAN, render
from deberc_net.protocol.render_ru import render_ru
from tests.game.decks import match2, say

ANNA = "7s 8s 9s 10s Jh Qh Kh Ad 9c"  # a fifty to 10s, declared first


def _heard(boris: str) -> Match:
    """anna declares her fifty and names its top to boris's rost?."""
    match = match2((ANNA, boris, "8c"), dealer=1)
    match.names = ("anna", "boris")
    say(match, 0, "igrayu", "pyatdesyat")
    match.apply(0, parse_token("7s"))
    say(match, 1, "rost?")
    say(match, 0, "ot-10")
    return match


def _told(match: Match, seat: int | None) -> tuple[list[str], list[str]]:
    kind = ev.AskKind.ASK if seat == 1 else ev.AskKind.STATE
    ask = ev.Ask(1, 1, view(match, seat), 60500 if seat == 1 else None, kind=kind)
    return render(ask, HUMAN), render_ru(ask)


def test_no_higher_top_offers_pishet_alone() -> None:
    match = _heard("7d 8d 9d 10d As Ah 10h Jc Qc")  # to 10d: as high, declared second
    assert view(match, 1).legal == ("pishet",)
    english, russian = _told(match, 1)
    assert "You have heard the top card: yours does not beat it, say pishet." in english
    assert not any("higher" in line for line in english)
    assert "Вы услышали старшую карту: ваша не старше, скажите «пишет»." in russian
    assert not any("назовите" in line for line in russian)
    # the others are not told his hand: what he may say, as before
    watched, _ = _told(match, None)
    assert "boris has heard the top card: boris says pishet, or names a higher one." in watched


def test_a_higher_top_is_offered_when_it_is_legal() -> None:
    match = _heard("8d 9d 10d Jd As Ah 10h 7c Qc")  # to Jd: higher
    assert view(match, 1).legal == ("ot-J", "pishet")
    english, russian = _told(match, 1)
    assert "You have heard the top card: say pishet, or name a higher one." in english
    assert (
        "Вы услышали старшую карту: скажите «пишет» или назовите свою, если она старше." in russian
    )
