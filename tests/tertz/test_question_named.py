"""A seat told to wait for an answer is told the question as it was spoken: 'rost?'
(a new player's tryout read "waiting for anna to answer rost"), the answer awaiting its
reply as said ('ot devyatki'); the machine line keeps its code, the Russian its words."""

from __future__ import annotations

from deberc_net.game import errors as E
from deberc_net.protocol import events as ev
from deberc_net.protocol.lang import table_words
from deberc_net.protocol.refusals import refusal_phrase
from deberc_net.protocol.render import HUMAN, MACHINE, for_people, render
from deberc_net.protocol.render_ru import render_ru
from deberc_net.testing import play, refused, say

from .helpers import RULES, deal_of

SEAT0 = "7c 8c 9c Ad Kd 10s 8s 7s 9d"  # a terts to 9c
SEAT1 = "10d Jd Qd 7h 9h Ks As Jh Qc"  # a terts to Qd
TALON = "8h 10h Ah Qh 7d 8d 9s Js Qs 10c Jc Kc"
NAMES = ("anna", "boris")


def _told(why: E.IllegalCall) -> tuple[str, str, str]:
    """The refusal as a program, an English and a Russian reader are told it."""
    message = str(why)
    said = refusal_phrase(message, NAMES, table_words(RULES.call_aliases))
    error = ev.Error(why.code, message, for_people(message, NAMES), said)
    (machine,) = render(error, MACHINE)
    (human,) = render(error, HUMAN)
    return machine, human, " ".join(render_ru(error))


def test_the_question_waited_for_is_named_as_spoken() -> None:
    deal = deal_of(SEAT0, SEAT1, "Kh", TALON)
    say(deal, 0, "terts")
    play(deal, "Ad")
    say(deal, 1, "rost?")
    machine, human, russian = _told(refused(deal, 1, "10d", E.AnswerRequired))
    assert machine == "error code=answer-required text=waiting for seat 0 to answer rost?"
    assert human == "Error (answer-required): waiting for anna to answer rost?"
    assert "сначала отвечает anna" in russian, russian
    say(deal, 0, "ot-9")
    machine, human, _ = _told(refused(deal, 0, "Kd", E.AnswerRequired))
    assert machine == "error code=answer-required text=waiting for seat 1 to answer ot-9"
    assert human == "Error (answer-required): waiting for boris to answer ot devyatki"
