"""A declaration refused under the opponent's says what is open: 'rost?' when the
classes are equal, nothing when his is higher (a club evening was told "rost? or
nothing" under a fifty, and its rost? was refused too). docs/rules.md §12.5."""

from __future__ import annotations

from deberc_net.game import errors as E
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import table_words
from deberc_net.protocol.refusals import refusal_phrase
from deberc_net.protocol.render import HUMAN, for_people, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import legal, play, refused, say

from .helpers import RULES, deal_of

SEAT0 = "7c 8c 9c 10c Kd 10s 8s 7s 9d"  # a fifty to 10c
SEAT1 = "10d Jd Qd 7h 9h Ks As Jh Qc"  # a terts to Qd
TALON = "8h 10h Ah Qh 7d 8d 9s Js Qs Ad Jc Kc"  # then Ac, under the turned Kh
NAMES = ("anna", "boris")


def _told(why: E.IllegalCall) -> tuple[str, str]:
    message = str(why)
    said = refusal_phrase(message, NAMES, table_words(RULES.call_aliases))
    error = ev.Error(why.code, message, for_people(message, NAMES), said)
    (human,) = render(error, HUMAN)
    return human, " ".join(render_ru(error))


def test_under_a_higher_class_nothing_is_offered_and_the_refusal_says_so() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    say(deal, 0, "pyatdesyat")
    play(deal, "Kd")
    assert "terts" not in legal(deal, 1) and "rost?" not in legal(deal, 1)
    refused(deal, 1, "rost?", E.ForbiddenRost)
    human, russian = _told(refused(deal, 1, "terts", E.NotAllowed))
    assert human == ("Error (not-allowed): a higher combination is declared: yours would not score")
    assert "rost" not in human and "от чего" not in russian
    assert "уже объявлена старшая комбинация: ваша не запишется" in russian


def test_under_an_equal_class_the_refusal_says_ask_rost() -> None:
    deal = deal_of(SEAT0.replace("10c", "Ac"), SEAT1, "Kh", TALON.replace("Ad", "10c"))
    say(deal, 0, "terts")
    play(deal, "Kd")
    assert "rost?" in legal(deal, 1)
    human, russian = _told(refused(deal, 1, "terts", E.NotAllowed))
    assert human == "Error (not-allowed): a combination as high is declared: ask rost?"
    assert "уже объявлена такая же комбинация: спросите «от чего?»" in russian


def test_a_bare_hundred_is_refused_for_what_stops_it() -> None:
    """«сто» (a hundred, which one left out) with no hundred legal was told only
    "cannot be said now": it is told what a named hundred or a terts would be."""
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    say(deal, 0, "pyatdesyat")
    play(deal, "Kd")
    human, russian = _told(refused(deal, 1, "sto", E.FalseDeclaration))
    assert human == "Error (false-declaration): you do not hold sto; yours to declare is terts"
    assert russian == "Ошибка (false-declaration): у вас нет «сто»; объявить можно «терц»"
    play(deal, "10d")  # seat 1, eight cards now: none is declared
    while (seat := deal.to_act) != 1 or len(deal.hands[1]) == 9:
        assert seat is not None  # (the deal goes on: eight cards a hand at least)
        play(deal, legal(deal, seat)[-1])
    human, russian = _told(refused(deal, 1, "sto", E.NotAllowed))
    assert human == (
        "Error (not-allowed): combinations are declared before your move, with nine cards"
    )
